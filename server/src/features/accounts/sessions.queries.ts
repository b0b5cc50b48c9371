import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { prepared } from '../../db/prepared.ts';
import type { Viewer } from './viewer.ts';

export interface IssuedSession {
  id: number;
  bearer: string;
  cookie: string;
  expiresAt: Date;
}

/** Starts a session: a bearer token for API calls and a separate HttpOnly cookie token. */
export async function createSession(db: Executor, userId: number, ttlDays: number, meta: { ip: string; userAgent: string | undefined }): Promise<IssuedSession> {
  const bearer = randomToken('ns_');
  const cookie = randomToken('nc_');
  const expiresAt = new Date(Date.now() + ttlDays * 86_400_000);
  const row = await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      bearer_hash: sha256(bearer),
      cookie_hash: sha256(cookie),
      expires_at: expiresAt,
      last_seen_at: new Date(),
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 500) ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, bearer, cookie, expiresAt };
}

/** The live session whose bearer (or cookie) token has this hash, with its user: asked when the viewer cache cannot answer. */
const liveSessionBy = (column: 'sessions.bearer_hash' | 'sessions.cookie_hash') =>
  prepared(
    (db, hash: Buffer) =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['sessions.id as session_id', 'sessions.last_seen_at', 'sessions.expires_at', 'users.id', 'users.email', 'users.role', 'users.email_confirmed_at', 'users.blocked_at', 'users.password_temporary', 'users.setup_steps'])
        .where(column, '=', hash)
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', sql<Date>`now()`),
    (hash) => [hash],
    [Buffer.alloc(32)],
  );
const liveSession = { bearer: liveSessionBy('sessions.bearer_hash'), cookie: liveSessionBy('sessions.cookie_hash') };

/** A live session as the viewer cache keeps it. */
export interface LiveSession {
  viewer: Viewer;
  expiresAt: Date;
  lastSeenAt: Date;
}

/** The live session behind a token's hash, with its user, if any. */
export async function findLiveSession(db: Executor, hash: Buffer, via: Viewer['via']): Promise<LiveSession | null> {
  const [row] = await liveSession[via](db, hash);
  if (!row) return null;
  return {
    viewer: {
      id: row.id,
      email: row.email,
      role: row.role,
      emailConfirmed: row.email_confirmed_at !== null,
      blocked: row.blocked_at !== null,
      setupStep: row.setup_steps[0] ?? null,
      passwordTemporary: row.password_temporary,
      sessionId: row.session_id,
      via,
    },
    expiresAt: row.expires_at,
    lastSeenAt: row.last_seen_at,
  };
}

/** Notes that a session was used (the admin panel's "last seen"). */
export async function touchSession(db: Executor, sessionId: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: new Date() }).where('id', '=', sessionId).execute();
}

export async function revokeSession(db: Executor, sessionId: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Ends every session of a user (after a password reset, when made staff); answers how many were live. */
export async function revokeUserSessions(db: Executor, userId: number): Promise<number> {
  const res = await db.updateTable('sessions').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', sql<Date>`now()`).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Ends every session of a user but one (the one that changed the password goes on). */
export async function revokeOtherSessions(db: Executor, userId: number, keepSessionId: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('id', '<>', keepSessionId).where('revoked_at', 'is', null).execute();
}
