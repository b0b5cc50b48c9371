import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { afterNavigation, openPage, setupE2E } from './support/index.ts';

/*
 * The first admin's first day: `npm run admin:create -- <email>` prints a temporary password; signing
 * in with it leads to «Смените временный пароль» before anything else (the panel's address kept);
 * the new password opens the panel, and from then on it is the one that signs in.
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
    return stdout.trim();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
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
    await afterNavigation(page, '/admin');
    await page.getByRole('navigation', { name: 'Разделы админки' }).waitFor();
    await shot(page, 'first-admin-panel');

    // From now on the new password signs in, straight to the panel.
    await page.goto(e2e.url('/logout'));
    await signIn(page, email, password);
    await page.getByText('Неверный email или пароль').waitFor();
    await page.getByLabel('Пароль', { exact: true }).fill('my-own-admin-password');
    await page.getByRole('button', { name: 'Войти' }).click();
    await afterNavigation(page, '/admin/users');
    await page.getByRole('searchbox', { name: 'Поиск по email' }).waitFor();
  });
});
