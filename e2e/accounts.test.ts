import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@app/contracts';
import { newUser } from '@app/server/testing';
import { afterNavigation, openPage, setupE2E, widgetsReady } from './support/index.ts';

/** The seed's own texts (seed §4, §8). */
const SEED = { emailConfirmed: 'Почта подтверждена', resetRequested: 'Успех', passwordSaved: 'Пароль сохранен' };

const e2e = setupE2E();

const freshEmail = () => `anna-${crypto.randomBytes(4).toString('hex')}@example.ru`;

async function register(page: Page, email: string, password: string): Promise<void> {
  await openPage(page, e2e.url('/register'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  await page.getByLabel('Повторите пароль').fill(password);
  await page.getByRole('checkbox', { name: /согласен на обработку персональных данных/ }).check();
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await afterNavigation(page, '/dashboard');
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await afterNavigation(page, '/dashboard');
}

const overlay = (page: Page) => page.getByRole('dialog', { name: 'Подтвердите почту' });

describe('registration and email confirmation', () => {
  it('registers, confirms the mailed code in the overlay and stays on /dashboard without it', async () => {
    const page = await e2e.newPage();
    const email = freshEmail();
    await register(page, email, 'secret-password-1');
    await overlay(page).waitFor();

    const code = await e2e.t.smtp.confirmationCode(email);
    expect(code).toMatch(/^\d{6}$/);
    await overlay(page).getByLabel('Код из письма').fill(code);
    await overlay(page).getByRole('button', { name: 'Подтвердить' }).click();
    await page.getByText(SEED.emailConfirmed).waitFor();

    // The overlay reloads the page; the server no longer mounts it for a confirmed account.
    await page.locator('[data-widget="email-confirm"]').waitFor({ state: 'detached' });
    const widgets = await widgetsReady(page);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(widgets.failed).toEqual([]);
    expect(widgets.mounted).not.toContain('email-confirm');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('heading', { name: 'Главная' }).waitFor();
  });

  it('shows the error for a wrong code and keeps the overlay', async () => {
    const page = await e2e.newPage();
    const email = freshEmail();
    await register(page, email, 'secret-password-2');
    const code = await e2e.t.smtp.confirmationCode(email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    const field = overlay(page).getByLabel('Код из письма');
    await field.fill(wrong);
    await overlay(page).getByRole('button', { name: 'Подтвердить' }).click();
    await overlay(page).getByText(ERROR_CODES.CODE_INVALID.message).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText(SEED.emailConfirmed).count()).toBe(0);

    // Still unconfirmed after a reload.
    await page.reload();
    await widgetsReady(page);
    await overlay(page).waitFor();
  });
});

describe('password reset', () => {
  it('mails a link, saves the new password from it, and signs in with that password', async () => {
    const user = await newUser(e2e.t.db);
    const newPassword = 'new-secret-password';
    const page = await e2e.newPage();
    await openPage(page, e2e.url('/password/reset'));
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Отправить ссылку' }).click();
    await page.getByRole('heading', { name: SEED.resetRequested }).waitFor();

    const link = await e2e.t.smtp.resetLink(user.email);
    expect(link.startsWith(`${e2e.t.baseUrl}/password/reset/`)).toBe(true);
    await openPage(page, link);
    await page.getByLabel('Новый пароль').fill(newPassword);
    await page.getByLabel('Повторите пароль').fill(newPassword);
    await page.getByRole('button', { name: 'Сохранить пароль' }).click();
    await page.getByRole('heading', { name: SEED.passwordSaved }).waitFor();

    await openPage(page, e2e.url('/login'));
    await signIn(page, user.email, newPassword);
    await page.getByRole('heading', { name: 'Главная' }).waitFor();
  });
});

describe('guest', () => {
  it('opening /dashboard lands on /login, and signing in there leads back to /dashboard', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.newPage();
    await page.goto(e2e.url('/dashboard'));
    await afterNavigation(page, '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard');
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    await signIn(page, user.email, user.password);
  });
});

describe('an account many sign-ins failed for, from many addresses', () => {
  it('its owner is not locked out: the form says the sign-in is slowed down, the browser solves the check, and it signs in', async () => {
    const user = await newUser(e2e.t.db);
    // Twenty failures from other addresses in this window (and the next, should the test straddle them).
    const windowMs = 900_000;
    const start = Math.floor(Date.now() / windowMs) * windowMs;
    await e2e.t.db
      .insertInto('rate_limits')
      .values([start, start + windowMs].map((w) => ({ key: `login:email:${user.email}`, window_start: new Date(w), hits: 20 })))
      .execute();
    const page = await e2e.newPage();
    const bodies: string[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/api/new/login') && req.method() === 'POST') bodies.push(req.postData() ?? '');
    });
    await openPage(page, e2e.url('/login'));
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Пароль', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByText('вход замедлен: браузер решает проверочную задачу', { exact: false }).waitFor();
    await afterNavigation(page, '/dashboard');
    expect(bodies).toHaveLength(2);
    expect(JSON.parse(bodies[1] ?? '{}')).toMatchObject({ email: user.email, check: expect.any(String) as unknown });
  });
});
