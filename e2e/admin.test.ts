import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newAdmin, newUser, seedCatalog } from '@app/server/testing';
import { openPage, setupE2E } from './support/index.ts';

/*
 * The admin panel as staff meet it: the sixteen tabs with «Главная» first, deep links and back
 * and forward, a user found by email, their balance adjusted with a reason (the user's
 * dashboard shows it), blocking, the audit log; a user opening /admin is refused.
 */

const e2e = setupE2E();
const SHOTS_DIR = process.env.E2E_SCREENSHOTS_DIR;

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/** Text with the non-breaking spaces of Russian number formatting read as spaces. */
const text = (t: string | null) => (t ?? '').replace(/\s/g, ' ');
const tabs = (page: Page) => page.getByRole('navigation', { name: 'Разделы админки' });

describe('the admin panel', () => {
  it('a user opening /admin is refused; a guest is sent to sign in', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    const res = await page.goto(e2e.url('/admin/users/1'));
    expect(res?.status()).toBe(403);
    await page.getByRole('heading', { name: 'Нет доступа' }).waitFor();
    expect(await page.getByRole('link', { name: 'Админка' }).count()).toBe(0);
    const guest = await e2e.newPage();
    await guest.goto(e2e.url('/admin'));
    expect(new URL(guest.url()).pathname).toBe('/login');
  });

  it('tabs, deep links, back and forward; an admin adjusts a balance and the user’s dashboard shows it; blocking; the audit log', async () => {
    const admin = await newAdmin(e2e.t.db);
    const user = await newUser(e2e.t.db, { email: `client-${String(Date.now())}@example.ru` });
    const page = await e2e.signedInPage(admin);
    await openPage(page, e2e.url('/admin'));
    expect(await tabs(page).getByRole('link').count()).toBe(16);
    expect(await tabs(page).getByRole('link', { name: 'Главная' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('link', { name: 'Админка' }).getAttribute('aria-current')).toBe('page');
    await shot(page, 'admin-home');

    await tabs(page).getByRole('link', { name: 'Пользователи' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/users');
    await page.getByRole('searchbox', { name: 'Поиск по email' }).fill(user.email);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(user.email);
    const row = page.getByRole('link', { name: user.email });
    await row.waitFor();
    await expect.poll(() => page.locator('.admin-table tbody tr').count()).toBe(1);
    await shot(page, 'admin-users');
    await row.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/admin/users/${String(user.id)}`);
    await page.getByRole('heading', { name: user.email }).waitFor();

    // The balance: a reason is required; then +1500 words.
    const form = page.getByRole('form', { name: 'Корректировка баланса' });
    await form.getByLabel('Сумма (минус — списать)').fill('1500');
    await form.getByRole('button', { name: 'Применить' }).click();
    await form.getByText('Опишите причину (от 3 символов)').waitFor();
    await form.getByLabel('Причина').fill('Компенсация за сбой');
    await form.getByRole('button', { name: 'Применить' }).click();
    await form.getByText('Начислено: 1 500 сл.').waitFor();
    await expect.poll(async () => text(await page.getByRole('region', { name: 'Балансы' }).locator('dd').first().textContent())).toBe('1 500');
    await page.getByRole('region', { name: 'Движение токенов' }).getByText('Корректировка администратором: Компенсация за сбой').waitFor();
    await shot(page, 'admin-user');

    // Back returns to the list with its search; forward to the user.
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(user.email);
    expect(await page.getByRole('searchbox', { name: 'Поиск по email' }).inputValue()).toBe(user.email);
    await page.goForward();
    await page.getByRole('heading', { name: user.email }).waitFor();

    // The user's dashboard shows the new balance.
    const userPage = await e2e.signedInPage(user);
    await openPage(userPage, e2e.url('/dashboard'));
    await expect.poll(async () => text(await userPage.locator('.balances__value').first().textContent())).toBe('1 500');

    // Blocking asks first, then the badge shows and the user's session is refused.
    await page.getByRole('button', { name: 'Заблокировать' }).click();
    await page.getByRole('group', { name: 'Подтверждение' }).getByRole('button', { name: 'Да' }).click();
    await page.locator('.admin-screen__head').getByText('Заблокирован').waitFor();
    await userPage.reload();
    await expect.poll(() => new URL(userPage.url()).pathname).toBe('/login');

    // The audit log has both changes, by this admin.
    await tabs(page).getByRole('link', { name: 'Журнал действий' }).click();
    await page.getByRole('searchbox').fill(`user:${String(user.id)}`);
    await expect.poll(() => page.locator('.admin-table tbody tr').count()).toBe(2);
    const rows = await page.locator('.admin-table tbody tr').allTextContents();
    expect(rows[0]).toContain('Изменение пользователя');
    expect(rows[0]).toContain(admin.email);
    expect(rows[1]).toContain('Корректировка баланса');
    await shot(page, 'admin-audit');

    // A deep link opens that user directly, and an unknown one says so.
    await openPage(page, e2e.url(`/admin/users/${String(user.id)}`));
    await page.getByRole('heading', { name: user.email }).waitFor();
    expect(await tabs(page).getByRole('link', { name: 'Пользователи' }).getAttribute('aria-current')).toBe('page');
    await openPage(page, e2e.url('/admin/users/99999999'));
    await page.getByText('Пользователь не найден').waitFor();
    await openPage(page, e2e.url('/dashboard/admin_vue'));
    expect(await tabs(page).getByRole('link', { name: 'Главная' }).getAttribute('aria-current')).toBe('page');
  });

  it('works on a phone: the tab bar scrolls, the page does not', async () => {
    const admin = await newAdmin(e2e.t.db);
    const page = await e2e.signedInPage(admin);
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, e2e.url(`/admin/users/${String(admin.id)}`));
    await page.getByRole('heading', { name: admin.email }).waitFor();
    expect(Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'))).toBeLessThanOrEqual(0);
    await shot(page, 'admin-user-phone');
  });

  it('an admin edits a tariff, and the plans page shows the change', async () => {
    // The seed's plans; «Бизнес» (monthly, no trial) is read by no other test of this file.
    const { monthly } = await seedCatalog(e2e.t.db);
    const admin = await newAdmin(e2e.t.db);
    const page = await e2e.signedInPage(admin);
    await openPage(page, e2e.url('/admin/tariff'));
    await page.getByRole('link', { name: monthly.name, exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/admin/tariff/${String(monthly.id)}`);

    const form = page.getByRole('form', { name: `Тариф «${monthly.name}»` });
    await form.getByLabel(/^Название/).fill('Бизнес Плюс');
    await form.getByLabel(/^Цена, ₽/).fill('2990');
    await form.getByLabel(/^Строки описания/).fill(['[[words]] 1 000 000 слов в месяц', '[[media]] 500 медиа токенов в месяц', 'Все модели и приоритетная очередь'].join('\n'));
    // The card beside the form follows the typing: the new name, price and the marker drawn as the icon.
    const preview = page.getByRole('region', { name: 'Предпросмотр карточки' }).getByRole('article', { name: 'Бизнес Плюс', exact: true });
    await preview.getByText('500,0 медиа токена в месяц').waitFor();
    expect(text(await preview.textContent())).toContain('2 990 ₽ в месяц');
    expect(await preview.getByRole('img', { name: 'медиа токены' }).count()).toBe(1);
    await shot(page, 'admin-tariff');
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Сохранено. Страница тарифов уже показывает изменения.').waitFor();
    await page.getByRole('heading', { name: 'Тариф «Бизнес Плюс»' }).waitFor();

    await openPage(page, e2e.url('/dashboard/user/payment'));
    const plan = page.getByRole('article', { name: 'Бизнес Плюс', exact: true });
    await plan.getByText('500,0 медиа токена в месяц').waitFor();
    expect(text(await plan.textContent())).toContain('2 990 ₽ в месяц');
    expect(await plan.getByRole('img', { name: 'медиа токены' }).count()).toBe(1);
    expect(await page.getByRole('article', { name: monthly.name, exact: true }).count()).toBe(0);
  });
});
