import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { hmacSha256, randomToken, safeEqual } from '../../lib/crypto.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
/** A `_token` in the body is looked for only in a body this small (a plain form's); a larger one needs the header. */
export const TOKEN_BODY_MAX_BYTES = 64 * 1024;

/** A signed double-submit token: `<random>.<hmac>`. */
export function issueCsrfCookie(reply: FastifyReply, secret: string, secure: boolean): string {
  const nonce = randomToken('', 24);
  const token = `${nonce}.${hmacSha256(secret, `xsrf:${nonce}`, 'base64url')}`;
  void reply.setCookie(XSRF_COOKIE, token, { path: '/', sameSite: 'lax', secure, httpOnly: false, maxAge: 60 * 60 * 2 });
  return token;
}

/**
 * 419 unless the X-XSRF-TOKEN header (or, for plain HTML forms, a `_token` field of a body up to
 * {@link TOKEN_BODY_MAX_BYTES}) echoes a validly signed XSRF-TOKEN cookie (Sanctum's rule).
 */
export function verifyCsrf(req: FastifyRequest): void {
  const formToken = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>)._token : undefined;
  const header = req.headers[XSRF_HEADER] ?? (typeof formToken === 'string' ? formToken : undefined);
  const cookie = req.cookies[XSRF_COOKIE];
  if (typeof header !== 'string' || !cookie) throw new AppError('CSRF_MISMATCH');
  const sent = safeDecode(header);
  if (!safeEqual(sent, cookie)) throw new AppError('CSRF_MISMATCH');
  const [nonce, signature] = cookie.split('.');
  if (!nonce || !signature || !safeEqual(signature, hmacSha256(req.server.ctx.secrets.appSecret, `xsrf:${nonce}`, 'base64url'))) {
    throw new AppError('CSRF_MISMATCH');
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
