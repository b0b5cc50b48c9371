import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/features/accounts/sessions.queries.ts';
import { call, createTestApp, eventually, newAdmin, newUser, type TestApp } from '../support/index.ts';

/*
 * Each process knows who sends a token from memory (ViewerCache); every change of a user or a
 * session reaches every process by NOTIFY (triggers of migration 0033). Two apps on one database
 * stand for two web processes.
 */
let a: TestApp;
let b: TestApp;
let uncached: TestApp;

beforeAll(async () => {
  a = await createTestApp({ workers: false });
  b = await createTestApp({ workers: false, shareDatabaseWith: a });
  uncached = await createTestApp({ workers: false, shareDatabaseWith: a, env: { SESSION_CACHE_SECONDS: '0' } });
});

afterAll(async () => {
  await uncached.close();
  await b.close();
  await a.close();
});

const me = (t: TestApp, token: string) => call(t.app, { url: '/api/new/user', token });

/** Changes rows without firing triggers: what the cache would miss if nothing announced it. */
async function silently(t: TestApp, statement: ReturnType<typeof sql>): Promise<void> {
  await t.db.connection().execute(async (conn) => {
    await sql`set session_replication_role = replica`.execute(conn);
    try {
      await statement.execute(conn);
    } finally {
      await sql`set session_replication_role = origin`.execute(conn);
    }
  });
}

