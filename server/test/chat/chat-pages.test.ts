import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_LIMITS } from '@app/contracts';
import { call, createTestApp, newAdmin, newUser, type TestApp, type TestUser } from '../support/index.ts';

/*
 * A long chat is read a page at a time: `GET /api/new/chat/{id}` answers its newest 50 messages
 * in the seed's shape (an array, oldest first), `?before=<message id>` the 50 before that
 * message; the admin's chat view pages the same way.
 */

let t: TestApp;
let owner: TestUser;
let chatId: number;
/** Every message id of the long chat, oldest first. */
let allIds: number[];
const TOTAL = 1668;
const PAGE = CHAT_LIMITS.messagesPage;
/** About the size of a real question or answer. */
const TEXT = 'Расскажи, пожалуйста, подробно и с примерами: '.repeat(40);

beforeAll(async () => {
  t = await createTestApp();
  owner = await newUser(t.db);
  chatId = (await t.db.insertInto('chats').values({ user_id: owner.id, title: 'Очень длинный чат' }).returning('id').executeTakeFirstOrThrow()).id;
  const rows = Array.from({ length: TOTAL }, (_, i) => ({
    chat_id: chatId,
    user_id: owner.id,
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    text: `${String(i)}: ${TEXT}`,
    status: 'done' as const,
    ...(i % 2 === 1 ? { model_name: 'Демо-ассистент', words: 10 } : {}),
  }));
  for (let i = 0; i < rows.length; i += 500) await t.db.insertInto('chat_messages').values(rows.slice(i, i + 500)).execute();
  // Each message follows the one before it, as chat_send links a conversation (no variants).
  await sql`update chat_messages m set parent_id = p.prev from (select id, lag(id) over (order by id) as prev from chat_messages where chat_id = ${chatId}) p where p.id = m.id and p.prev is not null`.execute(t.db);
  allIds = (await t.db.selectFrom('chat_messages').select('id').where('chat_id', '=', chatId).orderBy('id').execute()).map((r) => r.id);
  expect(allIds).toHaveLength(TOTAL);
});
afterAll(async () => {
  await t.close();
});

interface Message {
  id: number;
  role: string;
  text: string;
  model: string | null;
  status: string;
  words: number;
  images: unknown[];
  created_at: string;
}

const read = (user: TestUser | undefined, query = '', id = chatId) => call(t.app, { method: 'GET', url: `/api/new/chat/${String(id)}${query}`, token: user?.token });

describe('a chat read a page at a time (GET /api/new/chat/{id})', () => {
  it('answers the newest 50 messages, oldest first, in the seed’s shape, and a bounded reply', async () => {
    const res = await read(owner);
    expect(res.statusCode).toBe(200);
    const messages = res.data.json as Message[];
    expect(messages.map((m) => m.id)).toEqual(allIds.slice(-PAGE));
    expect(Object.keys(messages[0] ?? {}).sort()).toEqual(['created_at', 'id', 'images', 'model', 'role', 'status', 'text', 'words']);
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', model: 'Демо-ассистент', status: 'done', words: 10, images: [] });
    // The whole chat would be about 1 668 × 1.9 KB; a page is 50 of them.
    expect(res.body.length).toBeLessThan(PAGE * Buffer.byteLength(`${String(TOTAL)}: ${TEXT}`) * 1.2);
    expect(res.body.length).toBeLessThan(200_000);
  });

  it('the `before` cursor pages back to the first message, every message exactly once', async () => {
    const seen: number[] = [];
    let page = (await read(owner)).data.json as Message[];
    let replies = 1;
    seen.unshift(...page.map((m) => m.id));
    while (page.length === PAGE) {
      const res = await read(owner, `?before=${String(page[0]?.id)}`);
      expect(res.statusCode).toBe(200);
      page = res.data.json as Message[];
      expect(page.length).toBeLessThanOrEqual(PAGE);
      seen.unshift(...page.map((m) => m.id));
      replies++;
    }
    expect(seen).toEqual(allIds);
    expect(new Set(seen).size).toBe(TOTAL);
    expect(replies).toBe(Math.ceil(TOTAL / PAGE) + (TOTAL % PAGE === 0 ? 1 : 0));
    // Before the first message: nothing.
    expect((await read(owner, `?before=${String(allIds[0])}`)).data.json).toEqual([]);
  });

  it('refuses a malformed cursor in Russian, another user’s chat and a guest', async () => {
    for (const before of ['abc', '-5', '0', '1.5', '1e400', '99999999999999999999']) {
      const res = await read(owner, `?before=${before}`);
      expect(res.statusCode, before).toBe(400);
      expect(res.data.text, before).toEqual({ before: ['Неверная позиция в переписке'] });
    }
    const stranger = await newUser(t.db);
    const other = await read(stranger, `?before=${String(allIds[100])}`);
    expect(other.statusCode).toBe(404);
    expect(other.data.text).toBe('Чат не найден');
    expect((await read(stranger)).statusCode).toBe(404);
    expect((await read(undefined)).statusCode).toBe(401);
    // A cursor from another chat reads nothing of it: only this chat's messages before that id.
    const ownSmall = (await t.db.insertInto('chats').values({ user_id: stranger.id, title: 'Короткий' }).returning('id').executeTakeFirstOrThrow()).id;
    await t.db.insertInto('chat_messages').values({ chat_id: ownSmall, user_id: stranger.id, role: 'user', text: 'Привет', status: 'done' }).execute();
    const crossed = (await read(stranger, `?before=${String(allIds.at(-1))}`, ownSmall)).data.json as Message[];
    expect(crossed.map((m) => m.text)).toEqual([]);
    const mine = (await read(stranger, '', ownSmall)).data.json as Message[];
    expect(mine.map((m) => m.text)).toEqual(['Привет']);
  });
});

describe('the admin’s chat view pages the same way (GET /api/admin/chats/{id})', () => {
  it('answers 50 messages at a time with `truncated` while older remain, covering the chat once; staff only', async () => {
    const admin = await newAdmin(t.db);
    const seen: number[] = [];
    let query = '';
    for (;;) {
      const res = await call(t.app, { method: 'GET', url: `/api/admin/chats/${String(chatId)}${query}`, token: admin.token });
      expect(res.statusCode).toBe(200);
      const detail = res.data.json as { message_count: number; truncated: boolean; messages: { id: number }[] };
      expect(detail.message_count).toBe(TOTAL);
      expect(detail.messages.length).toBeLessThanOrEqual(PAGE);
      seen.unshift(...detail.messages.map((m) => m.id));
      if (!detail.truncated) break;
      query = `?before=${String(detail.messages[0]?.id)}`;
    }
    expect(seen).toEqual(allIds);
    const bad = await call(t.app, { method: 'GET', url: `/api/admin/chats/${String(chatId)}?before=x`, token: admin.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.text).toEqual({ before: ['Неверная позиция в переписке'] });
    expect((await call(t.app, { method: 'GET', url: `/api/admin/chats/${String(chatId)}`, token: owner.token })).statusCode).toBe(403);
  });
});
