import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgListener } from '../../src/lib/pg-listener.ts';
import { SettingsStore } from '../../src/features/settings/settings.store.ts';
import { sandboxTelegramId } from '../../src/features/welcome/welcome.service.ts';
import { adminCalls, call, createTestApp, csrfPair, eventually, newAdmin, newUser, seedCatalog, startPayment, subscribe, walletState, type Catalog, type TestApp, type TestUser } from '../support/index.ts';

/*
 * Настройки: the welcome gift, the channel and support links and the sandbox switches live in
 * the database with the environment as defaults, and the running service uses a change at once:
 * in the process that made it and, through NOTIFY, in every other one. No restart.
 */

let t: TestApp;
let admin: TestUser;
let api: ReturnType<typeof adminCalls>;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  admin = await newAdmin(t.db);
  api = adminCalls(t.app, admin.token);
  catalog = await seedCatalog(t.db);
});
afterAll(() => t.close());

interface Settings {
  welcome_words: number;
  welcome_media: number;
  referral_words: number;
  telegram_channel: string;
  support_url: string;
  sandbox_payments: boolean;
  sandbox_telegram: boolean;
  defaults: Omit<Settings, 'defaults' | 'channel_url' | 'sandbox' | 'updated_at'>;
  channel_url: string;
  sandbox: { payments: boolean; telegram: boolean };
  updated_at: string | null;
}

const DEFAULTS = { welcome_words: 10000, welcome_media: 3, referral_words: 5000, telegram_channel: '@neurostudio_news', support_url: 'mailto:support@neurostudio.local', sandbox_payments: true, sandbox_telegram: true };
const save = (values: Record<string, unknown>) => api.change<Settings>('PUT', '/api/admin/settings', { ...DEFAULTS, ...values });
const storedRows = () => t.db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute();

/** A user whose account is tied to the sandbox bot and who joined the channel there. */
async function member(): Promise<TestUser> {
  const user = await newUser(t.db);
  await t.db.updateTable('users').set({ telegram_id: sandboxTelegramId(user.id) }).where('id', '=', user.id).execute();
  await t.db.insertInto('sandbox_telegram_members').values({ telegram_id: sandboxTelegramId(user.id) }).execute();
  return user;
}
const claim = (user: TestUser) => call(t.app, { method: 'POST', url: '/api/new/welcome/check', token: user.token });

