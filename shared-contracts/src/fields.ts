import * as z from 'zod/mini';
import './zod-messages.ts';

/*
 * Field schemas that the browser parses too (forms, via the contracts' browser entry), so they
 * are written with zod/mini: the browser bundles only the checks they use. The server uses the
 * same schemas (fastify-type-provider-zod takes any zod 4 schema).
 */

/** A string field a user fills in: missing, non-string and blank all read as `requiredMessage`. */
export const requiredString = (requiredMessage: string) => z.string({ error: requiredMessage }).check(z.trim(), z.minLength(1, requiredMessage));

export const EmailSchema = z.pipe(
  requiredString('Введите email').check(z.maxLength(254, 'Слишком длинный email')),
  z.pipe(
    z.email('Введите корректный email'),
    z.transform((email: string) => email.toLowerCase()),
  ),
);

export const PASSWORD_MIN_LENGTH = 8;

export const NewPasswordSchema = z
  .string({ error: 'Введите пароль' })
  .check(
    z.minLength(1, 'Введите пароль'),
    z.minLength(PASSWORD_MIN_LENGTH, `Пароль должен быть не короче ${String(PASSWORD_MIN_LENGTH)} символов`),
    z.maxLength(256, 'Пароль должен быть не длиннее 256 символов'),
  );

export const PasswordConfirmationSchema = z.string({ error: 'Повторите пароль' }).check(z.minLength(1, 'Повторите пароль'), z.maxLength(256, 'Пароль должен быть не длиннее 256 символов'));

const INVALID_ID = 'Неверный идентификатор';

/** Positive integer id in a query or path (`?id=5`). */
export const IdSchema = z.pipe(z.coerce.number({ error: INVALID_ID }), z.int(INVALID_ID).check(z.positive(INVALID_ID), z.maximum(Number.MAX_SAFE_INTEGER, INVALID_ID)));
