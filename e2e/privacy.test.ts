import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newAdmin, newUser } from '@app/server/testing';
import { afterNavigation, openPage, setupE2E, shots } from './support/index.ts';

/* Personal data and notices: consent at registration, the notice settings, deleting the account, the policy staff edit. */

const e2e = setupE2E();

const consentBox = (page: import('playwright-core').Page) => page.getByRole('checkbox', { name: /согласен на обработку персональных данных/ });

describe('personal data and notices', () => {
  it('registers only with the consent box ticked; the box links the policy; the consent is stored', async () => {
    const page = await e2e.newPage();
    const email = `consent-${crypto.randomBytes(4).toString('hex')}@example.ru`;
    await openPage(page, e2e.url('/register'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Пароль', { exact: true }).fill('secret-password-1');
    await page.getByLabel('Повторите пароль').fill('secret-password-1');
    expect(await page.getByRole('link', { name: 'политикой обработки персональных данных' }).getAttribute('href')).toBe('/privacy');
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await page.getByText('Подтвердите согласие на обработку персональных данных').waitFor();
    expect(new URL(page.url()).pathname).toBe('/register');
    await shots(page, 'register-consent');

    await consentBox(page).check();
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await afterNavigation(page, '/dashboard');
    const row = await e2e.t.db.selectFrom('users').select(['consent_at', 'consent_version', 'consent_ip']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.consent_at).not.toBeNull();
    expect(row.consent_version).toBeGreaterThanOrEqual(1);
    expect(row.consent_ip).toBeTruthy();
  });

  it('turns an optional notice off in the settings; the charge notices cannot be turned off', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/dashboard'));
    await page.getByRole('link', { name: 'Настройки' }).click();
    await afterNavigation(page, '/settings');
    const renewal = page.getByRole('checkbox', { name: /За три дня до продления/ });
    await renewal.waitFor();
    expect(await renewal.isChecked()).toBe(true);
    expect(await renewal.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: /Когда подписка закончилась/ }).uncheck();
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Настройки сохранены').waitFor();
    await shots(page, 'settings');

    await openPage(page, e2e.url('/settings'));
    const ended = page.getByRole('checkbox', { name: /Когда подписка закончилась/ });
    await ended.waitFor();
    expect(await ended.isChecked()).toBe(false);
    const row = await e2e.t.db.selectFrom('users').select('notices_off').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.notices_off).toEqual(['plan_ended']);
  });

  it('deletes the account with its password; then signing in with it fails', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/settings'));
    const card = page.locator('.settings-card--danger');
    await card.getByLabel('Пароль').fill('not-my-password');
    await card.getByRole('checkbox', { name: /нельзя будет восстановить/ }).check();
    await card.getByRole('button', { name: 'Удалить аккаунт' }).click();
    await card.getByText('Неверный пароль').waitFor();
    await shots(page, 'settings-delete-wrong-password');

    await card.getByLabel('Пароль').fill(user.password);
    await card.getByRole('button', { name: 'Удалить аккаунт' }).click();
    await afterNavigation(page, '/login');
    await page.getByRole('status').filter({ hasText: 'Аккаунт удалён' }).waitFor();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Пароль', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByText('Неверный email или пароль').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    const row = await e2e.t.db.selectFrom('users').select(['email', 'deleted_at']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.email).toBe(`deleted-${String(user.id)}@deleted.invalid`);
  });

  it('staff edit the personal-data policy in the admin panel and its page shows the new version', async () => {
    const admin = await newAdmin(e2e.t.db);
    const page = await e2e.signedInPage(admin);
    await openPage(page, e2e.url('/admin/settings'));
    const docs = page.getByRole('region', { name: 'Документы' });
    const text = docs.getByLabel(/Текст/);
    await text.waitFor();
    const stamp = Date.now().toString(36);
    await text.fill(`Политика обработки персональных данных\n\nРедакция для проверки ${stamp}.`);
    await docs.getByRole('button', { name: 'Опубликовать новую редакцию' }).click();
    await docs.getByText(/Опубликована редакция \d+: страница уже показывает её/).waitFor();
    await shots(page, 'admin-documents');

    const reader = await e2e.newPage();
    await openPage(reader, e2e.url('/privacy'));
    await reader.getByText(`Редакция для проверки ${stamp}.`).waitFor();
    await reader.getByText(/Редакция \d+ от/).waitFor();
    await shots(reader, 'privacy-page');
  });
});
