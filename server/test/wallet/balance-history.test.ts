import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRoutes, type BalanceLine, type ChatModel, type Generation } from '@app/contracts';
import { seedAiCatalog, seedGenerationCatalog } from '../../src/db/seed.ts';
import { credit, mediaToWire } from '../../src/features/wallet/wallet.queries.ts';
import {
  call,
  createTestApp,
  multipart,
  newAdmin,
  newUser,
  nextTransactionId,
  notify,
  payFields,
  seedCatalog,
  startPayment,
  startRun,
  subscribe,
  until,
  walletState,
  type Catalog,
  type TestApp,
  type TestUser,
} from '../support/index.ts';

/*
 * GET /api/new/balance/history: the ledger in words, from real rows — grants, the welcome gift, a
 * chat answer (hold + settle), a run given back (hold + release) and one still running, the
 * service's adjustment with its reason, a refund and what it took from work under way.
 */

let t: TestApp;
let catalog: Catalog;
let admin: TestUser;
let chatModel: ChatModel;
const products: Record<string, number> = {};

beforeAll(async () => {
  // No workers: runs stay queued until the test cancels them; chat answers are written in-process.
  t = await createTestApp({ workers: false, env: { DEMO_WORD_DELAY_MS: '0' } });
  catalog = await seedCatalog(t.db);
  await seedAiCatalog(t.db);
  await seedGenerationCatalog(t.db);
  for (const row of await t.db.selectFrom('ai_products').select(['id', 'name']).execute()) products[row.name] = row.id;
  admin = await newAdmin(t.db);
  const models = (await call(t.app, { url: '/api/new/chat_models', token: admin.token })).data.json as ChatModel[];
  const demo = models.find((m) => m.name === 'Демо-ассистент');
  if (!demo) throw new Error('no demo chat model');
  chatModel = demo;
});
afterAll(() => t.close());

type Page = { data: BalanceLine[]; last_page: number };
const history = async (user: TestUser | undefined, page?: number | string) => call(t.app, { url: `/api/new/balance/history${page === undefined ? '' : `?page=${String(page)}`}`, token: user?.token });
const lines = async (user: TestUser, page = 1) => ((await history(user, page)).data.json as Page).data;
/** A line as a person reads it: what, how much, the note. */
const read = (l: BalanceLine) => [l.title, l.wallet, l.amount, l.kind, l.note];

const paidTransaction = async (invoiceId: number) => (await t.db.selectFrom('invoices').select('transaction_id').where('id', '=', invoiceId).executeTakeFirstOrThrow()).transaction_id ?? 0;

async function chatAnswer(user: TestUser, message: string): Promise<{ chatId: number; words: number }> {
  const param = chatModel.setting.model.params[0]?.value ?? '';
  const body = multipart([
    { name: 'ai_models_id', value: String(chatModel.id) },
    { name: 'param', value: param },
    { name: 'message', value: message },
  ]);
  const res = await call(t.app, { method: 'POST', url: chatRoutes.send.path, token: user.token, payload: body.payload, headers: body.headers });
  expect(res.statusCode).toBe(200);
  const chatId = (res.data.json as { chat_id: number }).chat_id;
  const answer = await until(() => t.db.selectFrom('chat_messages').select(['status', 'words']).where('chat_id', '=', chatId).where('role', '=', 'assistant').where('status', '<>', 'generating').executeTakeFirst());
  return { chatId, words: answer.words };
}

async function queuedRun(user: TestUser, product: string): Promise<Generation> {
  const res = await startRun(t.app, user, { product_id: products[product] ?? 0, prompt: 'Маяк в тумане' });
  expect(res.statusCode).toBe(200);
  return res.data.json as Generation;
}

const cancelRun = async (user: TestUser, id: number) => expect((await call(t.app, { method: 'POST', url: `/api/new/generations/${String(id)}/cancel`, token: user.token })).statusCode).toBe(200);

/** The history's lines add up to the balance, wallet by wallet (media tokens with one decimal). */
async function addsUp(user: TestUser, all: BalanceLine[]): Promise<void> {
  const { balance, sums } = await walletState(t.db, user.id);
  expect(sums).toEqual(balance);
  const total = (wallet: 'words' | 'media') => Math.round(all.filter((l) => l.wallet === wallet).reduce((s, l) => s + l.amount, 0) * 10) / 10;
  expect({ words: total('words'), media: total('media') }).toEqual({ words: balance.words, media: mediaToWire(balance.media) });
}

