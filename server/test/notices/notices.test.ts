import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { unsubscribeUrl } from '../../src/mail/unsubscribe.ts';
import { sendDueNotices } from '../../src/features/notices/notices.service.ts';
import { call, createTestApp, newUser, nextTransactionId, seedCatalog, subscribe, type Catalog, type ReceivedMail, type TestApp, type TestUser } from '../support/index.ts';

let a: TestApp;
let b: TestApp;
let catalog: Catalog;
beforeAll(async () => {
  a = await createTestApp();
  // A second process of the same service on the same database: two workers run the scheduled job at once.
  b = await createTestApp({ shareDatabaseWith: a });
  catalog = await seedCatalog(a.db);
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const HOUR = 3_600_000;
const mails = (): ReceivedMail[] => [...a.smtp.messages, ...b.smtp.messages];
const mailsTo = (user: TestUser) => mails().filter((m) => m.to.includes(user.email.toLowerCase()));
const setPlan = (user: TestUser, fields: { period_end?: Date; status?: 'active' | 'expired' | 'cancelled' | 'past_due'; ended_at?: Date }) =>
  a.db.updateTable('subscriptions').set(fields).where('user_id', '=', user.id).execute();
const rub = (kopecks: number) => `${new Intl.NumberFormat('ru-RU').format(kopecks / 100)} ₽`;
/** Both workers, several rounds each, at once. */
async function runBothWorkers(rounds = 3): Promise<number> {
  const sent = await Promise.all(Array.from({ length: rounds }, () => [sendDueNotices(a.ctx), sendDueNotices(b.ctx)]).flat());
  return sent.reduce((x, y) => x + y, 0);
}

describe('notices before money moves', () => {
  let trialSoon: TestUser, renewalSoon: TestUser, renewalLater: TestUser, trialLater: TestUser, ended: TestUser, failed: TestUser, endedQuiet: TestUser, cancelledTrial: TestUser;

  beforeAll(async () => {
    const made = await Promise.all(Array.from({ length: 8 }, () => newUser(a.db)));
    [trialSoon, renewalSoon, renewalLater, trialLater, ended, failed, endedQuiet, cancelledTrial] = made as [TestUser, TestUser, TestUser, TestUser, TestUser, TestUser, TestUser, TestUser];
    for (const u of [trialSoon, trialLater, cancelledTrial]) await subscribe(a.app, u, catalog.trial);
    for (const u of [renewalSoon, renewalLater, ended, failed, endedQuiet]) await subscribe(a.app, u, catalog.monthly);
    const now = Date.now();
    await setPlan(trialSoon, { period_end: new Date(now + 20 * HOUR) });
    await setPlan(trialLater, { period_end: new Date(now + 30 * HOUR) });
    await setPlan(cancelledTrial, { period_end: new Date(now + 20 * HOUR), status: 'cancelled' });
    await setPlan(renewalSoon, { period_end: new Date(now + 50 * HOUR) });
    await setPlan(renewalLater, { period_end: new Date(now + 100 * HOUR) });
    await setPlan(ended, { status: 'expired', ended_at: new Date(now - HOUR) });
    await setPlan(endedQuiet, { status: 'expired', ended_at: new Date(now - HOUR) });
    await a.db.updateTable('users').set({ notices_off: ['plan_ended'] }).where('id', '=', endedQuiet.id).execute();
    await setPlan(failed, { status: 'past_due', period_end: new Date(now - HOUR) });
    const sub = await a.db.selectFrom('subscriptions').select(['id', 'name']).where('user_id', '=', failed.id).executeTakeFirstOrThrow();
    await a.db
      .insertInto('auto_charges')
      .values({ user_id: failed.id, subscription_id: sub.id, name: sub.name, success: false, amount_kopecks: catalog.monthly.amount_kopecks, transaction_id: nextTransactionId(), failure_reason: 'Недостаточно средств' })
      .execute();
  });

  it('two workers running the job at once mail each due notice exactly once', async () => {
    const before = mails().length;
    expect(await runBothWorkers()).toBe(4);
    const rows = await a.db.selectFrom('mail_notices').select(['user_id', 'kind']).orderBy('id').execute();
    expect(rows.map((r) => `${String(r.user_id)}:${r.kind}`).sort()).toEqual(
      [`${String(trialSoon.id)}:trial_end`, `${String(renewalSoon.id)}:renewal`, `${String(ended.id)}:plan_ended`, `${String(failed.id)}:renewal_failed`].sort(),
    );
    await vi.waitFor(() => expect(mails().length - before).toBeGreaterThanOrEqual(4), { timeout: 15_000, interval: 100 });
    // Again, later: nothing more goes out for the same periods.
    expect(await runBothWorkers()).toBe(0);
    for (const u of [trialSoon, renewalSoon, ended, failed]) expect(mailsTo(u).filter((m) => !/код подтверждения/.test(m.subject))).toHaveLength(1);
    for (const u of [renewalLater, trialLater, endedQuiet, cancelledTrial]) expect(mailsTo(u)).toHaveLength(0);
  });

  it('says the amount, the date and how to cancel, with one-click unsubscribe headers', async () => {
    const [trial] = mailsTo(trialSoon);
    expect(trial?.subject).toBe(`Завтра закончится пробный период — спишем ${rub(catalog.trial.amount_kopecks)}`);
    expect(trial?.text).toContain(`будет списано ${rub(catalog.trial.amount_kopecks)}`);
    expect(trial?.text).toMatch(/заканчивается \d{1,2} [а-я]+ \d{4} г\./);
    expect(trial?.text).toContain(`Отменить подписку: ${a.config.publicUrl}/dashboard/user/payment`);
    expect(trial?.headers['list-unsubscribe']).toMatch(new RegExp(`^<${a.config.publicUrl}/mail/unsubscribe\\?u=${String(trialSoon.id)}&t=[\\w-]{32}>$`));
    expect(trial?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    const [renewal] = mailsTo(renewalSoon);
    expect(renewal?.subject).toBe(`Через 3 дня продлим подписку за ${rub(catalog.monthly.amount_kopecks)}`);
    expect(renewal?.html).toContain('/dashboard/user/payment');
    expect(mailsTo(failed)[0]?.subject).toBe('Не удалось продлить подписку');
    expect(mailsTo(ended)[0]?.subject).toBe('Подписка закончилась');
  });

  it('mails again for the next period', async () => {
    await setPlan(renewalSoon, { period_end: new Date(Date.now() + 60 * HOUR) });
    expect(await runBothWorkers(2)).toBe(1);
    await vi.waitFor(() => expect(mailsTo(renewalSoon).filter((m) => /продлим/.test(m.subject))).toHaveLength(2), { timeout: 15_000, interval: 100 });
  });

  it('a deleted or blocked account gets no notices', async () => {
    const [gone, blocked] = await Promise.all([newUser(a.db), newUser(a.db)]);
    for (const u of [gone, blocked]) {
      await subscribe(a.app, u, catalog.monthly);
      await setPlan(u, { period_end: new Date(Date.now() + 10 * HOUR) });
    }
    await a.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    await a.db.updateTable('users').set({ blocked_at: new Date() }).where('id', '=', blocked.id).execute();
    expect(await runBothWorkers(1)).toBe(0);
  });
});

describe('unsubscribing', () => {
  const linkOf = (mail: ReceivedMail | undefined) => {
    const url = new URL(/^<(.+)>$/.exec(mail?.headers['list-unsubscribe'] ?? '')?.[1] ?? 'http://x/');
    return `${url.pathname}${url.search}`;
  };

  it('every mail carries List-Unsubscribe: the registration code too', async () => {
    const email = `consent-${String(Date.now())}@example.ru`;
    const res = await call(a.app, { method: 'POST', url: '/api/new/register', payload: { email, password: 'long-enough-1', password_confirmation: 'long-enough-1', consent: true }, csrf: true });
    expect(res.statusCode).toBe(200);
    const mail = await Promise.race([a.smtp.waitFor(email, /код подтверждения/), b.smtp.waitFor(email, /код подтверждения/)]);
    expect(mail.headers['list-unsubscribe']).toMatch(/\/mail\/unsubscribe\?u=\d+&t=/);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });

  it('the link opens a page that asks; a one-click POST turns the optional notices off; the charge notices stay', async () => {
    const user = await newUser(a.db);
    await subscribe(a.app, user, catalog.monthly);
    await setPlan(user, { period_end: new Date(Date.now() + 10 * HOUR) });
    await sendDueNotices(a.ctx);
    const mail = await Promise.race([a.smtp.waitFor(user.email, /продлим/), b.smtp.waitFor(user.email, /продлим/)]);
    const link = linkOf(mail);

    const page = await a.app.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Отписаться');
    const off = () => a.db.selectFrom('users').select('notices_off').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect((await off()).notices_off).toEqual([]);

    const post = await a.app.inject({ method: 'POST', url: link, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(post.statusCode).toBe(200);
    expect(post.body).toContain('Вы отписались');
    expect((await off()).notices_off.sort()).toEqual(['plan_ended', 'renewal_failed']);
    const settings = await call(a.app, { url: '/api/new/settings/notices', token: user.token });
    expect(settings.data.json).toMatchObject({ notices: [{ kind: 'trial_end', enabled: true, required: true }, { kind: 'renewal', enabled: true, required: true }, { kind: 'renewal_failed', enabled: false }, { kind: 'plan_ended', enabled: false }] });
  });

  it.each([
    ['another user’s id with this token', (u: string, t: string) => `/mail/unsubscribe?u=${String(Number(u) + 1)}&t=${t}`],
    ['a forged token', (u: string) => `/mail/unsubscribe?u=${u}&t=${'A'.repeat(32)}`],
    ['no token', (u: string) => `/mail/unsubscribe?u=${u}`],
    ['a huge id', (_u: string, t: string) => `/mail/unsubscribe?u=99999999999&t=${t}`],
    ['a repeated parameter', (u: string, t: string) => `/mail/unsubscribe?u=${u}&u=${u}&t=${t}`],
  ])('refuses %s and changes nothing', async (_name, make) => {
    const user = await newUser(a.db);
    await newUser(a.db);
    const url = new URL(`http://x${linkFor(user.id)}`);
    const target = make(url.searchParams.get('u') ?? '', url.searchParams.get('t') ?? '');
    const res = await a.app.inject({ method: 'POST', url: target, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Ссылка для отписки недействительна');
    const rows = await a.db.selectFrom('users').select('notices_off').where(sql<boolean>`cardinality(notices_off) > 0`).where('id', '>=', user.id).execute();
    expect(rows).toEqual([]);
  });
});

const linkFor = (userId: number) => {
  const url = new URL(unsubscribeUrl({ appSecret: a.ctx.secrets.appSecret, publicUrl: 'http://x' }, userId));
  return `${url.pathname}${url.search}`;
};

describe('notice settings', () => {
  const get = (token?: string) => call(a.app, { url: '/api/new/settings/notices', token });
  const put = (payload: unknown, token?: string) => call(a.app, { method: 'PUT', url: '/api/new/settings/notices', payload: payload as Record<string, unknown>, token });

  it('lists every notice; the charge notices cannot be turned off', async () => {
    const user = await newUser(a.db);
    const res = await put({ renewal_failed: false, plan_ended: true, trial_end: false, renewal: false }, user.token);
    expect(res.statusCode).toBe(200);
    const kinds = (res.data.json as { notices: { kind: string; enabled: boolean; required: boolean }[] }).notices;
    expect(kinds.map((k) => [k.kind, k.enabled, k.required])).toEqual([
      ['trial_end', true, true],
      ['renewal', true, true],
      ['renewal_failed', false, false],
      ['plan_ended', true, false],
    ]);
    expect((await get(user.token)).data.json).toEqual(res.data.json);
  });

  it.each([
    ['nothing', {}],
    ['a string for a boolean', { renewal_failed: 'no', plan_ended: true }],
    ['null', { renewal_failed: null, plan_ended: true }],
  ])('refuses %s with a Russian message and changes nothing', async (_name, body) => {
    const user = await newUser(a.db);
    const res = await put(body, user.token);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.data.text)).toMatch(/[а-я]/);
    expect((await a.db.selectFrom('users').select('notices_off').where('id', '=', user.id).executeTakeFirstOrThrow()).notices_off).toEqual([]);
  });

  it('refuses a guest', async () => {
    expect((await get()).statusCode).toBe(401);
    expect((await put({ renewal_failed: false, plan_ended: false })).statusCode).toBe(401);
  });
});
