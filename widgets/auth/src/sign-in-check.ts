import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import type { SignInChallenge } from '@app/contracts/browser';

/**
 * Solves a sign-in check (ALTCHA's proof of work) with the browser's own PBKDF2: a few seconds of
 * work, loaded only when an account asks for it. Answers what the sign-in sends as `check`, or
 * null when it could not be solved in a minute.
 */
export async function solveSignInCheck(challenge: SignInChallenge): Promise<string | null> {
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 60_000 });
  if (!solution) return null;
  const bytes = new TextEncoder().encode(JSON.stringify({ challenge, solution }));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
