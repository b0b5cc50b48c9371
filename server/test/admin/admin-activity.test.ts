import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { adminCalls, createTestApp, newAdmin, newUser, type Page, type TestApp, type TestUser } from '../support/index.ts';

/* Every user's generation runs (История генераций) and chats (Чат) as the admin panel reads them. */

let t: TestApp;
let api: ReturnType<typeof adminCalls>;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  api = adminCalls(t.app, (await newAdmin(t.db)).token);
});
afterAll(() => t.close());

interface Generation {
  id: number;
  email: string;
  product: string;
  model: string;
  status: string;
  wallet: string;
  cost: number;
  prompt: string;
  error: string | null;
  error_detail: string | null;
  outputs: number[];
}
interface Chat {
  id: number;
  email: string;
  title: string;
  message_count: number;
  words: number;
  messages: { id: number; role: string; text: string; model: string | null; status: string; words: number; error: string | null; files: number[]; replaced: boolean }[];
  truncated: boolean;
}

const mark = () => crypto.randomBytes(3).toString('hex');

async function file(db: Db, owner: TestUser): Promise<number> {
  const row = await db
    .insertInto('files')
    .values({ owner_id: owner.id, storage_key: crypto.randomBytes(16).toString('hex'), content_type: 'image/png', size: 10, original_name: 'a.png', purpose: 'generation_result' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function run(db: Db, user: TestUser, values: { product: string; status?: 'queued' | 'succeeded' | 'failed'; wallet?: 'words' | 'media'; cost?: number; prompt?: string; outputs?: number[]; error?: string; detail?: string }) {
  const row = await db
    .insertInto('generations')
    .values({
      user_id: user.id,
      variant: 'img',
      product_name: values.product,
      model_name: 'Демо-картинки',
      prompt: values.prompt ?? 'Кот на луне',
      wallet: values.wallet ?? 'media',
      cost: values.cost ?? 10,
      status: values.status ?? 'succeeded',
      error: values.error ?? null,
      error_detail: values.detail ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [position, fileId] of (values.outputs ?? []).entries()) await db.insertInto('generation_files').values({ generation_id: row.id, file_id: fileId, role: 'output', position }).execute();
  return row.id;
}

describe('GET /api/admin/generations', () => {
  it('lists every user’s runs with owner, cost and outputs; searched by email or product, filtered by status, sorted', async () => {
    const m = mark();
    const [anna, boris] = [await newUser(t.db, { email: `anna-${m}@runs.ru` }), await newUser(t.db, { email: `boris-${m}@runs.ru` })];
    const outputs = [await file(t.db, anna), await file(t.db, anna)];
    const a = await run(t.db, anna, { product: `Портрет ${m}`, cost: 25, outputs });
    const b = await run(t.db, boris, { product: `Портрет ${m}`, status: 'failed', cost: 0, error: 'Сервис генерации не принял запрос. Токены возвращены на баланс', detail: "images.generate gpt-image-1: HTTP 400 — Invalid value: '999x999'" });
    const c = await run(t.db, boris, { product: `Текст ${m}`, wallet: 'words', cost: 420, prompt: 'x'.repeat(2000) });
    const byProduct = await api.get<Page<Generation>>(`/api/admin/generations?q=${encodeURIComponent(`Портрет ${m}`)}&sort=id&dir=asc`);
    expect(byProduct.data.map((g) => [g.id, g.email, g.status])).toEqual([
      [a, anna.email, 'succeeded'],
      [b, boris.email, 'failed'],
    ]);
    expect(byProduct.data[0]).toMatchObject({ wallet: 'media', cost: 2.5, outputs, model: 'Демо-картинки', prompt: 'Кот на луне', error: null, error_detail: null });
    // A failed run: why its user was told, and what the provider really said.
    expect(byProduct.data[1]).toMatchObject({ error: 'Сервис генерации не принял запрос. Токены возвращены на баланс', error_detail: "images.generate gpt-image-1: HTTP 400 — Invalid value: '999x999'" });
    const byEmail = await api.get<Page<Generation>>(`/api/admin/generations?q=boris-${m}&sort=cost&dir=desc`);
    expect(byEmail.data.map((g) => [g.id, g.cost])).toEqual([
      [c, 420],
      [b, 0],
    ]);
    expect(byEmail.data[0]?.prompt).toHaveLength(500);
    expect((await api.get<Page<Generation>>(`/api/admin/generations?q=${m}&status=failed`)).data.map((g) => g.id)).toEqual([b]);
    for (const q of ['status=done', 'sort=prompt', 'page=-1']) expect((await api.send('GET', `/api/admin/generations?${q}`)).statusCode, q).toBe(400);
  });
});

describe('GET /api/admin/chats', () => {
  async function chat(user: TestUser, title: string, messages: { role: 'user' | 'assistant'; text: string; words?: number; status?: 'done' | 'failed'; error?: string; offPath?: boolean }[]) {
    const row = await t.db.insertInto('chats').values({ user_id: user.id, title }).returning('id').executeTakeFirstOrThrow();
    for (const m of messages) {
      await t.db
        .insertInto('chat_messages')
        .values({ chat_id: row.id, user_id: user.id, role: m.role, text: m.text, words: m.words ?? 0, status: m.status ?? 'done', model_name: m.role === 'assistant' ? 'Демо-ассистент' : null, error: m.error ?? null, off_path: m.offPath ?? false })
        .execute();
    }
    return row.id;
  }

  it('lists chats with their owners, message counts and words, searched by email or title; one chat with its messages and images', async () => {
    const m = mark();
    const user = await newUser(t.db, { email: `chatter-${m}@chat.ru` });
    const first = await chat(user, `Рецепты ${m}`, [
      { role: 'user', text: 'Как испечь хлеб?' },
      // Asked again: the first answer left the conversation (chat_send's regenerate), still charged.
      { role: 'assistant', text: 'Возьмите муку…', words: 120, offPath: true },
      { role: 'assistant', text: 'Замесите тесто…', words: 80 },
      { role: 'user', text: 'А без дрожжей?' },
      { role: 'assistant', text: '', words: 0, status: 'failed', error: 'provider timeout' },
    ]);
    const second = await chat(user, `Код ${m}`, [{ role: 'user', text: 'Привет' }]);
    const image = await file(t.db, user);
    const question = await t.db.selectFrom('chat_messages').select('id').where('chat_id', '=', first).orderBy('id').executeTakeFirstOrThrow();
    await t.db.insertInto('chat_message_files').values({ message_id: question.id, file_id: image, position: 0 }).execute();

    const list = await api.get<Page<Chat>>(`/api/admin/chats?q=chatter-${m}&sort=id&dir=asc`);
    expect(list.data.map((c) => [c.id, c.email, c.title, c.message_count, c.words])).toEqual([
      [first, user.email, `Рецепты ${m}`, 5, 200],
      [second, user.email, `Код ${m}`, 1, 0],
    ]);
    expect((await api.get<Page<Chat>>(`/api/admin/chats?q=${encodeURIComponent(`Код ${m}`)}`)).data.map((c) => c.id)).toEqual([second]);
    const one = await api.get<Chat>(`/api/admin/chats/${String(first)}`);
    expect(one).toMatchObject({ id: first, email: user.email, message_count: 5, truncated: false });
    expect(one.messages.map((x) => [x.role, x.text, x.model, x.status, x.words, x.error, x.files, x.replaced])).toEqual([
      ['user', 'Как испечь хлеб?', null, 'done', 0, null, [image], false],
      ['assistant', 'Возьмите муку…', 'Демо-ассистент', 'done', 120, null, [], true],
      ['assistant', 'Замесите тесто…', 'Демо-ассистент', 'done', 80, null, [], false],
      ['user', 'А без дрожжей?', null, 'done', 0, null, [], false],
      ['assistant', '', 'Демо-ассистент', 'failed', 0, 'provider timeout', [], false],
    ]);
    // A long chat: its latest 50 messages, oldest of them first; `before` reads the 50 before those.
    const long = await chat(user, `Длинный ${m}`, []);
    await t.db
      .insertInto('chat_messages')
      .values(Array.from({ length: 101 }, (_, i) => ({ chat_id: long, user_id: user.id, role: 'user' as const, text: `Сообщение ${String(i)}`, status: 'done' as const })))
      .execute();
    const longOne = await api.get<Chat>(`/api/admin/chats/${String(long)}`);
    expect(longOne).toMatchObject({ message_count: 101, truncated: true });
    expect(longOne.messages).toHaveLength(50);
    expect([longOne.messages[0]?.text, longOne.messages.at(-1)?.text]).toEqual(['Сообщение 51', 'Сообщение 100']);
    const older = await api.get<Chat>(`/api/admin/chats/${String(long)}?before=${String(longOne.messages[0]?.id)}`);
    expect(older).toMatchObject({ truncated: true });
    expect([older.messages[0]?.text, older.messages.at(-1)?.text]).toEqual(['Сообщение 1', 'Сообщение 50']);
    const oldest = await api.get<Chat>(`/api/admin/chats/${String(long)}?before=${String(older.messages[0]?.id)}`);
    expect(oldest).toMatchObject({ truncated: false });
    expect(oldest.messages.map((x) => x.text)).toEqual(['Сообщение 0']);
    const badCursor = await api.send('GET', `/api/admin/chats/${String(long)}?before=abc`);
    expect(badCursor.statusCode).toBe(400);
    expect(JSON.stringify(badCursor.data.text)).toContain('Неверная позиция в переписке');
    const missing = await api.send('GET', '/api/admin/chats/99999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.data.text).toBe('Чат не найден');
    for (const q of ['sort=title', 'dir=sideways']) expect((await api.send('GET', `/api/admin/chats?${q}`)).statusCode, q).toBe(400);
    expect((await api.send('GET', '/api/admin/chats/abc')).statusCode).toBe(400);
  });
});
