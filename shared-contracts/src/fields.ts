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

/** The largest id any table gives (PostgreSQL's `integer`; `bigint` ids never come near it). */
export const MAX_ID = 2_147_483_647;

/**
 * Positive integer id in a query, path or body (`?id=5`): within {@link MAX_ID}, so an id past
 * 32 bits is a validation error, never a database one.
 */
export const IdSchema = z.pipe(z.coerce.number({ error: INVALID_ID }), z.int(INVALID_ID).check(z.positive(INVALID_ID), z.maximum(MAX_ID, INVALID_ID)));

export const UNSTORABLE_TEXT_MESSAGE = 'Текст содержит недопустимые символы';

/**
 * Whether the database can keep `text` as it is (and so can the audit log's JSON): no NUL (text
 * columns refuse it) and no lone UTF-16 surrogate (jsonb refuses those).
 */
export function isStorableText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0 || (c >= 0xdc00 && c <= 0xdfff)) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    }
  }
  return true;
}

/**
 * `text` as the database can keep it: NUL removed, then each lone surrogate (an emoji cut in half)
 * replaced by U+FFFD. For text that is cleaned rather than refused (a chat's title, a message).
 */
export function toStorableText(text: string): string {
  const clean = text.replaceAll('\u0000', '');
  if (isStorableText(clean)) return clean;
  let out = '';
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    const next = clean.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += clean.slice(i, i + 2);
      i++;
    } else {
      out += c >= 0xd800 && c <= 0xdfff ? '\ufffd' : clean.charAt(i);
    }
  }
  return out;
}

/**
 * A check for text that is kept (and audited): NUL and lone surrogates are refused with a Russian
 * message instead of failing in the database (`z.string().check(storableText())`).
 */
export const storableText = () => z.refine<string>(isStorableText, UNSTORABLE_TEXT_MESSAGE);
