import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxTelegramId } from '../../src/features/welcome/welcome.service.ts';
import { pollTelegram } from '../../src/features/welcome/welcome.jobs.ts';
import { call, createTestApp, csrfPair, fakeTelegramApi, newUser, walletState, type FakeServer, type TestApp, type TestUser } from '../support/index.ts';

const state = async (t: TestApp, user: TestUser) => (await call(t.app, { url: '/api/new/welcome', token: user.token })).data.json as { visible: boolean; bot_url: string; linked: boolean; claimed: boolean; sandbox: boolean; gift: { words: number; media: number }; channel_url: string };
const claim = (t: TestApp, user: TestUser) => call(t.app, { method: 'POST', url: '/api/new/welcome/check', token: user.token });

describe('welcome gift in the sandbox (no bot token)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ workers: false });
  });
  afterAll(() => t.close());

  async function sandboxBot(user: TestUser, action: 'open' | 'join') {
    const { bot_url } = await state(t, user);
    const start = new URL(bot_url, 'http://x').searchParams.get('start') ?? '';
    const page = await t.app.inject({ method: 'GET', url: bot_url, cookies: { session: user.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('песочниц');
    const pair = await csrfPair(t.app);
    return t.app.inject({
      method: 'POST',
      url: '/sandbox/telegram',
      cookies: { session: user.cookie, 'XSRF-TOKEN': pair.cookie },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ start, action, _token: pair.header }).toString(),
    });
  }

  it('shows the seed’s gift and a sandbox bot link until closed', async () => {
    const user = await newUser(t.db);
    const s = await state(t, user);
    expect(s).toMatchObject({ visible: true, linked: false, claimed: false, sandbox: true, gift: { words: 10000, media: 3 } });
    expect(s.bot_url).toMatch(/^\/sandbox\/telegram\?start=[A-Za-z0-9_-]{1,64}$/);
    expect(s.channel_url).toMatch(/^https:\/\/t\.me\//);
    const closed = await call(t.app, { url: '/api/new/nt_close', token: user.token });
    expect(closed.data).toEqual({ status: 'success', json: { ok: true } });
    expect((await state(t, user)).visible).toBe(false);
    expect((await call(t.app, { url: '/api/new/nt_close' })).statusCode).toBe(401);
  });

  it('refuses the gift before the bot is opened and before joining the channel', async () => {
    const user = await newUser(t.db);
    expect((await claim(t, user)).data.code).toBe('TELEGRAM_NOT_LINKED');
    expect((await sandboxBot(user, 'open')).statusCode).toBe(303);
    expect((await state(t, user)).linked).toBe(true);
    const res = await claim(t, user);
    expect(res.statusCode).toBe(422);
    expect(res.data.code).toBe('TELEGRAM_NOT_MEMBER');
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
  });

  it('grants 10000 words and 3 media tokens once, even when claimed concurrently', async () => {
    const user = await newUser(t.db);
    await sandboxBot(user, 'join');
    const results = await Promise.all(Array.from({ length: 5 }, () => claim(t, user)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]?.data.json).toEqual({ claimed: true, balances: { words: 10000, media: 3 } });
    for (const r of results.filter((x) => x.statusCode !== 200)) expect(r.data.code).toBe('GIFT_ALREADY_CLAIMED');
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 10000, media: 30 });
    expect(wallet.sums).toEqual(wallet.balance);
    expect((await state(t, user)).claimed).toBe(true);
  });

  it('a claim does not deadlock with a refund that holds the wallet and writes the ledger', async () => {
    const user = await newUser(t.db);
    await t.db.updateTable('users').set({ telegram_id: sandboxTelegramId(user.id) }).where('id', '=', user.id).execute();
    await t.db.insertInto('sandbox_telegram_members').values({ telegram_id: sandboxTelegramId(user.id) }).execute();
    const { credit } = await import('../../src/features/wallet/wallet.queries.ts');
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'package', idempotencyKey: `deadlock-seed-${String(user.id)}` }, 100));
    let claimed: ReturnType<typeof claim> | undefined;
    // Plays debitUpTo in a refund: the wallet row is locked first, the ledger row (user_id is a foreign key) written next.
    await t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('wallets').select('balance').where('user_id', '=', user.id).where('kind', '=', 'words').forUpdate().execute();
      claimed = claim(t, user);
      for (let i = 0; ; i++) {
        const res = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
        if ((res.rows[0]?.n ?? 0) > 0) break;
        if (i > 300) throw new Error('the claim never waited for the wallet');
        await new Promise((r) => setTimeout(r, 10));
      }
      await credit(tx, { userId: user.id, kind: 'media', reason: 'refund', idempotencyKey: `deadlock-${String(user.id)}` }, 1);
    });
    expect((await claimed)?.statusCode).toBe(200);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 10_100, media: 31 });
    expect(wallet.sums).toEqual(wallet.balance);
  });

  it('needs a confirmed email, a signed-in user and CSRF on the bot page form', async () => {
    const unconfirmed = await newUser(t.db, { confirmed: false });
    expect((await claim(t, unconfirmed)).data.code).toBe('EMAIL_NOT_CONFIRMED');
    expect((await call(t.app, { method: 'POST', url: '/api/new/welcome/check', csrf: true })).statusCode).toBe(401);
    const user = await newUser(t.db);
    const { bot_url } = await state(t, user);
    const start = new URL(bot_url, 'http://x').searchParams.get('start') ?? '';
    const noCsrf = await t.app.inject({ method: 'POST', url: '/sandbox/telegram', cookies: { session: user.cookie }, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `start=${start}&action=join` });
    // A plain form: the refusal comes back to the bot page as a message.
    expect(noCsrf.statusCode).toBe(303);
    expect(noCsrf.headers.location).toBe(`/sandbox/telegram?start=${start}&error=CSRF_MISMATCH`);
    const page = await t.app.inject({ method: 'GET', url: noCsrf.headers.location, cookies: { session: user.cookie } });
    expect(page.body).toContain('Страница устарела');
    const guest = await t.app.inject({ method: 'POST', url: '/sandbox/telegram', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `start=${start}&action=join` });
    expect(guest.statusCode).toBe(303);
    expect(guest.headers.location).toMatch(/^\/login\?next=/);
    expect(await t.db.selectFrom('sandbox_telegram_members').select('telegram_id').where('telegram_id', '=', sandboxTelegramId(user.id)).execute()).toHaveLength(0);
  });

  it('two accounts linking one Telegram id at the same moment: one wins, the other is told it is taken', async () => {
    const { linkTelegram } = await import('../../src/features/welcome/welcome.service.ts');
    const users = await Promise.all([newUser(t.db), newUser(t.db), newUser(t.db)]);
    const codes = await Promise.all(users.map(async (u) => new URL((await state(t, u)).bot_url, 'http://x').searchParams.get('start') ?? ''));
    const results = await Promise.all(codes.map((code) => linkTelegram(t.ctx, code, 555_999_000)));
    expect(results.filter((r) => r === 'linked')).toHaveLength(1);
    expect(results.filter((r) => r === 'taken')).toHaveLength(2);
  });

  it('one Telegram account cannot collect gifts for two site accounts', async () => {
    const first = await newUser(t.db);
    const second = await newUser(t.db);
    await t.db.updateTable('users').set({ telegram_id: 555_000_111 }).where('id', '=', first.id).execute();
    const { linkTelegram } = await import('../../src/features/welcome/welcome.service.ts');
    const code = new URL((await state(t, second)).bot_url, 'http://x').searchParams.get('start') ?? '';
    expect(await linkTelegram(t.ctx, code, 555_000_111)).toBe('taken');
    expect(await linkTelegram(t.ctx, 'no-such-code', 1)).toBe('unknown-code');
    expect((await state(t, second)).linked).toBe(false);
  });
});

