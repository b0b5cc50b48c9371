import { launchBrowser } from '../../e2e/support/browser.ts';
import { instrument, type PageMeasure } from './react-copies.ts';
import { createDb } from '../../server/src/db/database.ts';
import { startServer } from './server.ts';

/** A page a person sees, as the bench opens it in Chromium. */
export const MEASURED_PAGES = ['/login', '/dashboard', '/dashboard/user/payment', '/dashboard/user/orders', '/chat', '/ai-products', '/ai-products/mask/{id}', '/ai-history', '/admin/users', '/dashboard (unconfirmed)'] as const;

/**
 * Opens /login as a guest, signs in through the form and lands on /dashboard, opens the plans,
 * the orders, the chat, the catalogue, a product's screen (the mask's, the biggest), the
 * history and (as an admin) the admin panel's users, then signs out, registers and lands on /dashboard with the email
 * confirmation overlay (the page that loads the most host chunks: forms and dialog).
 */
export async function measurePages(): Promise<PageMeasure[]> {
  const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  try {
    const context = await browser.newContext({ locale: 'ru-RU' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const probe = await instrument(page);
    const measures: PageMeasure[] = [];
    await page.goto(`${server.baseUrl}/login`);
    measures.push(await probe.measure('/login'));
    await page.getByLabel('Email').fill(server.user.email);
    await page.getByLabel('Пароль').fill(server.user.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    measures.push(await probe.measure('/dashboard'));
    for (const path of ['/dashboard/user/payment', '/dashboard/user/orders', '/chat', '/ai-products']) {
      await page.goto(`${server.baseUrl}${path}`);
      measures.push(await probe.measure(path));
    }
    const maskScreen = await page.locator('a[href^="/ai-products/mask/"]').first().getAttribute('href');
    if (!maskScreen) throw new Error('pages bench: the catalogue lists no mask product');
    await page.goto(`${server.baseUrl}${maskScreen}`);
    measures.push(await probe.measure('/ai-products/mask/{id}'));
    await page.goto(`${server.baseUrl}/ai-history`);
    measures.push(await probe.measure('/ai-history'));
    // The admin panel, as its admin opens it (the user is made one for this page only).
    const db = createDb(server.databaseUrl, 2);
    try {
      await db.updateTable('users').set({ role: 'admin' }).where('id', '=', server.user.id).execute();
      // The server knows the user from memory until the change's NOTIFY reaches it (at once, but not before this returns).
      for (let tries = 0; (await fetch(`${server.baseUrl}/api/admin/users`, { headers: { authorization: `Bearer ${server.user.token}` } })).status !== 200; tries++) {
        if (tries > 100) throw new Error('pages bench: the server did not see the user made an admin');
        await new Promise((r) => setTimeout(r, 50));
      }
      await page.goto(`${server.baseUrl}/admin/users`);
      await page.locator('.admin-table tbody tr:not(.admin-table__skeleton)').first().waitFor();
      measures.push(await probe.measure('/admin/users'));
      await db.updateTable('users').set({ role: 'user' }).where('id', '=', server.user.id).execute();
    } finally {
      await db.destroy();
    }
    await page.goto(`${server.baseUrl}/logout`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.goto(`${server.baseUrl}/register`);
    await page.getByLabel('Email').fill(`bench-${String(Date.now())}@example.ru`);
    await page.getByLabel('Пароль', { exact: true }).fill('bench-password-1');
    await page.getByLabel('Повторите пароль').fill('bench-password-1');
    await page.getByRole('checkbox', { name: /согласен на обработку персональных данных/ }).check();
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('dialog', { name: 'Подтвердите почту' }).waitFor();
    measures.push(await probe.measure('/dashboard (unconfirmed)'));
    return measures;
  } finally {
    await browser.close();
    await server.close();
  }
}
