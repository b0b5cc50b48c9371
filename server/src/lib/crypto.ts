import crypto from 'node:crypto';

/** A random URL-safe token with a readable prefix. */
export const randomToken = (prefix = '', bytes = 32) => prefix + crypto.randomBytes(bytes).toString('base64url');

/** Tokens are stored only as their SHA-256. */
export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest();

export const hmacSha256 = (secret: string | Buffer, message: string | Buffer, encoding: 'base64' | 'hex' | 'base64url' = 'base64') =>
  crypto.createHmac('sha256', secret).update(message).digest(encoding);

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    crypto.timingSafeEqual(ab, ab);
    return false;
  }
  return crypto.timingSafeEqual(ab, bb);
}

/** A 6-digit numeric code, uniformly random. */
export const randomDigits = (length = 6) => String(crypto.randomInt(0, 10 ** length)).padStart(length, '0');
