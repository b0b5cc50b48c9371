import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Generation } from '@app/contracts';
import { storeFiles } from '../../src/features/files/files.service.ts';
import { FakeOpenAi, TINY_PNG, fakeProviderEnv } from '../support/ai-fakes.ts';
import { call, createTestApp, jobEnded, newUser, productOn, seedCatalog, startRun, subscribe, until, userWithTokens, walletState, type Catalog, type TestApp, type TestUser } from '../support/index.ts';

/* Deleting one's own account (152-ФЗ): what goes, what stays for the accounting law, and the edges (wrong input, two at once, work in progress). */

const KEY_ENV = 'FAKE_OPENAI_API_KEY';
let fake: FakeOpenAi;
let t: TestApp;
let catalog: Catalog;
let imageProduct = 0;
beforeAll(async () => {
  fake = await new FakeOpenAi().start();
  t = await createTestApp({ env: fakeProviderEnv({ [KEY_ENV]: { key: fake.apiKey, url: fake.baseUrl } }) });
  catalog = await seedCatalog(t.db);
  imageProduct = await productOn(t.db, { protocol: 'openai', baseUrl: fake.baseUrl, keyEnv: KEY_ENV }, { kind: 'image', providerModel: 'gpt-image-1', mediaPriceTenths: 15 }, { variant: 'img', name: 'Картинка' });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
  fake.image = Buffer.from(TINY_PNG);
});

const remove = (user: Pick<TestUser, 'token'> | undefined, payload: unknown) => call(t.app, { method: 'POST', url: '/api/new/account/delete', token: user?.token, payload: payload as Record<string, unknown> });
const userRow = (id: number) => t.db.selectFrom('users').select(['email', 'deleted_at', 'password_hash']).where('id', '=', id).executeTakeFirstOrThrow();
const count = async (table: 'chats' | 'chat_messages' | 'generations' | 'invoices' | 'wallet_ledger', id: number) =>
  Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', id).executeTakeFirstOrThrow()).n);
const filesOf = async (id: number) => t.db.selectFrom('files').select(['id', 'storage_key']).where('owner_id', '=', id).execute();

/** A user with a plan, a chat with a message and an attached picture. */
async function fullUser(): Promise<TestUser & { storageKey: string }> {
  const user = await newUser(t.db);
  await subscribe(t.app, user, catalog.monthly);
  const chat = await t.db.insertInto('chats').values({ user_id: user.id, title: 'Мой чат', model_id: null }).returning('id').executeTakeFirstOrThrow();
  await t.db
    .insertInto('chat_messages')
    .values({ chat_id: chat.id, user_id: user.id, role: 'user', text: 'Привет, это личное', model_id: null, model_name: null, param: null, input_tokens: null, output_tokens: null, hold_id: null, error: null })
    .execute();
  const file = await storeFiles(t.db, t.ctx.storage, (_tx, save) => save({ ownerId: user.id, purpose: 'chat_attachment', body: TINY_PNG, contentType: 'image/png', originalName: 'me.png' }));
  return { ...user, storageKey: file.storage_key };
}

