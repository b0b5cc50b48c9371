import crypto from 'node:crypto';
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BILLING_TEXTS, CHAT_TEXTS } from '@app/contracts';
import { walletState } from '@app/server/testing';
import { afterNavigation, openPage, setupClusterE2E } from './support/index.ts';

/*
 * The service as production runs it: two web processes and a worker behind nginx (the
 * repository's configuration), one PostgreSQL, files on S3. A new user's whole journey goes
 * through the proxy, so its requests land on both web processes and its background work on the
 * worker.
 */

// A human pace, so an answer can be stopped midway and a run's progress watched.
const e2e = setupClusterE2E({ env: { DEMO_WORD_DELAY_MS: '30', DEMO_STEP_DELAY_MS: '80' } });

function futureExpiry(): string {
  const now = new Date();
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String((now.getFullYear() + 2) % 100).padStart(2, '0')}`;
}
const checkout = (page: Page): FrameLocator => page.frameLocator('iframe[title="Тестовая оплата"]');
const answers = (page: Page) => page.getByRole('article', { name: 'Демо-ассистент' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Сообщение' });

async function register(page: Page): Promise<string> {
  const email = `cluster-${crypto.randomBytes(4).toString('hex')}@example.ru`;
  await openPage(page, e2e.url('/register'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль', { exact: true }).fill('cluster-password-1');
  await page.getByLabel('Повторите пароль').fill('cluster-password-1');
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