describe('GET /api/new/balance/history', () => {
  it('reads the ledger in words, newest first: bought, gift, spent, returned, reserved, adjusted with the reason, refunded', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.trial);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'welcome_gift', idempotencyKey: `welcome:${String(user.id)}:words`, refType: 'telegram', refId: 1 }, 10_000));
    const packInvoice = await startPayment(t.app, user, catalog.wordsPack);
    expect((await notify(t.app, 'pay', payFields(packInvoice, user))).code).toBe(0);
    const { words: answerWords } = await chatAnswer(user, 'Подбери рецепт борща');
    expect(answerWords).toBeGreaterThan(0);
    const failedRun = await queuedRun(user, 'Картинка по описанию');
    await cancelRun(user, failedRun.id);
    const adjusted = await call(t.app, { method: 'POST', url: `/api/admin/users/${String(user.id)}/balance`, token: admin.token, payload: { wallet: 'media', amount: 2.5, reason: 'Компенсация за сбой генерации', request_id: crypto.randomUUID() } });
    expect(adjusted.statusCode).toBe(200);
    const taken = await call(t.app, { method: 'POST', url: `/api/admin/users/${String(user.id)}/balance`, token: admin.token, payload: { wallet: 'words', amount: -100, reason: 'Ошибочное начисление', request_id: crypto.randomUUID() } });
    expect(taken.statusCode).toBe(200);
    const refund = { TransactionId: nextTransactionId(), PaymentTransactionId: await paidTransaction(packInvoice.payment_id), Amount: '290.00', Currency: 'RUB', AccountId: String(user.id) };
    expect((await notify(t.app, 'refund', refund)).code).toBe(0);
    const running = await queuedRun(user, 'Картинка по описанию');

    const res = await history(user);
    expect(res.statusCode).toBe(200);
    const page = res.data.json as Page;
    expect(page.last_page).toBe(1);
    const chat = await t.db.selectFrom('chats').select('title').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(page.data.map(read)).toEqual([
      ['Генерация «Картинка по описанию»', 'media', -1, 'reserved', 'Идёт работа: токены зарезервированы, неиспользованные вернутся'],
      ['Возврат оплаты пакета «Пакет слов»', 'words', -100_000, 'refund', null],
      ['Списано сервисом', 'words', -100, 'adjustment', 'Ошибочное начисление'],
      ['Начислено сервисом', 'media', 2.5, 'adjustment', 'Компенсация за сбой генерации'],
      ['Генерация «Картинка по описанию»', 'media', 0, 'returned', 'Ничего не списано: токены вернулись'],
      [`Ответ в чате «${chat.title}»`, 'words', -answerWords, 'spent', null],
      ['Покупка пакета «Пакет слов»', 'words', 100_000, 'purchase', null],
      ['Подарок за подписку на канал', 'words', 10_000, 'gift', null],
      ['Пробный период тарифа «Старт»', 'media', 30, 'purchase', null],
      ['Пробный период тарифа «Старт»', 'words', 100_000, 'purchase', null],
    ]);
    expect(page.data.every((l) => !Number.isNaN(Date.parse(l.created_at)))).toBe(true);
    await addsUp(user, page.data);

    // The run still going settles: its line becomes what it kept, in the same place.
    await cancelRun(user, running.id);
    const after = await lines(user);
    expect(read(after[0] as BalanceLine)).toEqual(['Генерация «Картинка по описанию»', 'media', 0, 'returned', 'Ничего не списано: токены вернулись']);
    expect(after).toHaveLength(10);
    await addsUp(user, after);
  });

  it('a plan and its renewal read as bought; a refund that found tokens in work takes them when the work ends, and says so', async () => {
    const user = await newUser(t.db);
    const { invoice, cpSubscriptionId } = await subscribe(t.app, user, catalog.monthly);
    const renewal = { TransactionId: nextTransactionId(), Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: cpSubscriptionId, InvoiceId: undefined };
    expect((await notify(t.app, 'pay', renewal)).code).toBe(0);
    // Spend all media of both periods but one run's worth, which is under way when the first payment is refunded.
    const { balance } = await walletState(t.db, user.id);
    await call(t.app, { method: 'POST', url: `/api/admin/users/${String(user.id)}/balance`, token: admin.token, payload: { wallet: 'media', amount: -mediaToWire(balance.media - 10), reason: 'Тест: потрачено', request_id: crypto.randomUUID() } });
    const run = await queuedRun(user, 'Картинка по описанию');
    expect((await walletState(t.db, user.id)).balance.media).toBe(0);
    const refund = { TransactionId: nextTransactionId(), PaymentTransactionId: await paidTransaction(invoice.payment_id), Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id) };
    expect((await notify(t.app, 'refund', refund)).code).toBe(0);
    await cancelRun(user, run.id);

    const all = await lines(user);
    expect(all.slice(0, 2).map(read)).toEqual([
      // Newest first: the claim paid when the run gave its tokens back, then the run itself (its line is where it started).
      ['Возврат оплаты тарифа «Бизнес»', 'media', -1, 'refund', 'Из токенов, которые были в работе, когда оплату вернули'],
      ['Возврат оплаты тарифа «Бизнес»', 'words', -1_000_000, 'refund', null],
    ]);
    expect(all.map((l) => l.title)).toContain('Продление тарифа «Бизнес»');
    expect(all.map((l) => l.title)).toContain('Покупка тарифа «Бизнес»');
    expect(all.find((l) => l.title === 'Генерация «Картинка по описанию»')).toMatchObject({ kind: 'returned', amount: 0 });
    await addsUp(user, all);
  });

  it('pages 20 lines at a time, newest first; another user’s ledger is never in it', async () => {
    const user = await newUser(t.db);
    const other = await newUser(t.db);
    await t.db.transaction().execute(async (tx) => {
      for (let i = 1; i <= 45; i++) await credit(tx, { userId: user.id, kind: i % 2 ? 'words' : 'media', reason: 'admin_adjustment', idempotencyKey: `history-page:${String(user.id)}:${String(i)}`, note: `Начисление №${String(i)}` }, i);
      await credit(tx, { userId: other.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `history-page:${String(other.id)}`, note: 'Чужое' }, 7);
    });
    const first = (await history(user, 1)).data.json as Page;
    expect(first.last_page).toBe(3);
    expect(first.data).toHaveLength(20);
    expect(first.data[0]).toMatchObject({ note: 'Начисление №45', wallet: 'words', amount: 45 });
    expect(first.data[1]).toMatchObject({ note: 'Начисление №44', wallet: 'media', amount: 4.4 });
    const third = (await history(user, 3)).data.json as Page;
    expect(third.data.map((l) => l.note)).toEqual(['Начисление №5', 'Начисление №4', 'Начисление №3', 'Начисление №2', 'Начисление №1']);
    expect(((await history(user, 4)).data.json as Page).data).toEqual([]);
    expect(((await history(user)).data.json as Page).data[0]?.note).toBe('Начисление №45');
    const second = (await history(user, 2)).data.json as Page;
    expect([...first.data, ...second.data, ...third.data].map((l) => l.note)).toEqual(Array.from({ length: 45 }, (_, i) => `Начисление №${String(45 - i)}`));
    expect(((await history(other)).data.json as Page).data.map((l) => l.note)).toEqual(['Чужое']);
  });

  it('a new user has an empty history; a guest gets 401; a bad page a Russian field error', async () => {
    const user = await newUser(t.db);
    expect((await history(user)).data.json).toEqual({ data: [], last_page: 1 });
    const guest = await history(undefined);
    expect(guest.statusCode).toBe(401);
    expect(guest.data.code).toBe('UNAUTHENTICATED');
    for (const bad of ['0', 'abc', '-1', '1.5']) {
      const res = await history(user, bad);
      expect(res.statusCode).toBe(400);
      expect(Object.values(res.data.text as Record<string, string[]>).flat().join(' ')).toMatch(/[а-яё]/i);
    }
  });
});

