import crypto from 'node:crypto';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_TEXTS, CHAT_TEXTS } from '@app/contracts';
import { newAdmin, newUser, walletState, type TestUser } from '@app/server/testing';
import { credit } from '../server/src/features/wallet/wallet.queries.ts';
import { FakeOpenAi, fakeProviderEnv } from '../server/test/support/ai-fakes.ts';
import { afterNavigation, openPage, setupClusterE2E } from './support/index.ts';

/*
 * The service as production runs it: two web processes and a worker behind nginx (the
 * repository's configuration), one PostgreSQL, files on S3. A new user's whole journey goes
 * through the proxy, so its requests land on both web processes and its background work on the
 * worker.
 */

// An OpenAI-compatible provider whose answers stall when told to: an answer that goes on until it is stopped.
const fake = new FakeOpenAi('sk-cluster-test');
await fake.start();
const STALLING = 'Зависающая модель';

// A human pace, so an answer can be stopped midway and a run's progress watched.
const e2e = setupClusterE2E({ env: { DEMO_WORD_DELAY_MS: '30', DEMO_STEP_DELAY_MS: '80', ...fakeProviderEnv({ FAKE_OPENAI_API_KEY: { key: fake.apiKey, url: fake.baseUrl } }) } });

beforeAll(async () => {
  const connection = await e2e.cluster.db
    .insertInto('provider_connections')
    .values({ name: 'Фейк', protocol: 'openai', base_url: fake.baseUrl, api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 120 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await e2e.cluster.db.insertInto('ai_models').values({ name: STALLING, kind: 'chat', connection_id: connection.id, provider_model: 'gpt-fake', max_output_tokens: 500 }).execute();
  fake.answer = { pieces: ['Первая', ' часть', ' ответа', ' и дальше'], finishReason: 'stop', promptTokens: 12, completionTokens: 8 };
  fake.behaviour = { kind: 'stalled_stream', afterChunks: 2 };
});
afterAll(() => fake.stop());

function futureExpiry(): string {
  const now = new Date();
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String((now.getFullYear() + 2) % 100).padStart(2, '0')}`;
}
const checkout = (page: Page): FrameLocator => page.frameLocator('iframe[title="Тестовая оплата"]');
const answers = (page: Page) => page.getByRole('article', { name: 'Демо-ассистент' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Сообщение' });

/** Picks a chat model (its first parameter choice) in the composer's select. */
async function chooseModel(page: Page, name: string): Promise<void> {
  const select = page.getByRole('combobox', { name: 'Модель' });
  const option = select.locator(`option:text-is("${name}"), optgroup[label="${name}"] option`).first();
  await option.waitFor({ state: 'attached' });
  await select.selectOption((await option.getAttribute('value')) ?? '');
}

async function register(page: Page): Promise<string> {
  const email = `cluster-${crypto.randomBytes(4).toString('hex')}@example.ru`;
  await openPage(page, e2e.url('/register'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль', { exact: true }).fill('cluster-password-1');
  await page.getByLabel('Повторите пароль').fill('cluster-password-1');
  await page.getByRole('checkbox', { name: /согласен на обработку персональных данных/ }).check();
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await afterNavigation(page, '/dashboard');
  const overlay = page.getByRole('dialog', { name: 'Подтвердите почту' });
  await overlay.getByLabel('Код из письма').fill(await e2e.cluster.smtp.confirmationCode(email));
  await overlay.getByRole('button', { name: 'Подтвердить' }).click();
  await page.getByText('Почта подтверждена').waitFor();
  await page.locator('[data-widget="email-confirm"]').waitFor({ state: 'detached' });
  return email;
}

describe('through nginx, on two web processes and a worker', () => {
  it('a new user registers, pays, chats with a stop, generates with progress and finds it in the history', async () => {
    const page = await e2e.newPage();
    const email = await register(page);
    const user = await e2e.cluster.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();

    // Pays for «Старт» with its trial in the sandbox's checkout: the notifications go through the worker.
    await openPage(page, e2e.url('/dashboard/user/payment'));
    const plan = page.getByRole('article', { name: 'Старт', exact: true });
    await plan.getByRole('button', { name: BILLING_TEXTS.trial(99) }).click();
    await page.getByRole('dialog', { name: 'Подписка «Старт»' }).getByRole('button', { name: 'Перейти к оплате' }).click();
    const frame = checkout(page);
    await frame.getByLabel('Номер карты').fill('4242 4242 4242 4242');
    await frame.getByLabel('Срок действия').fill(futureExpiry());
    await frame.getByLabel('CVV', { exact: true }).fill('123');
    await frame.getByRole('button', { name: 'Оплатить 99 ₽' }).click();
    await plan.getByRole('button', { name: BILLING_TEXTS.current }).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await walletState(e2e.cluster.db, user.id)).balance).toEqual({ words: 100_000, media: 300 });

    // Chats: one answer in full, a long one stopped midway (whichever process receives the stop).
    await openPage(page, e2e.url('/chat'));
    await chooseModel(page, 'Демо-ассистент');
    await composer(page).fill('Привет! Расскажи о себе');
    await composer(page).press('Enter');
    await answers(page).first().getByText(/^Списано/).waitFor({ timeout: 30_000 });
    await composer(page).fill('Составь подробный план подготовки к марафону по неделям');
    await composer(page).press('Enter');
    const second = answers(page).nth(1);
    await expect.poll(async () => ((await second.textContent()) ?? '').length, { timeout: 20_000 }).toBeGreaterThan(60);
    await page.getByRole('button', { name: 'Остановить' }).click();
    await second.getByText('Остановлено').waitFor({ timeout: 20_000 });
    await page.reload();
    await page.getByRole('article', { name: CHAT_TEXTS.you }).nth(1).waitFor({ timeout: 15_000 });
    await answers(page).nth(1).getByText('Остановлено').waitFor();

    // Generates a picture: started on a web process, run by the worker, its progress followed through the proxy.
    const product = await e2e.cluster.db.selectFrom('ai_products').select('id').where('name', '=', 'Картинка по описанию').executeTakeFirstOrThrow();
    await openPage(page, e2e.url(`/ai-products/img/${String(product.id)}`));
    await page.getByRole('textbox', { name: 'Описание' }).fill('Маяк на скале в шторм');
    await page.getByRole('button', { name: /^Создать/ }).click();
    await page.getByRole('progressbar', { name: 'Ход генерации' }).waitFor();
    const status = page.locator('.gen-run .gen-run__status');
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toBe('Готово');
    const result = page.locator('.gen-run').getByRole('img', { name: /^Результат 1/ });
    await expect.poll(() => result.evaluate((img) => Number(Reflect.get(img, 'naturalWidth'))), { timeout: 15_000 }).toBeGreaterThan(0);

    // The history lists it, with its picture (stored on S3, served by either process).
    await openPage(page, e2e.url('/ai-history'));
    const card = page.getByRole('article').filter({ hasText: 'Маяк на скале в шторм' });
    await card.getByText('Готово').waitFor({ timeout: 15_000 });
    expect(await e2e.cluster.s3.listKeys()).not.toHaveLength(0);
    const state = await walletState(e2e.cluster.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.media).toBe(290);
  });
});

/** A call straight to one web process (not through nginx): what that process answers. */
async function direct(processName: string, method: string, pathname: string, user: TestUser, body?: unknown) {
  const port = e2e.cluster.processes.get(processName)?.port;
  if (!port) throw new Error(`no web process ${processName}`);
  const res = await fetch(`http://127.0.0.1:${String(port)}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${user.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as { status: string; json?: unknown; code?: string } };
}

async function userWithWords(words: number): Promise<TestUser> {
  const user = await newUser(e2e.cluster.db);
  await e2e.cluster.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `cluster-${String(user.id)}` }, words));
  return user;
}