describe('POST /api/new/account/delete', () => {
  it('deletes the account: plan ended, chats, files and runs erased, email a placeholder, sessions ended; payments and the ledger kept', async () => {
    const user = await fullUser();
    const invoicesBefore = await count('invoices', user.id);
    const ledgerBefore = await count('wallet_ledger', user.id);
    expect(await t.ctx.storage.exists(user.storageKey)).toBe(true);

    const res = await remove(user, { password: user.password, confirm: true });
    expect(res.statusCode).toBe(200);
    expect(res.data.json).toEqual({ deleted: true });
    expect(res.cookies.find((c) => c.name === 'session')?.value).toBe('');

    const row = await userRow(user.id);
    expect(row.email).toBe(`deleted-${String(user.id)}@deleted.invalid`);
    expect(row.deleted_at).not.toBeNull();
    expect(await count('chats', user.id)).toBe(0);
    expect(await count('chat_messages', user.id)).toBe(0);
    expect(await filesOf(user.id)).toEqual([]);
    expect(await t.ctx.storage.exists(user.storageKey)).toBe(false);
    const plan = await t.db.selectFrom('subscriptions').select(['status', 'ended_at']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(plan.status).toBe('expired');
    const log = await t.db.selectFrom('subscription_log').select('cause').where('user_id', '=', user.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.cause).toBe('account_deleted');
    // Kept for the accounting law, under the placeholder.
    expect(await count('invoices', user.id)).toBe(invoicesBefore);
    expect(await count('wallet_ledger', user.id)).toBe(ledgerBefore);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual(wallet.sums);

    // The old token is dead, and the old email and password sign nobody in.
    expect((await call(t.app, { url: '/api/new/user', token: user.token })).statusCode).toBe(401);
    const login = await call(t.app, { method: 'POST', url: '/api/new/login', payload: { email: user.email, password: user.password }, csrf: true });
    expect(login.statusCode).toBe(422);
    expect(login.data.code).toBe('INVALID_CREDENTIALS');
    // The address is free again.
    const again = await call(t.app, { method: 'POST', url: '/api/new/register', payload: { email: user.email, password: 'brand-new-pass-1', password_confirmation: 'brand-new-pass-1', consent: true }, csrf: true });
    expect(again.statusCode).toBe(200);
  });

  it.each([
    ['a wrong password', { password: 'not-my-password', confirm: true }, 422, { password: ['Неверный пароль'] }],
    ['no password', { confirm: true }, 400, { password: ['Введите пароль'] }],
    ['no confirmation', { password: 'x' }, 400, { confirm: ['Подтвердите удаление аккаунта'] }],
    ['a confirmation as a string', { password: 'x', confirm: 'true' }, 400, { confirm: ['Подтвердите удаление аккаунта'] }],
    ['a password as an object', { password: { $ne: '' }, confirm: true }, 400, { password: ['Введите пароль'] }],
  ])('refuses %s and deletes nothing', async (_name, body, status, text) => {
    const user = await fullUser();
    const res = await remove(user, body);
    expect(res.statusCode).toBe(status);
    expect(res.data.text).toEqual(text);
    expect((await userRow(user.id)).deleted_at).toBeNull();
    expect(await count('chats', user.id)).toBe(1);
    expect(await t.ctx.storage.exists(user.storageKey)).toBe(true);
    expect((await call(t.app, { url: '/api/new/user', token: user.token })).statusCode).toBe(200);
  });

  it('a guest gets 401; naming another user in the body touches nobody but the caller', async () => {
    expect((await remove(undefined, { password: 'x', confirm: true })).statusCode).toBe(401);
    const victim = await fullUser();
    const attacker = await newUser(t.db, { password: 'attacker-pass-1' });
    // The victim's password with the attacker's session: wrong password, nothing happens.
    expect((await remove(attacker, { password: victim.password, confirm: true, id: victim.id, user_id: victim.id })).statusCode).toBe(422);
    // The attacker's own password deletes the attacker only, whatever id the body names.
    expect((await remove(attacker, { password: attacker.password, confirm: true, id: victim.id, user_id: victim.id })).statusCode).toBe(200);
    expect((await userRow(attacker.id)).deleted_at).not.toBeNull();
    expect((await userRow(victim.id)).deleted_at).toBeNull();
    expect(await count('chats', victim.id)).toBe(1);
    expect((await call(t.app, { url: '/api/new/user', token: victim.token })).statusCode).toBe(200);
  });

  it('two deletions at once: one deletes, the other is refused, nothing is erased twice', async () => {
    const user = await fullUser();
    const results = await Promise.all([remove(user, { password: user.password, confirm: true }), remove(user, { password: user.password, confirm: true })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    expect((await userRow(user.id)).email).toBe(`deleted-${String(user.id)}@deleted.invalid`);
    const logs = await t.db.selectFrom('subscription_log').select('cause').where('user_id', '=', user.id).where('cause', '=', 'account_deleted').execute();
    expect(logs).toHaveLength(1);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual(wallet.sums);
  });

  it('a run in progress: its hold is given back, the run erased, and its output never stored for the deleted account', async () => {
    const user = await userWithTokens(t.db, 5);
    fake.behaviour = { kind: 'slow', delayMs: 1500 };
    const started = await startRun(t.app, user, { product_id: imageProduct, prompt: 'Кот' });
    expect(started.statusCode).toBe(200);
    const id = (started.data.json as Generation).id;
    await until(async () => (await t.db.selectFrom('generations').select('status').where('id', '=', id).executeTakeFirst())?.status === 'running');
    const held = await t.db.selectFrom('wallet_holds').select('status').where('user_id', '=', user.id).execute();
    expect(held.map((h) => h.status)).toEqual(['held']);

    const res = await remove(user, { password: user.password, confirm: true });
    expect(res.statusCode).toBe(200);
    await jobEnded(t.db, id);
    expect(fake.server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(await count('generations', user.id)).toBe(0);
    expect(await filesOf(user.id)).toEqual([]);
    const holds = await t.db.selectFrom('wallet_holds').select(['status', 'spent']).where('user_id', '=', user.id).execute();
    expect(holds).toEqual([{ status: 'released', spent: 0 }]);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual(wallet.sums);
    expect(wallet.balance.media).toBe(50);
  });
});
