import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCalls, call, createTestApp, newAdmin, newUser, nextTransactionId, notify, payFields, seedCatalog, startPayment, walletState, type Catalog, type TestApp, type TestUser } from '../support/index.ts';

/*
 * Referral links: an account registered through a user's link that makes its first payment gives
 * the inviter the bonus staff set, once per invited account — not for a card the inviter paid with,
 * and taken back when that payment is refunded.
 */

let t: TestApp;
let catalog: Catalog;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
  admin = await newAdmin(t.db);
});
afterAll(() => t.close());

interface Summary {
  code: string;
  link: string;
  bonus_words: number;
  invited: number;
  paid: number;
  earned_words: number;
}
const summary = async (user: TestUser) => (await call(t.app, { url: '/api/new/referral', token: user.token })).data.json as Summary;

let registered = 0;
/** Registers a new account through the API, by `ref` when given. */
async function register(ref?: string): Promise<TestUser> {
  registered += 1;
  const email = `invited${String(registered)}-${String(Date.now())}@example.ru`;
  const password = 'correct-horse-battery';
  const res = await call(t.app, { method: 'POST', url: '/api/new/register', csrf: true, payload: { email, password, password_confirmation: password, consent: true, ...(ref === undefined ? {} : { ref }) }, remoteAddress: `10.5.0.${String(registered)}` });
  if (res.statusCode !== 200) throw new Error(res.body);
  const id = (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  await t.db.updateTable('users').set({ email_confirmed_at: new Date() }).where('id', '=', id).execute();
  return { id, email, password, token: (res.data.json as { token: string }).token, cookie: '' };
}

/** The user's first payment: a plan checkout paid with `card`. */
async function payPlan(user: TestUser, card: Record<string, string> = {}) {
  const invoice = await startPayment(t.app, user, catalog.monthly);
  const fields = payFields(invoice, user, { Token: `tk_${String(user.id)}`, CardFirstSix: '555555', CardLastFour: String(1000 + user.id).slice(-4), ...card });
  return { invoice, fields };
}

describe('referral links', () => {
  it('the link is the user’s own and stable; a guest gets 401', async () => {
    const user = await newUser(t.db);
    const first = await summary(user);
    expect(first).toMatchObject({ bonus_words: 5000, invited: 0, paid: 0, earned_words: 0 });
    expect(first.code).toMatch(/^[a-z0-9]{10}$/);
    expect(first.link).toMatch(new RegExp(`/register\\?ref=${first.code}$`));
    expect((await summary(user)).code).toBe(first.code);
    expect((await summary(await newUser(t.db))).code).not.toBe(first.code);
    expect((await call(t.app, { url: '/api/new/referral' })).statusCode).toBe(401);
  });

  it('invite → register → first payment: the inviter earns the bonus once, seen as a ledger line and in the summary', async () => {
    const inviter = await newUser(t.db);
    const { code } = await summary(inviter);
    const invited = await register(code);
    expect((await summary(inviter)).invited).toBe(1);
    const { fields, invoice } = await payPlan(invited);
    // The same Pay delivered ten times at once: one bonus.
    const codes = await Promise.all(Array.from({ length: 10 }, () => notify(t.app, 'pay', fields)));
    expect(codes.map((c) => c.code)).toEqual(Array.from({ length: 10 }, () => 0));
    expect(await summary(inviter)).toMatchObject({ invited: 1, paid: 1, earned_words: 5000 });
    // A later payment of the invited account brings nothing more.
    const pack = await startPayment(t.app, invited, catalog.wordsPack);
    expect((await notify(t.app, 'pay', payFields(pack, invited, { Token: `tk_${String(invited.id)}` }))).code).toBe(0);
    expect((await summary(inviter)).earned_words).toBe(5000);
    const history = (await call(t.app, { url: '/api/new/balance/history', token: inviter.token })).data.json as { data: { title: string; amount: number }[] };
    expect(history.data).toMatchObject([{ title: 'Бонус за приглашённого', amount: 5000 }]);
    const { balance, sums } = await walletState(t.db, inviter.id);
    expect(balance.words).toBe(5000);
    expect(sums).toEqual(balance);
    expect(invoice.payment_id).toBeGreaterThan(0);
  });

  it('two first payments of one invited account at once (two checkouts): one bonus', async () => {
    const inviter = await newUser(t.db);
    const invited = await register((await summary(inviter)).code);
    const a = await payPlan(invited);
    const b = await startPayment(t.app, invited, catalog.pro);
    const results = await Promise.all([notify(t.app, 'pay', a.fields), notify(t.app, 'pay', payFields(b, invited, { Token: 'tk_other', CardFirstSix: '400000', CardLastFour: '0002' }))]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    expect(await summary(inviter)).toMatchObject({ paid: 1, earned_words: 5000 });
    const { balance, sums } = await walletState(t.db, inviter.id);
    expect([balance.words, sums.words]).toEqual([5000, 5000]);
  });

  it('no bonus for a card the inviter paid with: by its token, or by its first six and last four digits', async () => {
    for (const same of ['token', 'pan'] as const) {
      const inviter = await newUser(t.db);
      const own = await startPayment(t.app, inviter, catalog.monthly);
      expect((await notify(t.app, 'pay', payFields(own, inviter, { Token: `tk_shared_${String(inviter.id)}`, CardFirstSix: '411111', CardLastFour: String(inviter.id).padStart(4, '0').slice(-4) }))).code).toBe(0);
      const invited = await register((await summary(inviter)).code);
      const card: Record<string, string> = same === 'token' ? { Token: `tk_shared_${String(inviter.id)}` } : { Token: 'tk_fresh', CardFirstSix: '411111', CardLastFour: String(inviter.id).padStart(4, '0').slice(-4) };
      const { fields } = await payPlan(invited, card);
      expect((await notify(t.app, 'pay', fields)).code).toBe(0);
      expect(await summary(inviter), same).toMatchObject({ invited: 1, paid: 1, earned_words: 0 });
      const bonus = await t.db.selectFrom('referral_bonuses').select('status').where('invited_id', '=', invited.id).executeTakeFirstOrThrow();
      expect(bonus.status).toBe('same_card');
      // The plan's own grant only.
      expect((await walletState(t.db, inviter.id)).balance.words).toBe(catalog.monthly.words);
    }
  });

  it('a refund of that first payment takes the bonus back through the ledger', async () => {
    const inviter = await newUser(t.db);
    const invited = await register((await summary(inviter)).code);
    const { fields, invoice } = await payPlan(invited);
    expect((await notify(t.app, 'pay', fields)).code).toBe(0);
    expect((await summary(inviter)).earned_words).toBe(5000);
    const refund = { TransactionId: nextTransactionId(), PaymentTransactionId: fields.TransactionId, Amount: invoice.amount.toFixed(2), Currency: 'RUB', AccountId: String(invited.id) };
    const twice = await Promise.all([notify(t.app, 'refund', refund), notify(t.app, 'refund', refund)]);
    expect(twice.map((r) => r.code)).toEqual([0, 0]);
    expect(await summary(inviter)).toMatchObject({ paid: 1, earned_words: 0 });
    const history = (await call(t.app, { url: '/api/new/balance/history', token: inviter.token })).data.json as { data: { title: string; amount: number }[] };
    expect(history.data.map((l) => [l.title, l.amount])).toEqual([
      ['Бонус за приглашённого отменён', -5000],
      ['Бонус за приглашённого', 5000],
    ]);
    const { balance, sums } = await walletState(t.db, inviter.id);
    expect([balance.words, sums.words]).toEqual([0, 0]);
  });

  it('the figure staff set is what the next bonus gives; an unknown or hostile ref registers without an inviter', async () => {
    const api = adminCalls(t.app, admin.token);
    const settings = await api.get<Record<string, unknown>>('/api/admin/settings');
    const keys = ['welcome_words', 'welcome_media', 'referral_words', 'telegram_channel', 'support_url', 'sandbox_payments', 'sandbox_telegram'];
    await api.change('PUT', '/api/admin/settings', { ...Object.fromEntries(keys.map((k) => [k, settings[k]])), referral_words: 1234 });
    const inviter = await newUser(t.db);
    expect((await summary(inviter)).bonus_words).toBe(1234);
    const invited = await register((await summary(inviter)).code);
    const { fields } = await payPlan(invited);
    expect((await notify(t.app, 'pay', fields)).code).toBe(0);
    expect((await summary(inviter)).earned_words).toBe(1234);
    await api.change('PUT', '/api/admin/settings', Object.fromEntries(keys.map((k) => [k, settings[k]])));
    for (const ref of ['nosuchcode1', "' or 1=1 --", 'ÄÖ', '']) {
      const user = await register(ref);
      expect((await t.db.selectFrom('users').select('referred_by').where('id', '=', user.id).executeTakeFirstOrThrow()).referred_by).toBeNull();
    }
    const tooLong = await call(t.app, { method: 'POST', url: '/api/new/register', csrf: true, payload: { email: 'long-ref@example.ru', password: 'correct-horse-battery', password_confirmation: 'correct-horse-battery', ref: 'x'.repeat(65) } });
    expect(tooLong.statusCode).toBe(400);
  });
});
