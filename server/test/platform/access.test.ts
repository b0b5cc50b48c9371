import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, type RouteContract } from '@app/contracts';
import { ALL_CONTRACTS } from '../../src/app.ts';
import { call, createTestApp, newUser, type TestApp } from '../support/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
});
afterAll(() => t.close());

/** Contracts the app serves (features of later issues are skipped until they mount). */
const served = () => ALL_CONTRACTS.filter((c) => t.app.hasRoute({ method: c.method, url: c.path }));
const urlOf = (c: RouteContract) => buildPath(c.path, { id: 1, kind: 'pay' });
const label = (c: RouteContract) => `${c.method} ${c.path}`;

describe('who may call what', () => {
  it('serves contract routes of every mounted feature', () => {
    expect(served().length).toBeGreaterThan(25);
  });

  it('a guest gets 401 from every route that needs a user, before any validation', async () => {
    for (const c of served().filter((r) => r.access === 'user' || r.access === 'confirmed' || r.access === 'admin')) {
      const res = await call(t.app, { method: c.method, url: urlOf(c), csrf: true, payload: c.method === 'GET' ? undefined : {} });
      expect({ route: label(c), status: res.statusCode, code: res.data.code }).toEqual({ route: label(c), status: 401, code: 'UNAUTHENTICATED' });
    }
  });

  it('a revoked token is a guest', async () => {
    const user = await newUser(t.db);
    await call(t.app, { url: '/api/new/logout', token: user.token });
    for (const c of served().filter((r) => r.access === 'user' && r.method === 'GET')) {
      expect({ route: label(c), status: (await call(t.app, { url: urlOf(c), token: user.token })).statusCode }).toEqual({ route: label(c), status: 401 });
    }
  });

  it('a user who is not an admin gets 403 from every admin route', async () => {
    const user = await newUser(t.db);
    const admin = served().filter((r) => r.access === 'admin');
    expect(admin.length).toBeGreaterThan(0);
    for (const c of admin) {
      const res = await call(t.app, { method: c.method, url: urlOf(c), token: user.token, payload: c.method === 'GET' ? undefined : {} });
      expect({ route: label(c), status: res.statusCode, code: res.data.code }).toEqual({ route: label(c), status: 403, code: 'FORBIDDEN' });
    }
  });

  it('an unconfirmed user gets 403 from every route that needs a confirmed email', async () => {
    const user = await newUser(t.db, { confirmed: false });
    for (const c of served().filter((r) => r.access === 'confirmed')) {
      const res = await call(t.app, { method: c.method, url: `${urlOf(c)}${c.method === 'GET' ? '?id=1' : ''}`, token: user.token, payload: c.method === 'GET' ? undefined : {} });
      expect({ route: label(c), status: res.statusCode, code: res.data.code }).toEqual({ route: label(c), status: 403, code: 'EMAIL_NOT_CONFIRMED' });
    }
  });

  it('a blocked user gets 403 everywhere a user is needed', async () => {
    const user = await newUser(t.db, { blocked: true });
    for (const c of served().filter((r) => r.access === 'user' && r.method === 'GET')) {
      const res = await call(t.app, { url: urlOf(c), token: user.token });
      expect({ route: label(c), code: res.data.code }).toEqual({ route: label(c), code: 'ACCOUNT_BLOCKED' });
    }
  });
});
