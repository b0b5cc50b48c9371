import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgListener } from '../../src/lib/pg-listener.ts';
import { createTestApp, DbProxy, until, type TestApp } from '../support/index.ts';

/*
 * The LISTEN connection every process keeps (job wake-ups, stops, caches that notifications
 * invalidate) must know when it stops receiving: a connection that goes silent without an error
 * (a frozen server, a partition that drops nothing) is caught by its heartbeat and made again.
 */

let t: TestApp;
let proxy: DbProxy;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  const target = new URL(t.databaseUrl);
  proxy = new DbProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.start();
});
afterAll(async () => {
  proxy.thaw();
  await proxy.stop();
  await t.close();
});

describe('the notification connection', () => {
  it('goes silent behind a frozen proxy: its heartbeat says so, callers are told, and it is made again once the database answers', async () => {
    const listener = new PgListener(proxy.url(t.databaseUrl), pino({ level: 'silent' }), 500);
    const got: string[] = [];
    const events: string[] = [];
    listener.subscribe('ns_test_channel', { onMessage: (p) => got.push(p), onDisconnect: () => events.push('down'), onReconnect: () => events.push('back') });
    try {
      await listener.start();
      expect(listener.listening).toBe(true);
      await sql`select pg_notify('ns_test_channel', 'first')`.execute(t.db);
      await until(async () => got.includes('first'));

      proxy.freeze();
      // Nothing errs on a frozen connection: only the heartbeat can tell.
      await until(async () => !listener.listening, 10_000, 20);
      expect(events.at(-1)).toBe('down');

      proxy.thaw();
      await until(async () => listener.listening, 15_000, 50);
      expect(events.at(-1)).toBe('back');
      await sql`select pg_notify('ns_test_channel', 'second')`.execute(t.db);
      await until(async () => got.includes('second'));
    } finally {
      await listener.stop();
    }
    expect(listener.listening).toBe(false);
  });
});
