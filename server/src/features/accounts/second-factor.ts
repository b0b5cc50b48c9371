import crypto from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';
import type { SecondFactorSetup } from '@app/contracts';
import { hmacSha256 } from '../../lib/crypto.ts';

/*
 * The second factor's pieces that need no database: TOTP (RFC 6238: SHA-1, 6 digits, 30-second
 * steps, through otplib) checked one step either side, the secret encrypted at rest, the QR code as
 * an SVG path, and recovery codes with their HMACs.
 */

export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Нейростудия';

export const newTotpSecret = (): string => generateSecret();

/** The time step a code of `secret` was made for, if it is one of now's or one either side. */
export function totpStep(secret: string, code: string, nowMs: number): number | null {
  const result = verifySync({ secret, token: code, epoch: Math.floor(nowMs / 1000), period: TOTP_PERIOD_SECONDS, epochTolerance: TOTP_PERIOD_SECONDS });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** What an authenticator app reads: the link, the QR code of it (modules as one SVG path), the secret as text. */
export function enrolmentOf(secret: string, email: string): SecondFactorSetup {
  const url = generateURI({ issuer: ISSUER, label: email, secret, period: TOTP_PERIOD_SECONDS });
  const { modules } = QRCode.create(url, { errorCorrectionLevel: 'M' });
  let path = '';
  for (let y = 0; y < modules.size; y++) for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) path += `M${String(x)} ${String(y)}h1v1h-1z`;
  return { secret, otpauth_url: url, qr: { size: modules.size, path } };
}

const keyOf = (appSecret: string) => crypto.createHash('sha256').update(`second-factor-key:${appSecret}`).digest();

/** The secret as the database keeps it: AES-256-GCM under a key derived from `APP_SECRET`. */
export function sealSecret(appSecret: string, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(appSecret), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

export function openSecret(appSecret: string, stored: string): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('unknown second factor secret format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(appSecret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}

/** Letters and digits no one reads as another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten recovery codes as shown once: `abcde-fghjk`. */
export const newRecoveryCodes = (): string[] =>
  Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });

/** A typed code as it is compared: the app's 6 digits, or a recovery code's 10 characters. */
export function readCode(raw: string): { kind: 'totp' | 'recovery'; code: string } | null {
  const code = raw.toLowerCase().replace(/[\s-]+/g, '');
  if (/^\d{6}$/.test(code)) return { kind: 'totp', code };
  if (new RegExp(`^[${RECOVERY_ALPHABET}]{10}$`).test(code)) return { kind: 'recovery', code };
  return null;
}

export const recoveryCodeHash = (appSecret: string, userId: number, code: string) => hmacSha256(appSecret, `recovery-code:${String(userId)}:${code.toLowerCase().replace(/[\s-]+/g, '')}`, 'hex');
