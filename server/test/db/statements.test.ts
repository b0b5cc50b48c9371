import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { call, createTestApp, newUser, type TestApp } from '../support/index.ts';

/* How many statements the hottest reads send to PostgreSQL: each one is a round trip on every page. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
});
afterAll(() => t.close());

/** The statements sent by any pg client of this process while `fn` runs (the listener's LISTEN excepted). */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, never called unbound
  const original = pg.Client.prototype.query;
  const counting = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : ((first as { text?: string; name?: string } | undefined)?.text ?? (first as { name?: string } | undefined)?.name ?? '');
    if (!/^\s*(listen|unlisten)\b/i.test(text)) seen.push(text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  pg.Client.prototype.query = counting as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}

describe('GET /api/new/user', () => {
  it('reads the viewer with the session and reuses it: two statements for a confirmed user, three before confirmation', async () => {
    const confirmed = await newUser(t.db);
    const unconfirmed = await newUser(t.db, { confirmed: false });
    // Warm: the first request of a process prepares its statements.
    await call(t.app, { url: '/api/new/user', token: confirmed.token });
    const a = await statementsOf(() => call(t.app, { url: '/api/new/user', token: confirmed.token }));
    const b = await statementsOf(() => call(t.app, { url: '/api/new/user', token: unconfirmed.token }));
    expect(a, a.join('\n')).toHaveLength(2);
    expect(b, b.join('\n')).toHaveLength(3);
    expect((await call(t.app, { url: '/api/new/user', token: unconfirmed.token })).data.json).toMatchObject({ email: unconfirmed.email, email_confirmed: false, role: 'user' });
  });
});