describe('settings', () => {
  it('answers the defaults from the environment until an admin changes them', async () => {
    const settings = await api.get<Settings>('/api/admin/settings');
    expect(settings).toEqual({ ...DEFAULTS, defaults: DEFAULTS, channel_url: 'https://t.me/neurostudio_news', sandbox: { payments: true, telegram: true }, updated_at: null });
    expect(t.config.supportUrl).toBe(DEFAULTS.support_url);
  });

  it('a new welcome gift is what the notice promises and what the next claim grants; the new links are on the pages; no restart', async () => {
    const before = await member();
    const changed = await save({ welcome_words: 5000, welcome_media: 1.5, telegram_channel: 'https://t.me/Neuro_News_2', support_url: 'https://t.me/neuro_support' });
    expect(changed).toMatchObject({ welcome_words: 5000, welcome_media: 1.5, telegram_channel: '@Neuro_News_2', channel_url: 'https://t.me/Neuro_News_2', support_url: 'https://t.me/neuro_support', defaults: DEFAULTS });
    expect(changed.updated_at).not.toBeNull();
    const user = await member();
    const notice = (await call(t.app, { url: '/api/new/welcome', token: user.token })).data.json;
    expect(notice).toMatchObject({ gift: { words: 5000, media: 1.5 }, channel_url: 'https://t.me/Neuro_News_2' });
    expect((await claim(user)).data.json).toEqual({ claimed: true, balances: { words: 5000, media: 1.5 } });
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 5000, media: 15 });
    // A user who joined before the change gets what is promised now.
    expect((await claim(before)).data.json).toMatchObject({ balances: { words: 5000, media: 1.5 } });

    const page = await t.app.inject({ url: '/no-such-page', cookies: { session: user.cookie } });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('href="https://t.me/neuro_support"');
    expect(page.body).not.toContain(DEFAULTS.support_url);
    const bot = await t.app.inject({ url: '/sandbox/telegram?start=abc', cookies: { session: user.cookie } });
    expect(bot.body).toContain('@Neuro_News_2');

    const audit = await api.audit('settings', 'global');
    expect(audit[0]).toMatchObject({ action: 'settings.update', actor_id: admin.id, before: DEFAULTS, after: { ...DEFAULTS, welcome_words: 5000, welcome_media: 1.5, telegram_channel: '@Neuro_News_2', support_url: 'https://t.me/neuro_support' } });
  });

  it('another process reads the change when it is committed (NOTIFY), without a restart', async () => {
    const log = pino({ level: 'silent' });
    const listener = new PgListener(t.config.databaseUrl ?? '', log);
    const other = new SettingsStore(t.ctx.settings.defaults, log);
    other.listen(listener, t.db);
    await listener.start();
    try {
      await other.load(t.db);
      await save({ support_url: 'https://help.example.ru/neuro' });
      const seen = await eventually(async () => other.current.support_url, (url) => url === 'https://help.example.ru/neuro');
      expect(seen).toBe('https://help.example.ru/neuro');
    } finally {
      await listener.stop();
    }
  });

  it('a setting saved at its default is forgotten, so the environment decides it again', async () => {
    await save({ welcome_words: 777 });
    expect((await storedRows()).map((r) => r.key)).toEqual(['welcome_words']);
    const back = await save({});
    expect(back).toMatchObject({ ...DEFAULTS, updated_at: null });
    expect(await storedRows()).toEqual([]);
    const audits = await api.audit('settings', 'global');
    // Saving what is already in force writes nothing.
    await save({});
    expect(await api.audit('settings', 'global')).toHaveLength(audits.length);
  });

  it('switching the payment sandbox off stops new payments and charges in it; on again, they work', async () => {
    const user = await newUser(t.db);
    await save({ sandbox_payments: false });
    const start = await call(t.app, { url: `/api/payment/cloudpayments/subscribe?id=${String(catalog.monthly.id)}`, token: user.token });
    expect(start.statusCode).toBe(422);
    expect(start.data).toMatchObject({ code: 'SANDBOX_DISABLED', text: 'Тестовый режим отключён администратором' });
    const charge = await call(t.app, { method: 'POST', url: '/api/sandbox/cloudpayments/charge', token: user.token, payload: { payment_id: 1, card_number: '4242424242424242', exp: '12/40', cvv: '123' } });
    expect(charge.data.code).toBe('SANDBOX_DISABLED');
    const renew = await api.send('POST', '/api/admin/sandbox/renew', {});
    expect(renew.data.code).toBe('SANDBOX_DISABLED');
    await save({ sandbox_payments: true });
    expect((await startPayment(t.app, user, catalog.monthly)).payment_id).toBeGreaterThan(0);
    await subscribe(t.app, user, catalog.monthly);
  });

  it('switching the Telegram sandbox off stops its gift and its bot', async () => {
    const user = await member();
    await save({ sandbox_telegram: false });
    const refused = await claim(user);
    expect(refused.statusCode).toBe(422);
    expect(refused.data.code).toBe('SANDBOX_DISABLED');
    const pair = await csrfPair(t.app);
    const bot = await t.app.inject({
      method: 'POST',
      url: '/sandbox/telegram',
      cookies: { session: user.cookie, 'XSRF-TOKEN': pair.cookie },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ start: 'abc', action: 'join', _token: pair.header }).toString(),
    });
    expect(bot.headers.location).toBe('/sandbox/telegram?start=abc&error=SANDBOX_DISABLED');
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
    await save({ sandbox_telegram: true });
    expect((await claim(user)).statusCode).toBe(200);
  });

  it('refuses missing, malformed and hostile values in Russian, per field, changing nothing', async () => {
    await save({ welcome_words: 4321 });
    const rows = await storedRows();
    const audits = (await api.audit('settings', 'global')).length;
    const bad: [Record<string, unknown>, string][] = [
      [{ welcome_words: 0 }, 'welcome_words'],
      [{ welcome_words: 1.5 }, 'welcome_words'],
      [{ welcome_words: '100' }, 'welcome_words'],
      [{ welcome_media: -1 }, 'welcome_media'],
      [{ welcome_media: 0.05 }, 'welcome_media'],
      [{ telegram_channel: 'ab' }, 'telegram_channel'],
      [{ telegram_channel: 'https://evil.example/channel' }, 'telegram_channel'],
      [{ support_url: 'javascript:alert(1)' }, 'support_url'],
      [{ support_url: 'поддержка' }, 'support_url'],
      [{ support_url: 'https://' }, 'support_url'],
      [{ sandbox_payments: 'off' }, 'sandbox_payments'],
      [{ sandbox_telegram: undefined }, 'sandbox_telegram'],
      [{ app_secret: 'x' }, ''],
    ];
    for (const [values, field] of bad) {
      const res = await api.send('PUT', '/api/admin/settings', { ...DEFAULTS, welcome_words: 4321, ...values });
      expect(res.statusCode, JSON.stringify(values)).toBe(400);
      expect(JSON.stringify(res.data.text)).toMatch(/[а-я]/i);
      if (field) expect(Object.keys(res.data.text as object), JSON.stringify(values)).toContain(field);
    }
    expect(await storedRows()).toEqual(rows);
    expect(await api.audit('settings', 'global')).toHaveLength(audits);
    expect(t.ctx.settings.current.welcome_words).toBe(4321);
  });
});
