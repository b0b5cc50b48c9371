import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { call, createTestApp, newUser, type TestApp, type TestUser } from '../support/index.ts';

/**
 * The database goes away under the server: connections killed mid-request, statements that
 * never finish, more requests than connections. The process must survive, answer 503 with the
 * envelope, and serve again without a restart.
 */

let t: TestApp | undefined;
const blockers: pg.Client[] = [];
afterEach(async () => {
  for (const client of blockers.splice(0)) await client.end().catch(() => undefined);
  await t?.close();
  t = undefined;
});

/** A second connection holding the user's session row locked, so the server's session touch waits on it. */
async function lockSession(app: TestApp, user: TestUser): Promise<pg.Client> {
  await app.db.updateTable('sessions').set({ last_seen_at: new Date(Date.now() - 3_600_000) }).where('user_id', '=', user.id).execute();
  const client = new pg.Client({ connectionString: app.config.databaseUrl });
  await client.connect();
  blockers.push(client);
  await client.query('begin');
  await client.query('select id from sessions where user_id = $1 for update', [user.id]);
  return client;
}

async function waitForLockWaiters(client: pg.Client, count: number): Promise<number[]> {
  for (let i = 0; i < 200; i++) {
    const res = await client.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
    if (res.rows.length >= count) return res.rows.map((r) => r.pid);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`fewer than ${String(count)} requests waited on the lock`);
}

const me = (app: TestApp, user: TestUser) => call(app.app, { url: '/api/new/user', token: user.token });

describe('database outages', () => {
  it('a connection terminated mid-request answers 503 and the server keeps serving', async () => {
    t = await createTestApp({ workers: false });
    const user = await newUser(t.db);
    const blocker = await lockSession(t, user);
    const pending = me(t, user);
    const [pid] = await waitForLockWaiters(blocker, 1);
    await blocker.query('select pg_terminate_backend($1)', [pid]);
    const res = await pending;
    expect(res.statusCode).toBe(503);
    expect(res.data).toEqual({ status: 'error', code: 'SERVICE_UNAVAILABLE', text: 'Сервис временно недоступен' });
    expect(res.headers['retry-after']).toBe('5');
    await blocker.query('rollback');
    expect((await me(t, user)).statusCode).toBe(200);
  });

  it('survives every busy connection being terminated under load', async () => {
    t = await createTestApp({ workers: false });
    const app = t;
    const user = await newUser(app.db);
    const killer = new pg.Client({ connectionString: app.config.databaseUrl });
    await killer.connect();
    blockers.push(killer);
    let stop = false;
    const kills = (async () => {
      let killed = 0;
      while (!stop) {
        const res = await killer.query("select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and usename = current_user and backend_type = 'client backend'");
        killed += res.rows.length;
        await new Promise((r) => setTimeout(r, 5));
      }
      return killed;
    })();
    const statuses = await Promise.all(Array.from({ length: 300 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i % 50));
      return (await call(app.app, { url: '/api/new/subscribe/check_user', token: user.token })).statusCode;
    }));
    stop = true;
    expect(await kills).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect((await me(app, user)).statusCode).toBe(200);
  });

  it('a statement that does not finish in time answers 503 instead of hanging', async () => {
    t = await createTestApp({ workers: false, env: { DATABASE_STATEMENT_TIMEOUT_MS: '300' } });
    const user = await newUser(t.db);
    const blocker = await lockSession(t, user);
    const res = await me(t, user);
    expect(res.statusCode).toBe(503);
    expect(res.data.code).toBe('SERVICE_UNAVAILABLE');
    await blocker.query('rollback');
    expect((await me(t, user)).statusCode).toBe(200);
  });

  it('bounds the queue waiting for a connection: the overflow is refused at once, the waiters time out', async () => {
    t = await createTestApp({ workers: false, env: { DATABASE_POOL_SIZE: '1', DATABASE_MAX_WAITING: '2', DATABASE_CONNECT_TIMEOUT_MS: '400' } });
    const app = t;
    const user = await newUser(app.db);
    const blocker = await lockSession(app, user);
    const holder = me(app, user);
    await waitForLockWaiters(blocker, 1);
    const others = await Promise.all(Array.from({ length: 6 }, () => me(app, user)));
    expect(others.map((r) => r.statusCode)).toEqual([503, 503, 503, 503, 503, 503]);
    await blocker.query('rollback');
    expect((await holder).statusCode).toBe(200);
    expect((await me(app, user)).statusCode).toBe(200);
  });

  it('the page of a signed-in user says the service is unavailable with 503', async () => {
    t = await createTestApp({ workers: false, env: { DATABASE_STATEMENT_TIMEOUT_MS: '300' } });
    const user = await newUser(t.db);
    const blocker = await lockSession(t, user);
    const res = await call(t.app, { url: '/dashboard', cookies: { session: user.cookie } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toContain('text/html');
    await blocker.query('rollback');
  });
});