describe('the ledger’s CSV export', () => {
  it('says what each row was in the balance history’s words — a chat answer’s hold and what came back, a run given back, a plan bought — with the record it refers to', async () => {
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.trial);
    const { chatId } = await chatAnswer(user, 'Подбери рецепт борща');
    const run = await queuedRun(user, 'Картинка по описанию');
    await cancelRun(user, run.id);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date());
    const res = await call(t.app, { url: `/api/admin/exports/ledger?from=${day}&to=${day}`, token: admin.token });
    expect(res.statusCode).toBe(200);
    // Columns: …, Кошелёк, Сумма, Причина, Примечание, Основание (no cell here holds «;» or a quote).
    const rows = res.body
      .slice(1)
      .split('\r\n')
      .map((line) => line.split(';'))
      .filter((r) => r[2] === user.email);
    const chat = await t.db.selectFrom('chats').select('title').where('id', '=', chatId).executeTakeFirstOrThrow();
    const answer = await t.db.selectFrom('chat_messages').select('id').where('chat_id', '=', chatId).where('role', '=', 'assistant').executeTakeFirstOrThrow();
    const said = rows.map((r) => [r[6], r[8]]);
    expect(said).toEqual([
      ['Пробный период', `Пробный период тарифа «Старт» (платёж №${String(invoice.payment_id)})`],
      ['Пробный период', `Пробный период тарифа «Старт» (платёж №${String(invoice.payment_id)})`],
      ['Резерв на генерацию или ответ', `Ответ в чате «${chat.title}» (ответ №${String(answer.id)})`],
      ['Возврат резерва', `Ответ в чате «${chat.title}» (ответ №${String(answer.id)})`],
      ['Резерв на генерацию или ответ', `Генерация «Картинка по описанию» (генерация №${String(run.id)})`],
      ['Возврат резерва', `Генерация «Картинка по описанию» (генерация №${String(run.id)})`],
    ]);
  });
});