describe('welcome gift with the Telegram Bot API', () => {
  const TOKEN = '123456:TEST-token';
  const members = new Map<number, { status: string; is_member?: boolean }>();
  let bot: FakeServer;
  let t: TestApp;
  beforeAll(async () => {
    bot = fakeTelegramApi(TOKEN, members);
    await bot.start();
    t = await createTestApp({
      workers: false,
      env: { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: bot.url, TELEGRAM_WEBHOOK_SECRET: 'hook-secret-123', TELEGRAM_CHANNEL: '@ns_news', TELEGRAM_BOT_USERNAME: 'ns_bot' },
    });
  });
  afterAll(async () => {
    await t.close();
    await bot.stop();
  });

  const startUpdate = (text: string, from: number) => ({ update_id: from, message: { message_id: 1, text, from: { id: from, is_bot: false, first_name: 'Анна' }, chat: { id: from, type: 'private' } } });
  const webhook = (update: object, secret = 'hook-secret-123') =>
    t.app.inject({ method: 'POST', url: '/api/telegram/webhook', headers: { 'x-telegram-bot-api-secret-token': secret }, payload: update });

  it('links through the bot’s /start deep link and checks getChatMember', async () => {
    const user = await newUser(t.db);
    const s = await state(t, user);
    expect(s.sandbox).toBe(false);
    expect(s.bot_url).toMatch(/^https:\/\/t\.me\/ns_bot\?start=/);
    const code = new URL(s.bot_url).searchParams.get('start') ?? '';
    expect((await webhook(startUpdate(`/start ${code}`, 777), 'wrong')).statusCode).toBe(401);
    expect((await state(t, user)).linked).toBe(false);
    const res = await webhook(startUpdate(`/start ${code}`, 777));
    expect(res.statusCode).toBe(200);
    expect((await state(t, user)).linked).toBe(true);
    expect(bot.requests.some((r) => r.path.endsWith('/sendMessage'))).toBe(true);

    expect((await claim(t, user)).data.code).toBe('TELEGRAM_NOT_MEMBER');
    const getChatMember = bot.requests.find((r) => r.path.endsWith('/getChatMember'));
    expect(getChatMember?.body).toEqual({ chat_id: '@ns_news', user_id: 777 });
    members.set(777, { status: 'left' });
    expect((await claim(t, user)).data.code).toBe('TELEGRAM_NOT_MEMBER');
    members.set(777, { status: 'restricted', is_member: false });
    expect((await claim(t, user)).data.code).toBe('TELEGRAM_NOT_MEMBER');
    members.set(777, { status: 'restricted', is_member: true });
    expect((await claim(t, user)).data.json).toEqual({ claimed: true, balances: { words: 10000, media: 3 } });
  });

  it.each(['creator', 'administrator', 'member'])('counts %s as a member', async (status) => {
    const user = await newUser(t.db);
    const telegramId = 900 + user.id;
    await t.db.updateTable('users').set({ telegram_id: telegramId }).where('id', '=', user.id).execute();
    members.set(telegramId, { status });
    expect((await claim(t, user)).statusCode).toBe(200);
  });

  it('answers 503 and grants nothing when Telegram fails', async () => {
    const user = await newUser(t.db);
    await t.db.updateTable('users').set({ telegram_id: 4242 }).where('id', '=', user.id).execute();
    bot.respond(() => ({ status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } }));
    try {
      const res = await claim(t, user);
      expect(res.statusCode).toBe(503);
      expect(res.data.code).toBe('TELEGRAM_UNAVAILABLE');
    } finally {
      bot.reset();
    }
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
  });

  it('ignores updates that are not a /start with a code, and stale codes', async () => {
    for (const update of [{ update_id: 1 }, startUpdate('hello', 1), startUpdate('/start', 2), startUpdate('/start ../../etc', 3), startUpdate('/start unknowncode', 4)]) {
      expect((await webhook(update)).statusCode).toBe(200);
    }
    expect(await t.db.selectFrom('users').select('id').where('telegram_id', 'in', [1, 2, 3, 4]).execute()).toHaveLength(0);
  });

  it('polls getUpdates when no webhook is used', async () => {
    const user = await newUser(t.db);
    const code = new URL((await state(t, user)).bot_url).searchParams.get('start') ?? '';
    bot.respond((req) => (req.path.endsWith('/getUpdates') ? { status: 200, body: { ok: true, result: [startUpdate(`/start ${code}`, 31337)] } } : { status: 200, body: { ok: true, result: true } }));
    try {
      expect(await pollTelegram(t.ctx)).toBe(1);
      // Bot API: allowed_updates is an array of update types.
      expect(bot.requests.find((r) => r.path.endsWith('/getUpdates'))?.body).toMatchObject({ allowed_updates: ['message'] });
    } finally {
      bot.reset();
    }
    expect((await state(t, user)).linked).toBe(true);
    const offset = await t.db.selectFrom('telegram_state').select('value').where('key', '=', 'offset').executeTakeFirstOrThrow();
    expect(offset.value).toBe('31338');
  });
});
