import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { newAdmin, newUser, seedCatalog } from '@app/server/testing';
import { seedAiCatalog } from '../server/src/db/seed.ts';
import { credit } from '../server/src/features/wallet/wallet.queries.ts';
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

    // A page the user keeps open while being blocked.
    const ordersPage = await e2e.signedInPage(user);
    await openPage(ordersPage, e2e.url('/dashboard/user/orders'));
    await ordersPage.getByRole('tab', { name: 'Подписки' }).waitFor();

    // Blocking asks first, then the badge shows; the user's pages say the account is blocked.
    await page.getByRole('button', { name: 'Заблокировать' }).click();
    await page.getByRole('group', { name: 'Подтверждение' }).getByRole('button', { name: 'Да' }).click();
    await page.locator('.admin-screen__head').getByText('Заблокирован').waitFor();
    const blocked = await userPage.reload();
    expect(blocked?.status()).toBe(403);
    expect(new URL(userPage.url()).pathname).toBe('/dashboard');
    await userPage.getByRole('heading', { name: 'Аккаунт заблокирован' }).waitFor();
    expect(text(await userPage.locator('.error-page').textContent())).toContain(`Аккаунт ${user.email} заблокирован администратором`);
    expect(await userPage.getByRole('link', { name: 'Выйти' }).getAttribute('href')).toBe('/logout');
    await shot(userPage, 'blocked-page');
    await userPage.setViewportSize({ width: 390, height: 844 });
    await shot(userPage, 'blocked-page-phone');
    // A widget of the page left open asks the API: the page says why nothing works.
    await ordersPage.getByRole('tab', { name: 'Авто списания' }).click();
    const notice = ordersPage.getByRole('alertdialog', { name: 'Аккаунт заблокирован' });
    await notice.waitFor();
    expect(await notice.getByRole('link', { name: 'Написать в поддержку' }).getAttribute('href')).toBe(await ordersPage.locator('.site-footer').getByRole('link', { name: 'Поддержка' }).getAttribute('href'));
    await shot(ordersPage, 'blocked-notice');
    await ordersPage.setViewportSize({ width: 390, height: 844 });
    await shot(ordersPage, 'blocked-notice-phone');
    await notice.getByRole('link', { name: 'Выйти' }).click();
    await expect.poll(() => new URL(ordersPage.url()).pathname).toBe('/login');

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

  it('analytics for the last 7 days draws its charts; a new support link saved in Настройки is on the pages at once', async () => {
    const admin = await newAdmin(e2e.t.db);
    const api = (method: 'GET' | 'PUT', payload?: object) => e2e.t.app.inject({ method, url: '/api/admin/settings', headers: { authorization: `Bearer ${admin.token}` }, ...(payload ? { payload } : {}) });
    const before = (await api('GET')).json<{ json: Record<string, unknown> }>().json;
    // Other tests of this file see the settings as they were.
    onTestFinished(async () => {
      const keys = ['welcome_words', 'welcome_media', 'referral_words', 'telegram_channel', 'support_url', 'sandbox_payments', 'sandbox_telegram'];
      expect((await api('PUT', Object.fromEntries(keys.map((k) => [k, before[k]])))).statusCode).toBe(200);
    });
    const page = await e2e.signedInPage(admin);
    await openPage(page, e2e.url('/admin/analytics'));
    await page.getByRole('button', { name: '7 дней' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await expect.poll(() => page.getByRole('button', { name: '7 дней' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('region', { name: 'Итоги за период' }).getByText('7 дней', { exact: false }).waitFor();
    expect(await page.getByRole('figure').count()).toBe(7);
    expect(await page.getByRole('table', { name: 'Платежи' }).locator('tbody tr').count()).toBe(7);
    await shot(page, 'admin-analytics');

    await tabs(page).getByRole('link', { name: 'Настройки' }).click();
    const form = page.getByRole('form', { name: 'Настройки' });
    const link = `https://t.me/support_${String(Date.now())}`;
    await form.getByLabel(/Ссылка поддержки/).fill(link);
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await form.getByText('Настройки сохранены и уже действуют').waitFor();
    await page.getByRole('region', { name: 'Действующие значения' }).getByText(link).waitFor();
    await shot(page, 'admin-settings');

    await openPage(page, e2e.url('/dashboard'));
    expect(await page.locator('.site-footer').getByRole('link', { name: 'Поддержка' }).getAttribute('href')).toBe(link);
  });

  it('an admin creates a model and a product, and a user generates with it', async () => {
    // The seed's AI catalogue: the offline demo connection (and a switched-off OpenAI one).
    await seedAiCatalog(e2e.t.db);
    const stamp = Date.now().toString(36);
    const admin = await newAdmin(e2e.t.db);
    const page = await e2e.signedInPage(admin);

    // The demo connection answers a test call.
    await openPage(page, e2e.url('/admin/providers'));
    await page.getByRole('link', { name: 'Демо', exact: true }).click();
    await page.getByRole('form', { name: 'Проверка связи' }).getByRole('button', { name: 'Проверить' }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Результат проверки' }).textContent()).toMatch(/^Связь есть · \d+ мс · модель demo/);
    // The model's answer drawn as the chat draws it (Markdown): its paragraphs as paragraphs; the demo's
    // closing note in italics, cut off by the test's 64-token limit, is closed, not shown with its raw «_».
    const outcome = page.getByRole('status', { name: 'Результат проверки' });
    await expect.poll(() => outcome.locator('.md p').count()).toBeGreaterThan(1);
    await outcome.locator('.md em').first().waitFor();
    expect(await outcome.locator('.md').textContent()).not.toMatch(/_Это/);
    await shot(page, 'admin-provider');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'admin-provider-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Staff cap the history the demo chat model gets with each message; users' chats read it at once.
    await tabs(page).getByRole('link', { name: 'Аи модели' }).click();
    await page.getByRole('link', { name: 'Демо-ассистент', exact: true }).click();
    const chatModel = page.getByRole('form', { name: 'Модель' });
    const cap = chatModel.getByLabel('Сколько последних сообщений чата отправлять');
    expect(await cap.inputValue()).toBe('');
    await cap.fill('8');
    await chatModel.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Сохранено').waitFor();
    expect((await e2e.t.db.selectFrom('ai_models').select('history_messages').where('name', '=', 'Демо-ассистент').executeTakeFirstOrThrow()).history_messages).toBe(8);
    await shot(page, 'admin-model-history-cap');
    await cap.fill('');
    await chatModel.getByRole('button', { name: 'Сохранить' }).click();
    await expect.poll(async () => (await e2e.t.db.selectFrom('ai_models').select('history_messages').where('name', '=', 'Демо-ассистент').executeTakeFirstOrThrow()).history_messages).toBeNull();

    // A category, then an image model on the demo connection with one parameter choice.
    await tabs(page).getByRole('link', { name: 'Аи категории продуктов' }).click();
    await page.getByRole('link', { name: 'Создать категорию' }).click();
    const category = page.getByRole('form', { name: 'Новая категория' });
    await category.getByLabel('Название').fill(`Открытки ${stamp}`);
    await category.getByRole('button', { name: 'Создать' }).click();
    await page.getByText(`Категория «Открытки ${stamp}» создана`).waitFor();

    await tabs(page).getByRole('link', { name: 'Аи модели' }).click();
    await page.getByRole('link', { name: 'Создать модель' }).click();
    const model = page.getByRole('form', { name: 'Новая модель' });
    await model.getByLabel('Название').fill(`Художник ${stamp}`);
    // A new model starts as a chat on the demo connection (the switched-off OpenAI one is not offered first).
    expect(await model.getByLabel(/^Тип/).inputValue()).toBe('chat');
    expect(await model.getByLabel('Подключение').inputValue()).toBe(await model.getByLabel('Подключение').locator('option', { hasText: 'Демо' }).getAttribute('value'));
    await model.getByLabel(/^Тип/).selectOption('image');
    await model.getByLabel('Подключение').selectOption({ label: 'Демо (Демо (офлайн))' });
    await model.getByLabel('Модель у провайдера').fill('demo-image');
    await model.getByLabel('Медиа токенов за изображение или ролик').fill('1,5');
    const params = page.getByRole('region', { name: 'Варианты параметров' });
    await params.getByRole('button', { name: 'Добавить вариант' }).click();
    await params.getByLabel('Значение', { exact: true }).fill('small');
    await params.getByLabel('Подпись', { exact: true }).fill('Маленькая 512×512');
    await params.getByLabel(/Параметры провайдера/).fill('size=512x512');
    await params.getByText('Цена запуска: 1,5 медиа').waitFor();
    await shot(page, 'admin-model-new');
    await model.getByRole('button', { name: 'Создать' }).click();
    await page.getByText(`Модель «Художник ${stamp}» создана`).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/admin\/ai-models\/\d+$/);

    // A text-to-image product on it.
    await tabs(page).getByRole('link', { name: 'Аи продукты' }).click();
    await page.getByRole('link', { name: 'Создать продукт' }).click();
    const product = page.getByRole('form', { name: 'Новый продукт' });
    await product.getByLabel('Название').fill(`Открытка ${stamp}`);
    await product.getByLabel('Категория').selectOption({ label: `Открытки ${stamp}` });
    await product.getByLabel(/^Модель( \*)?$/).selectOption({ label: `Художник ${stamp} · Демо` });
    await product.getByLabel('Описание').fill('Опишите открытку — модель её нарисует.');
    await page.getByRole('region', { name: 'Параметры и цены' }).getByText('Маленькая 512×512').waitFor();
    await product.getByRole('button', { name: 'Создать' }).click();
    await page.getByText(`Продукт «Открытка ${stamp}» создан. Теперь можно загрузить пример`).waitFor();
    await shot(page, 'admin-product');

    // A user with media tokens finds it in the catalogue and runs it.
    const user = await newUser(e2e.t.db);
    await e2e.t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `e2e-admin-ai-${String(user.id)}` }, 30));
    const userPage = await e2e.signedInPage(user);
    await openPage(userPage, e2e.url('/ai-products'));
    await userPage.getByRole('link', { name: new RegExp(`Открытка ${stamp}`) }).click();
    await userPage.getByRole('heading', { name: `Открытка ${stamp}`, level: 1 }).waitFor();
    await expect.poll(() => userPage.locator('.gen-price__amount').textContent()).toBe('1,5 медиа токена');
    await userPage.getByRole('textbox', { name: 'Описание' }).fill('Открытка с котом и шарами');
    await userPage.getByRole('button', { name: /^Создать/ }).click();
    await expect.poll(() => userPage.locator('.gen-run .gen-run__status').textContent(), { timeout: 30_000 }).toBe('Готово');
    const result = userPage.locator('.gen-run').getByRole('img', { name: /^Результат 1/ });
    await expect.poll(() => result.evaluate((img) => Number(Reflect.get(img, 'naturalWidth')))).toBe(512);
  });

  it('«История генераций» shows why a run failed — what its user read and what really happened — and nothing charged; «Чат» draws the model’s Markdown', async () => {
    const stamp = Date.now().toString(36);
    // A user's run on a connection whose key is not set: it fails at once.
    const broken = await e2e.t.db.insertInto('provider_connections').values({ name: `Без ключа ${stamp}`, protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'MISSING_API_KEY' }).returning('id').executeTakeFirstOrThrow();
    const model = await e2e.t.db.insertInto('ai_models').values({ name: `Недоступная ${stamp}`, kind: 'image', connection_id: broken.id, provider_model: 'x', media_price_tenths: 10 }).returning('id').executeTakeFirstOrThrow();
    const category = await e2e.t.db.insertInto('ai_categories').values({ name: `Проверка ${stamp}` }).returning('id').executeTakeFirstOrThrow();
    const product = await e2e.t.db.insertInto('ai_products').values({ category_id: category.id, variant: 'img', name: `Недоступный художник ${stamp}`, model_id: model.id }).returning('id').executeTakeFirstOrThrow();
    const user = await newUser(e2e.t.db);
    await e2e.t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `e2e-admin-failed-${String(user.id)}` }, 20));
    const form = new FormData();
    form.set('product_id', String(product.id));
    form.set('prompt', 'Ночной город в неоне');
    expect((await fetch(e2e.url('/api/new/generations'), { method: 'POST', headers: { Authorization: `Bearer ${user.token}` }, body: form })).status).toBe(200);
    await expect.poll(async () => (await e2e.t.db.selectFrom('generations').select('status').where('user_id', '=', user.id).executeTakeFirstOrThrow()).status, { timeout: 30_000 }).toBe('failed');
    // A chat whose answer is Markdown.
    const chat = await e2e.t.db.insertInto('chats').values({ user_id: user.id, title: `План статьи ${stamp}` }).returning('id').executeTakeFirstOrThrow();
    await e2e.t.db.insertInto('chat_messages').values({ chat_id: chat.id, user_id: user.id, role: 'user', text: 'Составь план статьи о кофе.\nТри раздела, коротко.', status: 'done' }).execute();
    // An answer the user asked again: out of the conversation, still charged.
    await e2e.t.db.insertInto('chat_messages').values({ chat_id: chat.id, user_id: user.id, role: 'assistant', text: 'Кофе, сорта, заваривание.', status: 'done', words: 40, model_name: 'Демо-ассистент', off_path: true }).execute();
    await e2e.t.db
      .insertInto('chat_messages')
      .values({ chat_id: chat.id, user_id: user.id, role: 'assistant', text: '**План статьи** — три раздела, _коротко_:\n\n1. История кофе\n2. Сорта и обжарка\n3. Как заваривать дома', status: 'done', words: 120, model_name: 'Демо-ассистент' })
      .execute();

    const page = await e2e.signedInPage(await newAdmin(e2e.t.db));
    await openPage(page, e2e.url(`/admin/history?status=failed&q=${encodeURIComponent(`Недоступный художник ${stamp}`)}`));
    const row = page.getByRole('row').filter({ hasText: 'Ночной город в неоне' });
    await row.waitFor();
    expect(text(await row.textContent())).toContain('Модель сейчас недоступна: сервис генерации не подключён. Выберите другой продукт или попробуйте позже');
    expect(text(await row.textContent())).toContain(`Причина: connection Без ключа ${stamp}: its key variable MISSING_API_KEY is not set`);
    expect(await row.getByText('не списано').count()).toBe(1);
    await shot(page, 'admin-history-failed');
    await page.setViewportSize({ width: 390, height: 844 });
    // The table scrolls sideways on a phone: to the run's status and cost.
    await row.getByText('не списано').scrollIntoViewIfNeeded();
    await shot(page, 'admin-history-failed-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    await openPage(page, e2e.url(`/admin/chat_model?chat=${String(chat.id)}`));
    const dialog = page.getByRole('dialog', { name: `План статьи ${stamp}` });
    await dialog.locator('strong', { hasText: 'План статьи' }).waitFor();
    expect(await dialog.locator('em').first().textContent()).toBe('коротко');
    expect(await dialog.locator('.admin-chat__answer ol > li').allTextContents()).toEqual(['История кофе', 'Сорта и обжарка', 'Как заваривать дома']);
    expect(await dialog.textContent()).not.toContain('**');
    const replaced = dialog.locator('.admin-chat__message--replaced');
    expect(await replaced.count()).toBe(1);
    expect(text(await replaced.textContent())).toContain('Заменено');
    expect(text(await replaced.textContent())).toContain('Кофе, сорта, заваривание.');
    await shot(page, 'admin-chat-markdown');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'admin-chat-markdown-phone');
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
    // A plan without a trial has no trial fields.
    await form.getByLabel(/^Название/).waitFor();
    expect(await form.getByLabel(/пробного периода/).count()).toBe(0);
    await form.getByLabel(/^Название/).fill('Бизнес Плюс');
    await form.getByLabel(/^Цена, ₽/).fill('2990');
    await form.getByLabel(/^Строки описания/).fill(['[[words]] 1 000 000 слов в месяц', '[[media]] 500 медиа токенов в месяц', 'Все модели и приоритетная очередь'].join('\n'));
    // The card beside the form follows the typing: the new name, price and the marker drawn as the icon, the line as typed.
    const preview = page.getByRole('region', { name: 'Предпросмотр карточки' }).getByRole('article', { name: 'Бизнес Плюс', exact: true });
    await preview.getByText('500 медиа токенов в месяц').waitFor();
    expect(text(await preview.textContent())).toContain('2 990 ₽ в месяц');
    expect(await preview.getByRole('img', { name: 'медиа токены' }).count()).toBe(1);
    await shot(page, 'admin-tariff');
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Сохранено. Страница тарифов уже показывает изменения.').waitFor();
    await page.getByRole('heading', { name: 'Тариф «Бизнес Плюс»' }).waitFor();

    await openPage(page, e2e.url('/dashboard/user/payment'));
    const plan = page.getByRole('article', { name: 'Бизнес Плюс', exact: true });
    await plan.getByText('500 медиа токенов в месяц').waitFor();
    expect(text(await plan.textContent())).toContain('2 990 ₽ в месяц');
    expect(await plan.getByRole('img', { name: 'медиа токены' }).count()).toBe(1);
    expect(await page.getByRole('article', { name: monthly.name, exact: true }).count()).toBe(0);
  });
});
