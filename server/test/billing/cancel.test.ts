import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, fakeCloudPaymentsApi, newUser, seedCatalog, startPayment, subscribe, type Catalog, type FakeServer, type TestApp } from '../support/index.ts';

const PUBLIC_ID = 'pk_test_0123456789';
const API_SECRET = 'api_secret_for_tests';

let t: TestApp;
let cp: FakeServer;
let catalog: Catalog;
beforeAll(async () => {
  cp = fakeCloudPaymentsApi(PUBLIC_ID, API_SECRET);
  await cp.start();
  t = await createTestApp({ workers: false, env: { CLOUDPAYMENTS_PUBLIC_ID: PUBLIC_ID, CLOUDPAYMENTS_API_SECRET: API_SECRET, CLOUDPAYMENTS_API_URL: cp.url } });
  catalog = await seedCatalog(t.db);
});
afterAll(async () => {
  await t.close();
  await cp.stop();
});

const cancel = (token?: string) => call(t.app, { method: 'DELETE', url: '/api/new/subscribe/', token });

describe('DELETE /api/new/subscribe/ with CloudPayments', () => {
  it('answers the public id of the configured terminal', async () => {
    const user = await newUser(t.db);
    const key = await call(t.app, { url: '/api/payment/cloudpayments/key', token: user.token });
    expect(key.data).toEqual({ status: 'success', json: PUBLIC_ID });
  });

  it('cancels at CloudPayments through /subscriptions/cancel, then marks the plan cancelled but still active', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly, 'sc_cancel_me');
    cp.requests.length = 0;
    const res = await cancel(user.token);
    expect(res.statusCode).toBe(200);
    expect(res.data.json).toMatchObject({ cancelled: true });
    expect(cp.requests).toHaveLength(1);
    expect(cp.requests[0]).toMatchObject({ method: 'POST', path: '/subscriptions/cancel', body: { Id: 'sc_cancel_me' } });
    expect(cp.requests[0]?.headers['x-request-id']).toBeTruthy();

    const check = await call(t.app, { url: '/api/new/subscribe/check', token: user.token });
    expect(check.data.json).toMatchObject({ subscriptions: catalog.monthly.id, cancelled: true });
    const status = await call(t.app, { url: '/api/new/subscribe/check_user', token: user.token });
    const json = status.data.json as { status: boolean; subscription: { name: string }; days_left: number };
    expect(json.status).toBe(false);
    expect(json.subscription).toEqual({ name: 'Бизнес' });
    expect(json.days_left).toBeGreaterThan(27);
    const history = await call(t.app, { url: '/api/new/subscribe?page=1', token: user.token });
    expect(history.data.json).toMatchObject({ data: [{ status: true, closed: true }] });

    // No top-ups after cancelling (seed §4).
    const pack = await call(t.app, { url: `/api/payment/cloudpayments/pay?id=${String(catalog.wordsPack.id)}`, token: user.token });
    expect(pack.statusCode).toBe(422);
    expect(pack.data.code).toBe('SUBSCRIPTION_CANCELLED');
    // A second cancel has nothing to cancel.
    expect((await cancel(user.token)).data.code).toBe('SUBSCRIPTION_NOT_FOUND');
  });

  it('keeps the plan unchanged when CloudPayments fails', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly, 'sc_provider_down');
    cp.respond(() => ({ status: 500, body: { Success: false } }));
    try {
      const res = await cancel(user.token);
      expect(res.statusCode).toBe(502);
      expect(res.data.status).toBe('error');
    } finally {
      cp.reset();
    }
    const sub = await t.db.selectFrom('subscriptions').select('status').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(sub.status).toBe('active');
  });

  it('refuses guests and users without a plan; a user cancels only their own', async () => {
    expect((await cancel()).statusCode).toBe(401);
    const owner = await newUser(t.db);
    await subscribe(t.app, owner, catalog.monthly, 'sc_owner');
    const stranger = await newUser(t.db);
    const res = await cancel(stranger.token);
    expect(res.statusCode).toBe(422);
    expect(res.data.code).toBe('SUBSCRIPTION_NOT_FOUND');
    const sub = await t.db.selectFrom('subscriptions').select('status').where('user_id', '=', owner.id).executeTakeFirstOrThrow();
    expect(sub.status).toBe('active');
  });

  it('the sandbox endpoints do not exist with real keys', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    const charge = await call(t.app, { method: 'POST', url: '/api/sandbox/cloudpayments/charge', token: user.token, payload: { payment_id: invoice.payment_id, card_number: '4242424242424242', exp: '12/30', cvv: '123' } });
    expect(charge.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/cloudpayments.js' })).statusCode).toBe(404);
  });
});

describe('pages with real CloudPayments keys', () => {
  it('the CSP lets CloudPayments’ widget script, frame and styles in, and nothing else new', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login' });
    const csp = new Map(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...sources]) => [name ?? '', sources]),
    );
    expect(csp.get('script-src')).toEqual(["'self'", 'https://widget.cloudpayments.ru', 'https://*.cloudpayments.ru']);
    expect(csp.get('frame-src')).toContain('https://widget.cloudpayments.ru');
    expect(csp.get('style-src')).toContain("'unsafe-inline'");
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(csp.get('default-src')).toEqual(["'self'"]);
  });
});
