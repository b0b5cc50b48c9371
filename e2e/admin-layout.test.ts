import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminCalls, eventually, newAdmin, newUser, seedCatalog, subscribe, type TestUser } from '@app/server/testing';
import { seedAiCatalog, seedGenerationCatalog } from '../server/src/db/seed.ts';
import { openPage, setupE2E } from './support/index.ts';

/*
 * What staff see of the panel's lists on a laptop (1280 px) and a phone (390 px): a table either
 * fits or scrolls inside its frame and says so — a column is never cut off silently; the page
 * itself never scrolls sideways; on a phone the tab bar and the header's menu show that they
 * scroll and bring the current item into view; the analytics' hidden tables take no room; the
 * audit log speaks Russian; a period's payments and ledger download as CSV for accounting.
 */

const e2e = setupE2E();
const SHOTS_DIR = process.env.E2E_SCREENSHOTS_DIR;

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

const LISTS = [
  '/admin/ai-products',
  '/admin/ai-categories',
  '/admin/ai-models',
  '/admin/providers',
  '/admin/tariff',
  '/admin/users',
  '/admin/subscriptions',
  '/admin/payments',
  '/admin/log',
  '/admin/dashboard',
  '/admin/history',
  '/admin/chat_model',
  '/admin/audit',
];

/** Each table of the page: whether it is wider than its frame, and whether a visible hint says it scrolls (a focusable region). */
const tables = (page: Page) =>
  page.evaluate<{ wider: boolean; hinted: boolean }[]>(`Array.from(document.querySelectorAll('.admin-scroll'), (area) => {
    const frame = area.querySelector('.admin-table__wrap');
    const hint = area.querySelector('.admin-scroll__hint');
    return {
      wider: frame ? frame.scrollWidth > frame.clientWidth + 1 : false,
      hinted: hint !== null && hint.offsetHeight > 0 && frame?.getAttribute('role') === 'region' && frame.tabIndex === 0,
    };
  })`);

/** Whether the current item of a sideways-scrolling bar is inside the bar's visible part. */
const inView = (page: Page, bar: string) =>
  page.evaluate<boolean>(`(() => {
    const el = document.querySelector(${JSON.stringify(bar)});
    const current = el?.querySelector('[aria-current="page"]');
    if (!el || !current) return false;
    const box = el.getBoundingClientRect();
    const at = current.getBoundingClientRect();
    return at.left >= box.left - 1 && at.right <= box.right + 1;
  })()`);

let admin: TestUser;

beforeAll(async () => {
  const catalog = await seedCatalog(e2e.t.db);
  await seedAiCatalog(e2e.t.db);
  await seedGenerationCatalog(e2e.t.db);
  admin = await newAdmin(e2e.t.db);
  const api = adminCalls(e2e.t.app, admin.token);
  const client = await newUser(e2e.t.db, { email: `a-rather-long-client-address-${Date.now().toString(36)}@example.ru` });
  const { invoice } = await subscribe(e2e.t.app, client, catalog.pro);
  await api.change('POST', `/api/admin/users/${String(client.id)}/balance`, { wallet: 'media', amount: 2.5, reason: 'Компенсация за сбой', request_id: crypto.randomUUID() });
  await api.change('POST', `/api/admin/payments/${String(invoice.payment_id)}/refund`, { amount: 100, reason: 'Клиент попросил', request_id: crypto.randomUUID() });
  await eventually(
    () => api.get<{ refunds: { status: string }[] }>(`/api/admin/payments/${String(invoice.payment_id)}`),
    (p) => p.refunds.every((r) => r.status !== 'requested'),
  );
});