/**
 * Starts an answer that goes on until it is stopped (the stalling model), in the browser with only
 * web1 running, so web1 writes it; then web2 is back. Answers the chat's id.
 */
async function answerWrittenByWeb1(page: Page): Promise<number> {
  await e2e.cluster.stop('web2');
  try {
    await openPage(page, e2e.url('/chat'));
    await chooseModel(page, STALLING);
    await composer(page).fill('Составь подробный план подготовки к марафону по неделям');
    await composer(page).press('Enter');
    await page.getByRole('article', { name: STALLING }).first().getByText('Первая часть').waitFor({ timeout: 20_000 });
  } finally {
    await e2e.cluster.start('web2');
  }
  await page.waitForURL(/\/chat\?id=\d+/);
  return Number(new URL(page.url()).searchParams.get('id'));
}

describe('what one process does, the other knows at once', () => {
  it('an admin switches a chat model off on one process: the other refuses it and no longer lists it', async () => {
    const admin = await newAdmin(e2e.cluster.db);
    const model = await e2e.cluster.db.selectFrom('ai_models').select(['id', 'name']).where('name', '=', 'Демо-ассистент Лайт').executeTakeFirstOrThrow();
    const user = await userWithWords(10_000);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/chat'));
    await expect.poll(() => page.getByRole('combobox', { name: /Модель/ }).locator('option, optgroup').allTextContents().then((t) => t.join(' '))).toContain(model.name);

    expect((await direct('web1', 'PATCH', `/api/admin/ai-models/${String(model.id)}`, admin, { active: false })).status).toBe(200);
    // The other process's cache of models was dropped by the change's NOTIFY: a send with it is refused there.
    const send = async () => {
      const form = new FormData();
      form.set('ai_models_id', String(model.id));
      form.set('message', 'Привет');
      const port = e2e.cluster.processes.get('web2')?.port ?? 0;
      return (await fetch(`http://127.0.0.1:${String(port)}/api/new/chat`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` }, body: form })).status;
    };
    await expect.poll(send, { timeout: 5_000 }).toBe(400);
    await page.reload();
    await page.getByRole('textbox', { name: 'Сообщение' }).waitFor();
    await expect.poll(() => page.getByRole('combobox', { name: /Модель/ }).locator('option, optgroup').allTextContents().then((t) => t.join(' '))).not.toContain(model.name);
    expect((await direct('web2', 'PATCH', `/api/admin/ai-models/${String(model.id)}`, admin, { active: true })).status).toBe(200);
  });

  it('a stop sent to the other process stops the answer where it is written, kept and charged as far as it went', async () => {
    const user = await userWithWords(100_000);
    const page = await e2e.signedInPage(user);
    const chatId = await answerWrittenByWeb1(page);
    expect((await direct('web2', 'POST', `/api/new/chat/${String(chatId)}/stop`, user)).status).toBe(200);
    await page.getByRole('article', { name: STALLING }).first().getByText('Остановлено').waitFor({ timeout: 20_000 });
    const row = await e2e.cluster.db.selectFrom('chat_messages').select(['status', 'words']).where('chat_id', '=', chatId).where('role', '=', 'assistant').executeTakeFirstOrThrow();
    expect(row.status).toBe('stopped');
    expect(row.words).toBeGreaterThan(0);
    const state = await walletState(e2e.cluster.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.words).toBe(100_000 - row.words);
  });

  it('a chat deleted on the other process while its answer is written: gone from the list, and the answer still charged', async () => {
    const user = await userWithWords(100_000);
    const page = await e2e.signedInPage(user);
    const chatId = await answerWrittenByWeb1(page);
    const hold = `chat-answer:%`;
    expect((await direct('web2', 'DELETE', `/api/new/chat/${String(chatId)}`, user)).status).toBe(200);
    await expect.poll(async () => (await e2e.cluster.db.selectFrom('chats').select('id').where('id', '=', chatId).executeTakeFirst()) === undefined, { timeout: 20_000 }).toBe(true);
    const settled = await e2e.cluster.db.selectFrom('wallet_holds').select(['status', 'spent']).where('user_id', '=', user.id).where('idempotency_key', 'like', hold).executeTakeFirstOrThrow();
    expect(settled.status).toBe('settled');
    expect(settled.spent).toBeGreaterThan(0);
    await openPage(page, e2e.url('/chat'));
    await page.getByRole('textbox', { name: 'Сообщение' }).waitFor();
    expect(await page.getByText(/Составь подробный/).count()).toBe(0);
    const state = await walletState(e2e.cluster.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.words).toBe(100_000 - (settled.spent ?? 0));
  });
});
