import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { SignInCheckSchema, type SignInChallenge } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { hmacSha256 } from '../../lib/crypto.ts';
import { countHit } from '../../lib/rate-limits.queries.ts';

/*
 * The check an account under attack asks of every sign-in (ALTCHA's proof of work): the browser
 * derives PBKDF2 keys until one matches the challenge's prefix — about a second of a laptop's work
 * at the first level, twice as much at each further level — and the server checks the answer with
 * one derivation. Guessing that account's password from many addresses then costs that work per
 * guess; its owner waits a few seconds and is never locked out. A challenge names the email it is
 * for, expires in five minutes and is taken once.
 */

export const SIGN_IN_CHECK = {
  algorithm: 'PBKDF2/SHA-256',
  /** PBKDF2 iterations per try. */
  cost: 1000,
  /** The tries of the first level, on average; each further level doubles them. */
  tries: 1000,
  maxLevel: 3,
  ttlSeconds: 300,
} as const;

const secrets = (ctx: AppContext) => ({
  hmacSignatureSecret: hmacSha256(ctx.secrets.appSecret, 'sign-in-check', 'hex'),
  hmacKeySignatureSecret: hmacSha256(ctx.secrets.appSecret, 'sign-in-check-key', 'hex'),
});

/** A challenge for a sign-in to `email`, as hard as `level` (1…`maxLevel`) says. */
export async function createSignInChallenge(ctx: AppContext, email: string, level: number): Promise<SignInChallenge> {
  const tries = SIGN_IN_CHECK.tries * 2 ** (Math.min(Math.max(level, 1), SIGN_IN_CHECK.maxLevel) - 1);
  const challenge = await createChallenge({
    algorithm: SIGN_IN_CHECK.algorithm,
    cost: SIGN_IN_CHECK.cost,
    counter: randomInt(Math.round(tries * 1.5), Math.round(tries / 2)),
    deriveKey,
    data: { email },
    expiresAt: new Date(ctx.clock() + SIGN_IN_CHECK.ttlSeconds * 1000),
    ...secrets(ctx),
  });
  return challenge as SignInChallenge;
}

/**
 * Whether `check` (the browser's answer, as sent) solves a challenge this service made for
 * `email` that has not expired and was not used before; taking it uses it up.
 */
export async function passesSignInCheck(ctx: AppContext, email: string, check: string | undefined): Promise<boolean> {
  if (!check) return false;
  let payload;
  try {
    payload = SignInCheckSchema.parse(JSON.parse(Buffer.from(check, 'base64url').toString('utf8')));
  } catch {
    return false;
  }
  const { challenge, solution } = payload;
  if (challenge.parameters.data?.email !== email || challenge.parameters.algorithm !== SIGN_IN_CHECK.algorithm || challenge.parameters.cost !== SIGN_IN_CHECK.cost) return false;
  const expiresAt = challenge.parameters.expiresAt ?? 0;
  if (expiresAt * 1000 <= ctx.clock()) return false;
  const result = await verifySolution({ challenge, solution, deriveKey, ...secrets(ctx) }).catch(() => null);
  if (!result?.verified || !challenge.signature) return false;
  const use = await countHit(ctx.db, `login:check:${challenge.signature}`, SIGN_IN_CHECK.ttlSeconds * 2, expiresAt * 1000);
  return use.hits === 1;
}