describe('the admin panel’s lists', () => {
  it.each([1280, 390])('at %i px every list fits or scrolls inside its frame with a hint; the page never scrolls sideways', async (width) => {
    const page = await e2e.signedInPage(admin);
    await page.setViewportSize({ width, height: 844 });
    for (const list of LISTS) {
      await openPage(page, e2e.url(list));
      await page.locator('.admin-table tbody tr:not(.admin-table__skeleton), .admin-table__wrap .empty-state').first().waitFor();
      await expect.poll(async () => (await tables(page)).every((t) => !t.wider || t.hinted), { message: `${list} at ${String(width)} px` }).toBe(true);
      // The plans fit a laptop's width without scrolling.
      if (width === 1280 && list === '/admin/tariff') expect((await tables(page)).map((t) => t.wider)).toEqual([false]);
      expect(Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')), list).toBeLessThanOrEqual(0);
      await shot(page, `lists-${String(width)}${list.replace(/\//g, '-')}`);
    }
  });

  it('the audit log says in Russian what was done: a refund’s amount and reason, which wallet a balance moved in', async () => {
    const page = await e2e.signedInPage(admin);
    await openPage(page, e2e.url('/admin/audit'));
    const log = page.locator('.admin-table tbody');
    await log.getByText('Возврат платежа').waitFor();
    const text = (await log.textContent())?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('Сумма возврата: 100 ₽');
    expect(text).toContain('Причина: Клиент попросил');
    expect(text).toContain('Кошелёк: медиа');
    expect(text).toContain('Сумма: +2,5 медиа');
    expect(text).not.toMatch(/payment\.refund|user\.balance|refunded|refundable|#\d/);
    await shot(page, 'audit-1280');
  });
});

describe('on a phone', () => {
  it('the tab bar and the header’s menu show they scroll and bring the current item into view', async () => {
    const page = await e2e.signedInPage(admin);
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, e2e.url('/admin/audit'));
    await expect.poll(() => inView(page, '.admin-tabs')).toBe(true);
    await expect.poll(() => page.locator('.admin-tabs').getAttribute('class')).toMatch(/is-more-left/);
    await expect.poll(() => inView(page, '.site-nav')).toBe(true);
    expect(await page.locator('.site-nav').getAttribute('data-more-left')).toBe('');
    await shot(page, 'phone-audit');

    await openPage(page, e2e.url('/admin/users'));
    // The bar measures its overflow after it mounts and on scroll: wait for it to say so.
    await expect.poll(() => page.locator('.admin-tabs').getAttribute('class')).toMatch(/is-more-right/);
  });

  it('analytics ends with its footer: the hidden tables of its charts take no room', async () => {
    const page = await e2e.signedInPage(admin);
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, e2e.url('/admin/analytics'));
    await page.getByRole('table', { name: 'Платежи' }).locator('tbody tr').first().waitFor({ state: 'attached' });
    expect(await page.getByRole('figure').count()).toBe(7);
    expect(await page.getByRole('table', { name: 'Платежи' }).locator('tbody tr').count()).toBe(30);
    const below = Number(await page.evaluate(`(() => {
      const footer = document.querySelector('.site-footer');
      return footer ? document.documentElement.scrollHeight - (footer.getBoundingClientRect().bottom + window.scrollY) : Infinity;
    })()`));
    expect(below).toBeLessThanOrEqual(1);
    await shot(page, 'phone-analytics');
  });
});

describe('CSV for accounting', () => {
  it('«Платежи» downloads the payments with their refunds, and «Аналитика» the ledger of the period shown', async () => {
    const page = await e2e.signedInPage(admin);
    await openPage(page, e2e.url('/admin/payments'));
    const form = page.getByRole('form', { name: 'Выгрузка в CSV' });
    await form.waitFor();
    await shot(page, 'export-payments-1280');
    const [payments] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Платежи и возвраты, CSV' }).click()]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date());
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    expect(payments.suggestedFilename()).toBe(`payments_${from}_${today}.csv`);
    const text = fs.readFileSync(await payments.path(), 'utf8');
    expect(text.startsWith('\uFEFFДата и время (МСК);Операция;')).toBe(true);
    expect(text).toMatch(/;Оплата;\d+;\d+;;\d+;a-rather-long-client-address-[^;]+;Про;Подписка;149,00;Оплачен;/);
    expect(text).toMatch(/;Возврат;\d+;\d+;;\d+;a-rather-long-client-address-[^;]+;Про;Подписка;-100,00;Проведён;\d*;Клиент попросил\r\n/);

    await openPage(page, e2e.url(`/admin/analytics?from=${from}&to=${today}`));
    const exports = page.getByRole('group', { name: 'Выгрузка периода в CSV' });
    const [ledger] = await Promise.all([page.waitForEvent('download'), exports.getByRole('button', { name: 'Движение токенов, CSV' }).click()]);
    expect(ledger.suggestedFilename()).toBe(`ledger_${from}_${today}.csv`);
    const lines = fs.readFileSync(await ledger.path(), 'utf8').split('\r\n');
    expect(lines[0]).toBe('\uFEFFДата и время (МСК);№ записи;Пользователь;ID пользователя;Кошелёк;Сумма;Причина;Примечание;Основание');
    expect(lines.some((l) => /;медиа;2,5;Корректировка администратором;Компенсация за сбой;Начислено сервисом \(администратор №\d+\)$/.test(l))).toBe(true);
    await shot(page, 'export-analytics-1280');

    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, e2e.url('/admin/payments'));
    await page.getByRole('form', { name: 'Выгрузка в CSV' }).waitFor();
    expect(Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'))).toBeLessThanOrEqual(0);
    await shot(page, 'export-payments-390');
  });
});
