import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminBillingRoutes, buildPath } from '@app/contracts';
import { call, createTestApp, newAdmin, newUser, seedCatalog, subscribe, type TestApp } from '../support/index.ts';

/* Every endpoint of the billing, content, activity, analytics and settings tabs and the CSV exports: 401 for a guest, 403 for a user, and nothing changes. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
});
afterAll(() => t.close());

/** What a request of each route would be from an admin (valid, so only the access decides). */
async function validRequests(): Promise<Record<keyof typeof adminBillingRoutes, { params?: Record<string, number>; query?: string; payload?: Record<string, unknown> }>> {
  const catalog = await seedCatalog(t.db);
  const payer = await newUser(t.db);
  const { invoice } = await subscribe(t.app, payer, catalog.monthly);
  const sub = await t.db.selectFrom('subscriptions').select('id').where('user_id', '=', payer.id).executeTakeFirstOrThrow();
  const card = await t.db.insertInto('dashboard_cards').values({ link: '/chat', icon: '/i.svg', name: 'Карточка', description: 'Описание' }).returning('id').executeTakeFirstOrThrow();
  const chat = await t.db.insertInto('chats').values({ user_id: payer.id, title: 'Чат' }).returning('id').executeTakeFirstOrThrow();
  const plan = { name: 'Тариф', amount: 100, words: 10, media: 1, subscriptions_type: 2 };
  const cardBody = { name: 'Новая', description: 'Описание', icon: '/i.svg', link: '/chat' };
  return {
    tariffs: {},
    tariff: { params: { id: catalog.monthly.id } },
    createTariff: { payload: plan },
    updateTariff: { params: { id: catalog.monthly.id }, payload: plan },
    subscriptions: { query: 'q=a&status=active' },
    subscription: { params: { id: sub.id } },
    payments: {},
    payment: { params: { id: invoice.payment_id } },
    refundPayment: { params: { id: invoice.payment_id }, payload: { amount: 10, reason: 'Возврат', request_id: crypto.randomUUID() } },
    subscriptionLog: {},
    dashboardCards: {},
    dashboardCard: { params: { id: card.id } },
    createDashboardCard: { payload: cardBody },
    updateDashboardCard: { params: { id: card.id }, payload: cardBody },
    deleteDashboardCard: { params: { id: card.id } },
    generations: {},
    chats: {},
    chat: { params: { id: chat.id } },
    analytics: { query: 'from=2025-01-01&to=2025-01-31' },
    settings: {},
    updateSettings: { payload: { welcome_words: 1, welcome_media: 0, telegram_channel: '@someone_else', support_url: 'https://x.example', sandbox_payments: false, sandbox_telegram: false } },
    exportLedger: { query: 'from=2025-01-01&to=2025-01-31' },
    exportPayments: { query: 'from=2025-01-01&to=2025-01-31' },
  };
}

const snapshot = async () => ({
  tariffs: await t.db.selectFrom('tariffs').selectAll().orderBy('id').execute(),
  cards: await t.db.selectFrom('dashboard_cards').selectAll().orderBy('id').execute(),
  refunds: await t.db.selectFrom('payment_refunds').selectAll().execute(),
  settings: await t.db.selectFrom('settings').selectAll().execute(),
  audit: await t.db.selectFrom('audit_log').selectAll().execute(),
});

describe('access to the admin’s billing, content, activity, analytics and settings', () => {
  it('a guest gets 401 and a user 403 from every endpoint, whatever they send; an admin gets 200; only the admin changes anything', async () => {
    const requests = await validRequests();
    const user = await newUser(t.db);
    const before = await snapshot();
    for (const [name, route] of Object.entries(adminBillingRoutes)) {
      const r = requests[name as keyof typeof adminBillingRoutes];
      const url = `${buildPath(route.path, r.params)}${r.query ? `?${r.query}` : ''}`;
      const send = (token?: string) => call(t.app, { method: route.method, url, token, payload: r.payload, csrf: token === undefined });
      const guest = await send();
      expect({ name, status: guest.statusCode, code: guest.data.code }).toEqual({ name, status: 401, code: 'UNAUTHENTICATED' });
      const refused = await send(user.token);
      expect({ name, status: refused.statusCode, code: refused.data.code, text: refused.data.text }).toEqual({ name, status: 403, code: 'FORBIDDEN', text: 'Недостаточно прав' });
    }
    expect(await snapshot()).toEqual(before);
    // The same requests are the admin's to make (so the refusals above are about who asks).
    const admin = await newAdmin(t.db);
    for (const [name, route] of Object.entries(adminBillingRoutes)) {
      const r = requests[name as keyof typeof adminBillingRoutes];
      const res = await call(t.app, { method: route.method, url: `${buildPath(route.path, r.params)}${r.query ? `?${r.query}` : ''}`, token: admin.token, payload: r.payload });
      expect({ name, status: res.statusCode }).toEqual({ name, status: 200 });
    }
  });
});
