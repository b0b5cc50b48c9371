import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { chatRoutes } from '@app/contracts';
import { credit } from '../../src/features/wallet/wallet.queries.ts';
import { markedPieces } from '../../src/features/chat/chat-search.service.ts';
import { call, createTestApp, multipart, newUser, parseEvents, type TestApp, type TestUser } from '../support/index.ts';

/* Search over the user's own chats (Russian full-text search) and a chat's Markdown export. */

let t: TestApp;
let model: number;

beforeAll(async () => {
  t = await createTestApp({ env: { DEMO_WORD_DELAY_MS: '0' } });
  const demo = await t.db.insertInto('provider_connections').values({ name: 'Демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow();
  model = (await t.db.insertInto('ai_models').values({ name: 'Демо-ассистент', kind: 'chat', connection_id: demo.id, provider_model: 'demo', max_output_tokens: 200 }).returning('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t.close();
});

async function richUser(): Promise<TestUser> {
  const user = await newUser(t.db);
  await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `s-${String(user.id)}` }, 100_000));
  return user;
}

async function send(user: TestUser, message: string, chatId?: number) {
  const body = multipart([{ name: 'ai_models_id', value: String(model) }, { name: 'message', value: message }, ...(chatId ? [{ name: 'chat_id', value: String(chatId) }] : [])]);
  const res = await call(t.app, { method: 'POST', url: chatRoutes.sendStream.path, token: user.token, payload: body.payload, headers: body.headers });
  const start = parseEvents(res.body).events.find((e) => e.event === 'start')?.data as { chat_id: number; message_id: number; user_message_id: number } | undefined;
  if (!start) throw new Error(`send refused: ${res.body}`);
  return start;
}

interface Hits {
  hits: { chat_id: number; title: { text: string; mark: boolean }[]; message_id: number | null; role: string | null; snippet: { text: string; mark: boolean }[] }[];
  more: boolean;
}
const search = (user: TestUser | undefined, q: string) => call(t.app, { url: `${chatRoutes.search.path}?q=${encodeURIComponent(q)}`, token: user?.token });

describe('searching one’s chats (GET /api/new/chat/search)', () => {
  it('finds words in their other forms in messages and titles, marking them; only the user’s own chats', async () => {
    const user = await richUser();
    const coffee = await send(user, 'Придумай название для кофейни у моря');
    const tea = await send(user, 'Как заваривать зелёный чай');
    const stranger = await richUser();
    await send(stranger, 'Кофейня на углу');

    const res = await search(user, 'кофейня');
    expect(res.statusCode).toBe(200);
    const { hits } = res.data.json as Hits;
    expect(hits.every((h) => h.chat_id === coffee.chat_id)).toBe(true);
    const message = hits.find((h) => h.message_id === coffee.user_message_id);
    expect(message?.role).toBe('user');
    expect(message?.snippet.filter((p) => p.mark).map((p) => p.text)).toContain('кофейни');
    const title = hits.find((h) => h.message_id === null);
    expect(title?.title.find((p) => p.mark)?.text).toBe('кофейни');

    const teaHits = (await search(user, 'чаем')).data.json as Hits;
    expect(teaHits.hits.map((h) => h.chat_id)).toContain(tea.chat_id);
    expect(((await search(user, 'жираф')).data.json as Hits).hits).toEqual([]);
  });

  it('does not find variants switched away from, or deleted chats', async () => {
    const user = await richUser();
    const first = await send(user, 'Сначала про пингвинов');
    const editRes = await call(t.app, {
      method: 'POST',
      url: chatRoutes.edit.path.replace(':id', String(first.chat_id)),
      token: user.token,
      payload: JSON.stringify({ message_id: first.user_message_id, message: 'Теперь про жирафов', ai_models_id: model }),
      headers: { 'content-type': 'application/json' },
    });
    expect(editRes.statusCode).toBe(200);
    const giraffes = (await search(user, 'жирафы')).data.json as Hits;
    expect(giraffes.hits.some((h) => h.message_id !== null)).toBe(true);
    expect(((await search(user, 'пингвин')).data.json as Hits).hits.filter((h) => h.message_id !== null)).toEqual([]);
    await call(t.app, { method: 'DELETE', url: chatRoutes.remove.path.replace(':id', String(first.chat_id)), token: user.token });
    expect(((await search(user, 'жирафы')).data.json as Hits).hits).toEqual([]);
  });

  it('takes hostile and odd queries as words, refuses too short or long ones, and guests', async () => {
    const user = await richUser();
    await send(user, 'Обычный текст про сад & огород');
    for (const q of ["'; drop table chats; --", 'сад & | ! <->', '"незакрытая', '-сад', 'or', '<script>alert(1)</script>', 'и в на']) {
      const res = await search(user, q);
      expect(res.statusCode, q).toBe(200);
    }
    expect(((await search(user, 'сад огород')).data.json as Hits).hits.length).toBeGreaterThan(0);
    expect((await search(user, 'a')).statusCode).toBe(400);
    expect((await search(user, 'x'.repeat(201))).statusCode).toBe(400);
    expect((await call(t.app, { url: chatRoutes.search.path, token: user.token })).statusCode).toBe(400);
    // A NUL is taken out, as from a chat's title.
    expect((await search(user, 'са\u0000д')).statusCode).toBe(200);
    expect((await search(undefined, 'сад')).statusCode).toBe(401);
    // Text the marks are made of is taken out before marking.
    expect(markedPieces('a\u0001b\u0002c')).toEqual([{ text: 'a', mark: false }, { text: 'b', mark: true }, { text: 'c', mark: false }]);
  });

  it('the message search can use its GIN index', async () => {
    const plan = await t.db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      return sql<{ 'QUERY PLAN': string }>`explain select id from chat_messages where not off_path and to_tsvector('russian', text) @@ websearch_to_tsquery('russian', 'кофе')`.execute(tx);
    });
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('chat_messages_text_search_idx');
  });
});

describe('exporting a chat as Markdown (GET /api/new/chat/:id/export)', () => {
  it('is a text/markdown attachment with the title, who wrote each message (the model’s name) and when', async () => {
    const user = await richUser();
    const chat = await send(user, 'Привет, **мир**');
    const res = await call(t.app, { url: chatRoutes.exportMarkdown.path.replace(':id', String(chat.chat_id)), token: user.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82");
    expect(res.body).toMatch(/^# Привет, \*\*мир\*\*\n/);
    expect(res.body).toMatch(/### Вы · \d\d\.\d\d\.\d{4} \d\d:\d\d МСК\n\nПривет, \*\*мир\*\*/);
    expect(res.body).toMatch(/### Демо-ассистент · \d\d\.\d\d\.\d{4} \d\d:\d\d МСК\n\nЗдравствуйте/);
  });

  it('is not found for another user or an unknown chat, and refused to a guest', async () => {
    const user = await richUser();
    const chat = await send(user, 'Секрет');
    const other = await richUser();
    const url = chatRoutes.exportMarkdown.path.replace(':id', String(chat.chat_id));
    expect((await call(t.app, { url, token: other.token })).statusCode).toBe(404);
    expect((await call(t.app, { url, token: other.token })).body).not.toContain('Секрет');
    expect((await call(t.app, { url })).statusCode).toBe(401);
    expect((await call(t.app, { url: chatRoutes.exportMarkdown.path.replace(':id', '999999'), token: user.token })).statusCode).toBe(404);
    expect((await call(t.app, { url: chatRoutes.exportMarkdown.path.replace(':id', 'abc'), token: user.token })).statusCode).toBe(400);
  });
});