describe('who sends a token, from memory', () => {
  it('a token seen once is answered without the database; a change nobody announced is seen only where nothing is cached', async () => {
    const user = await newUser(a.db);
    expect((await me(b, user.token)).statusCode).toBe(200);
    await silently(a, sql`update sessions set revoked_at = now() where user_id = ${user.id}`);
    // B still knows the token (no notification came); a process that does not cache asks the database.
    expect((await me(b, user.token)).statusCode).toBe(200);
    expect((await me(uncached, user.token)).statusCode).toBe(401);
    // Any announced change of the user drops what B knows of them.
    await a.db.updateTable('users').set({ email_confirmed_at: new Date() }).where('id', '=', user.id).execute();
    const after = await eventually(() => me(b, user.token), (res) => res.statusCode === 401);
    expect(after.statusCode).toBe(401);
  });

  it('a sign-out is refused at once by the process that signed out and by the other one as soon as it is told', async () => {
    const user = await newUser(a.db);
    expect((await me(a, user.token)).statusCode).toBe(200);
    expect((await me(b, user.token)).statusCode).toBe(200);
    expect((await call(a.app, { url: '/api/new/logout', token: user.token })).statusCode).toBe(200);
    expect((await me(a, user.token)).statusCode).toBe(401);
    const onB = await eventually(() => me(b, user.token), (res) => res.statusCode === 401);
    expect(onB.statusCode).toBe(401);
  });

  it('an admin’s role change and block on one process apply on the other', async () => {
    const admin = await newAdmin(a.db);
    const user = await newUser(a.db);
    expect((await call(b.app, { url: '/api/admin/users', token: user.token })).statusCode).toBe(403);
    const promote = await call(a.app, { method: 'PATCH', url: `/api/admin/users/${String(user.id)}`, token: admin.token, payload: { role: 'admin' } });
    expect(promote.statusCode).toBe(200);
    // A new role ends the account's sessions: here at once, on the other process by the notification.
    expect((await me(a, user.token)).statusCode).toBe(401);
    expect((await eventually(() => me(b, user.token), (res) => res.statusCode === 401)).statusCode).toBe(401);
    // Signed in again, staff enrol the second factor first.
    const again = await createSession(a.db, user.id, 30, { ip: '127.0.0.1', userAgent: 'test' });
    const asStaff = await call(b.app, { url: '/api/admin/users', token: again.bearer });
    expect({ status: asStaff.statusCode, code: asStaff.data.code }).toEqual({ status: 403, code: 'SECOND_FACTOR_SETUP_REQUIRED' });

    const block = await call(a.app, { method: 'PATCH', url: `/api/admin/users/${String(user.id)}`, token: admin.token, payload: { blocked: true } });
    expect(block.statusCode).toBe(200);
    const blockedHere = await me(a, again.bearer);
    expect({ status: blockedHere.statusCode, code: blockedHere.data.code }).toEqual({ status: 403, code: 'ACCOUNT_BLOCKED' });
    // Before the notification arrives B already refuses the account (its second factor is not set up): wait for the block itself.
    const blockedThere = await eventually(() => me(b, again.bearer), (res) => res.data.code === 'ACCOUNT_BLOCKED');
    expect({ status: blockedThere.statusCode, code: blockedThere.data.code }).toEqual({ status: 403, code: 'ACCOUNT_BLOCKED' });
  });

  it('a password change ends the other sessions on every process; the one that changed it goes on', async () => {
    const user = await newUser(a.db);
    const other = await createSession(a.db, user.id, 30, { ip: '127.0.0.1', userAgent: 'другой браузер' });
    expect((await me(b, other.bearer)).statusCode).toBe(200);
    expect((await me(a, other.bearer)).statusCode).toBe(200);
    const change = await call(a.app, { method: 'POST', url: '/api/new/password/change', token: user.token, payload: { current_password: user.password, password: 'new-horse-battery-9', password_confirmation: 'new-horse-battery-9' } });
    expect(change.statusCode).toBe(200);
    expect((await me(a, other.bearer)).statusCode).toBe(401);
    expect((await me(a, user.token)).statusCode).toBe(200);
    const onB = await eventually(() => me(b, other.bearer), (res) => res.statusCode === 401);
    expect(onB.statusCode).toBe(401);
    expect((await me(b, user.token)).statusCode).toBe(200);
  });

  it('a session that expires is refused from memory too', async () => {
    const user = await newUser(a.db);
    const short = await a.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() + 1500) })
      .where('user_id', '=', user.id)
      .returning('expires_at')
      .executeTakeFirstOrThrow();
    expect((await me(b, user.token)).statusCode).toBe(200);
    const later = await eventually(() => me(b, user.token), (res) => res.statusCode === 401);
    expect(later.statusCode).toBe(401);
    expect(Date.now()).toBeGreaterThanOrEqual(short.expires_at.getTime());
  });

  it('while the notification connection is down nothing is answered from memory, and what was kept is dropped', async () => {
    const user = await newUser(a.db);
    expect((await me(b, user.token)).statusCode).toBe(200);
    expect(b.ctx.viewers.size).toBeGreaterThan(0);
    await b.ctx.listener.stop();
    try {
      expect(b.ctx.listener.listening).toBe(false);
      expect(b.ctx.viewers.size).toBe(0);
      // A change nobody can tell B of is seen: the database answers every request meanwhile.
      await silently(a, sql`update users set blocked_at = now() where id = ${user.id}`);
      expect((await me(b, user.token)).statusCode).toBe(403);
      await silently(a, sql`update users set blocked_at = null where id = ${user.id}`);
      expect((await me(b, user.token)).statusCode).toBe(200);
      expect(b.ctx.viewers.size).toBe(0);
    } finally {
      await b.ctx.listener.start();
    }
    // Listening again: kept again (a silent change shows that memory answers).
    expect(b.ctx.listener.listening).toBe(true);
    expect((await me(b, user.token)).statusCode).toBe(200);
    await silently(a, sql`update users set blocked_at = now() where id = ${user.id}`);
    expect((await me(b, user.token)).statusCode).toBe(200);
  });

  it('a notification connection killed under it is made again, and what was kept meanwhile is dropped', async () => {
    const user = await newUser(a.db);
    expect((await me(b, user.token)).statusCode).toBe(200);
    expect(b.ctx.viewers.size).toBeGreaterThan(0);
    // Every process's LISTEN connection is cut; each notices, drops what it kept and connects again.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'listener' and datname = current_database()`.execute(a.db);
    await eventually(async () => ({ listening: b.ctx.listener.listening, kept: b.ctx.viewers.size }), (s) => s.listening && s.kept === 0);
    expect(b.ctx.listener.listening).toBe(true);
    expect(b.ctx.viewers.size).toBe(0);
    await silently(a, sql`update users set blocked_at = now() where id = ${user.id}`);
    expect((await me(b, user.token)).statusCode).toBe(403);
  });

  it('a TRUNCATE of the sessions drops every process’s memory at once', async () => {
    const user = await newUser(a.db);
    expect((await me(b, user.token)).statusCode).toBe(200);
    await sql`truncate sessions`.execute(a.db);
    const after = await eventually(() => me(b, user.token), (res) => res.statusCode === 401);
    expect(after.statusCode).toBe(401);
  });
});
