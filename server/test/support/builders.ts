import crypto from 'node:crypto';
import { generateSync } from 'otplib';
import type { Role } from '@app/contracts';
import type { Db } from '../../src/db/database.ts';
import { hashPassword } from '../../src/features/accounts/passwords.ts';
import { createSession } from '../../src/features/accounts/sessions.queries.ts';

export interface TestUser {
  id: number;
  email: string;
  password: string;
  /** A live bearer token of this user. */
  token: string;
  /** A live session cookie value of this user. */
  cookie: string;
}

let counter = 0;

/** Inserts a user (confirmed unless told otherwise) with a live session. */
export async function newUser(db: Db, opts: { email?: string; password?: string; confirmed?: boolean; role?: Role; blocked?: boolean } = {}): Promise<TestUser> {
  counter += 1;
  const email = opts.email ?? `user${String(counter)}-${crypto.randomBytes(3).toString('hex')}@example.ru`;
  const password = opts.password ?? 'correct-horse-battery';
  const user = await db
    .insertInto('users')
    .values({
      email,
      password_hash: await hashPassword(password),
      role: opts.role ?? 'user',
      email_confirmed_at: opts.confirmed === false ? null : new Date(),
      blocked_at: opts.blocked ? new Date() : null,
    })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
  const session = await createSession(db, user.id, 30, { ip: '127.0.0.1', userAgent: 'test' });
  return { id: user.id, email: user.email, password, token: session.bearer, cookie: session.cookie };
}

export const newAdmin = (db: Db, opts: { email?: string } = {}) => newUser(db, { ...opts, role: 'admin' });

/** The authenticator app's code of a second factor's secret at `atMs` (now by default), as staff type it. */
export const totpCode = (secret: string, atMs = Date.now()) => generateSync({ secret, epoch: Math.floor(atMs / 1000) });
