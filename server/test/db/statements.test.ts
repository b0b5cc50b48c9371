import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { chatRoutes } from '@app/contracts';
import { credit } from '../../src/features/wallet/wallet.queries.ts';
import { call, createTestApp, multipart, newUser, type TestApp } from '../support/index.ts';

/* How many statements the hottest reads send to PostgreSQL: each one is a round trip on every page. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false, env: { DEMO_WORD_DELAY_MS: '0' } });
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
  it('reads the viewer with the session once, then knows the token from memory: one statement for a confirmed user, two before confirmation', async () => {
    const confirmed = await newUser(t.db);
    const unconfirmed = await newUser(t.db, { confirmed: false });
    // Warm: the first request of a process prepares its statements.
    await call(t.app, { url: '/api/new/user', token: confirmed.token });
    const a = await statementsOf(() => call(t.app, { url: '/api/new/user', token: confirmed.token }));
    const firstUnconfirmed = await statementsOf(() => call(t.app, { url: '/api/new/user', token: unconfirmed.token }));
    const b = await statementsOf(() => call(t.app, { url: '/api/new/user', token: unconfirmed.token }));
    expect(a, a.join('\n')).toHaveLength(1);
    expect(firstUnconfirmed, firstUnconfirmed.join('\n')).toHaveLength(3);
    expect(firstUnconfirmed.filter((s) => s.includes('"sessions"')), firstUnconfirmed.join('\n')).toHaveLength(1);
    expect(b, b.join('\n')).toHaveLength(2);
    expect(b.some((s) => s.includes('"sessions"')), b.join('\n')).toBe(false);
    expect((await call(t.app, { url: '/api/new/user', token: unconfirmed.token })).data.json).toMatchObject({ email: unconfirmed.email, email_confirmed: false, role: 'user' });
  });
});

describe('a chat message', () => {
  it('is two statements: the send (with the history it is bounded by) and the close; the session and the model come from memory', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `statements-${String(user.id)}` }, 100_000));
    const connection = await t.db.insertInto('provider_connections').values({ name: 'Демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow();
    const model = await t.db.insertInto('ai_models').values({ name: 'Демо-ассистент', kind: 'chat', connection_id: connection.id, provider_model: 'demo', max_output_tokens: 100, words_per_token: 1 }).returning('id').executeTakeFirstOrThrow();
    const send = (chatId?: number) => {
      const body = multipart([{ name: 'ai_models_id', value: String(model.id) }, { name: 'message', value: 'Расскажи о себе' }, ...(chatId ? [{ name: 'chat_id', value: String(chatId) }] : [])]);
      return call(t.app, { method: 'POST', url: chatRoutes.send.path, token: user.token, payload: body.payload, headers: body.headers });
    };
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    const chatId = (first.data.json as { chat_id: number }).chat_id;
    let reply: Awaited<ReturnType<typeof send>> | undefined;
    const seen = await statementsOf(async () => {
      reply = await send(chatId);
    });
    expect(reply?.statusCode, reply?.body).toBe(200);
    expect(seen.map((s) => /select (chat_\w+)\(/.exec(s)?.[1] ?? s), seen.join('\n')).toEqual(['chat_send', 'chat_close']);
  });
});
