import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { totpCode } from '@app/server/testing';
import { afterNavigation, openPage, setupE2E } from './support/index.ts';

/*
 * The first admin's first day: `npm run admin:create -- <email>` prints a temporary password; signing
 * in with it leads to «Смените временный пароль» before anything else (the panel's address kept);
 * then to the second factor's enrolment (the QR code and the secret; the test computes the app's
 * code from the secret) and its recovery codes; then the panel. From then on the new password and
 * the app's code (or a recovery code) sign in.
 */

const e2e = setupE2E();
const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const SHOTS_DIR = process.env.E2E_SCREENSHOTS_DIR;

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/** Runs the CLI the way staff do, against the app's database: its printed line. */
async function adminCreate(email: string): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-e2e-cli-'));
  try {
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: e2e.t.databaseUrl, DATA_DIR: dataDir, APP_SECRET: 'e2e-secret-e2e-secret-e2e-secret-012345', LOG_LEVEL: 'silent' };
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server/src/cli/admin-create.ts'), email], { env, cwd: REPO_ROOT });
    return stdout.trim().split('\n')[0] ?? '';
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Both widths of the page as it is now. */
async function shots(page: Page, name: string): Promise<void> {
  await shot(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await openPage(page, e2e.url('/login?next=%2Fadmin%2Fusers'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Войти' }).click();
}

describe('the first admin', () => {
  it('CLI → sign-in with the temporary password → the change comes first → the panel', async () => {
    const email = `first-admin-${Date.now().toString(36)}@example.ru`;
    const printed = await adminCreate(email);
    const password = /Временный пароль: (\S+)$/.exec(printed)?.[1] ?? '';
    expect(printed).toBe(`Создан администратор ${email}. Временный пароль: ${password}`);

    const page = await e2e.newPage();
    await signIn(page, email, password);
    // The panel is asked for; the change comes first, the panel's address kept for after.
    await afterNavigation(page, '/password/change');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/admin/users');
    const form = page.locator('.auth-card');
    await page.getByRole('heading', { name: 'Смените временный пароль' }).waitFor();
    await shot(page, 'first-admin-change');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'first-admin-change-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Until then the API refuses in Russian, and any page leads back here.
    const refused = await page.evaluate(`fetch('/api/admin/users', { headers: { Authorization: 'Bearer ' + localStorage.getItem('auth_token') } }).then((r) => r.json())`);
    expect(refused).toMatchObject({ status: 'error', code: 'PASSWORD_CHANGE_REQUIRED', text: 'Сначала смените временный пароль на свой' });
    await page.goto(e2e.url('/admin'));
    await afterNavigation(page, '/password/change');

    // The same password again is refused by the form itself.
    await form.getByLabel('Временный пароль').fill(password);
    await form.getByLabel('Новый пароль').fill(password);
    await form.getByLabel('Повторите пароль').fill(password);
    await form.getByRole('button', { name: 'Сохранить пароль' }).click();
    await form.getByText('Новый пароль должен отличаться от текущего').waitFor();

    await form.getByLabel('Новый пароль').fill('my-own-admin-password');
    await form.getByLabel('Повторите пароль').fill('my-own-admin-password');
    await form.getByRole('button', { name: 'Сохранить пароль' }).click();

    // Then the second factor, before the panel: its address kept again.
    await afterNavigation(page, '/admin/second-factor');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/admin');
    await page.getByRole('img', { name: 'QR-код для приложения-аутентификатора' }).waitFor();
    const secret = ((await page.getByLabel('Ключ для ввода вручную').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shots(page, 'second-factor-enrol');
    const stillRefused = await page.evaluate(`fetch('/api/admin/users', { headers: { Authorization: 'Bearer ' + localStorage.getItem('auth_token') } }).then((r) => r.json())`);
    expect(stillRefused).toMatchObject({ status: 'error', code: 'SECOND_FACTOR_SETUP_REQUIRED' });
    await page.getByLabel('Код из приложения').fill('000000');
    await page.getByRole('button', { name: 'Подключить' }).click();
    await page.getByText('Неверный код').waitFor();
    await page.getByLabel('Код из приложения').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Подключить' }).click();
    await page.getByRole('heading', { name: 'Сохраните резервные коды' }).waitFor();
    const recovery = await page.getByRole('list', { name: 'Резервные коды' }).locator('li').allTextContents();
    expect(recovery).toHaveLength(10);
    await shots(page, 'second-factor-recovery-codes');
    await page.getByRole('button', { name: 'Я сохранил коды, продолжить' }).click();
    await afterNavigation(page, '/admin');
    await page.getByRole('navigation', { name: 'Разделы админки' }).waitFor();
    await shot(page, 'first-admin-panel');

    // From now on the new password and the app's code sign in, straight to the panel.
    await page.goto(e2e.url('/logout'));
    await signIn(page, email, password);
    await page.getByText('Неверный email или пароль').waitFor();
    await page.getByLabel('Пароль', { exact: true }).fill('my-own-admin-password');
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByRole('heading', { name: 'Код из приложения' }).waitFor();
    expect(await page.evaluate('localStorage.getItem("auth_token")')).toBeNull();
    await shots(page, 'second-factor-sign-in-code');
    // The enrolment's code is taken: the next step's, which the window of one step allows already.
    await page.getByLabel('Код', { exact: true }).fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await afterNavigation(page, '/admin/users');
    await page.getByRole('searchbox', { name: 'Поиск по email' }).waitFor();

    // A lost phone: a recovery code instead, once.
    await page.goto(e2e.url('/logout'));
    await signIn(page, email, 'my-own-admin-password');
    await page.getByRole('button', { name: 'Нет телефона? Войти с резервным кодом' }).click();
    await page.getByLabel('Резервный код').fill(recovery[0] ?? '');
    await shots(page, 'second-factor-sign-in-recovery');
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await afterNavigation(page, '/admin/users');
    await page.getByRole('searchbox', { name: 'Поиск по email' }).waitFor();
  });
});
