import { z } from './zod-ru.ts';

/** A string field a user fills in: missing, non-string and blank all read as `requiredMessage`. */
export const requiredString = (requiredMessage: string) =>
  z.string({ error: requiredMessage }).trim().min(1, requiredMessage);

export const EmailSchema = requiredString('Введите email')
  .max(254, 'Слишком длинный email')
  .pipe(z.email('Введите корректный email'))
  .transform((email) => email.toLowerCase());

export const PASSWORD_MIN_LENGTH = 8;

export const NewPasswordSchema = z
  .string({ error: 'Введите пароль' })
  .min(1, 'Введите пароль')
  .min(PASSWORD_MIN_LENGTH, `Пароль должен быть не короче ${PASSWORD_MIN_LENGTH} символов`)
  .max(256, 'Пароль должен быть не длиннее 256 символов');

export const PasswordConfirmationSchema = z.string({ error: 'Повторите пароль' }).min(1, 'Повторите пароль').max(256, 'Пароль должен быть не длиннее 256 символов');

/** Positive integer id in a query or path (`?id=5`). */
export const IdSchema = z.coerce
  .number({ error: 'Неверный идентификатор' })
  .int('Неверный идентификатор')
  .positive('Неверный идентификатор')
  .max(Number.MAX_SAFE_INTEGER, 'Неверный идентификатор');

/** A timestamp on the wire: ISO 8601 in UTC. */
export const TimestampSchema = z.string();
