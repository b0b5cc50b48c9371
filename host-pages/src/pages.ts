import type { FastifyRequest } from 'fastify';
import { PRODUCT_VARIANTS } from '@app/contracts';
import { html, type RawHtml } from './html.ts';
import { mountPoint, widget, type PageContext, type WidgetMount } from './layout.ts';

export type PageAccess = 'guest' | 'user' | 'admin' | 'any';

/** Where a signed-in account changes its password; a temporary one is changed here before any other page opens. */
export const PASSWORD_CHANGE_PATH = '/password/change';

export interface PageResult {
  title: string;
  widgets: WidgetMount[];
  /** Page body around the mount points; by default the mount points one after another. */
  body?: (slots: RawHtml[]) => RawHtml;
  banner?: RawHtml | false;
  /** The page is one screen that fills the viewport under the header (the chat): no width limit, no padding, no footer. */
  fill?: boolean;
  /** A wider page than the others (the admin panel's tables). */
  wide?: boolean;
}

export interface PageDefinition {
  path: string;
  access: PageAccess;
  layout: 'auth' | 'app' | 'embed';
  /** The header's item marked current, when it is not `path` itself (a product's screen marks «Генерации»). */
  nav?: string;
  render: (ctx: PageContext, req: FastifyRequest) => PageResult;
}

/** Query parameters as single strings: a repeated parameter (`?a=1&a=2`) counts as absent. */
const query = (req: FastifyRequest): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(req.query as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

/**
 * A same-site path to return to after sign-in; anything else falls back to the dashboard.
 * Browsers drop tabs and newlines from URLs and read `\\` as `/`, so `/\t/evil` would become
 * `//evil`: whitespace and backslashes are refused anywhere.
 */
export function safeNext(value: string | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || /[\\\s]/.test(value) || value.length > 500) return '/dashboard';
  return value;
}

export const PAGES: PageDefinition[] = [
  {
    path: '/login',
    access: 'guest',
    layout: 'auth',
    render: (_ctx, req) => ({ title: 'Вход', widgets: [widget('auth', { mode: 'login', redirectTo: safeNext(query(req).next) })] }),
  },
  {
    path: '/register',
    access: 'guest',
    layout: 'auth',
    render: () => ({ title: 'Регистрация', widgets: [widget('auth', { mode: 'register', redirectTo: '/dashboard' })] }),
  },
  {
    // A temporary password (admin:create) is changed here before any other page opens.
    path: PASSWORD_CHANGE_PATH,
    access: 'user',
    layout: 'auth',
    render: (ctx, req) => ({
      title: 'Смена пароля',
      widgets: [widget('password-reset-form', { mode: 'change', email: ctx.viewer?.email ?? '', temporary: ctx.viewer?.mustChangePassword === true, next: safeNext(query(req).next) })],
    }),
  },
  {
    path: '/password/reset',
    access: 'any',
    layout: 'auth',
    render: (_ctx, req) => ({ title: 'Восстановление пароля', widgets: [widget('password-reset-request', { email: (query(req).email ?? '').slice(0, 254) })] }),
  },
  {
    path: '/password/reset/:token',
    access: 'any',
    layout: 'auth',
    render: (_ctx, req) => ({
      title: 'Новый пароль',
      widgets: [widget('password-reset-form', { token: (req.params as { token: string }).token.slice(0, 200), email: (query(req).email ?? '').slice(0, 254) })],
    }),
  },
  {
    path: '/dashboard',
    access: 'user',
    layout: 'app',
    render: (_ctx, req) => ({
      title: 'Главная',
      widgets: [
        widget('welcome-notice', {}, { quiet: true }),
        widget('dashboard', {}),
        widget('history-button', {}),
        widget('conversion', { payments: query(req).payments === '1' ? 1 : 0 }, { quiet: true }),
      ],
      body: ([welcome, dashboard, historyButton, conversion]) =>
        html`<div class="page-head"><h1>Главная</h1>${historyButton}</div>${welcome}${dashboard}${conversion}`,
    }),
  },
  {
    path: '/dashboard/user/payment',
    access: 'user',
    layout: 'app',
    render: (ctx) => ({
      title: 'Тарифы',
      // No sandbox banner here: the widget's own note says the same and lists the test cards (or that paying is unavailable now).
      widgets: [widget('tariffs', { frontend: false, paymentScriptUrl: ctx.payments.scriptUrl, sandbox: ctx.payments.sandbox, paymentsOff: ctx.payments.unavailable })],
      body: ([tariffs]) => html`<div class="page-head"><h1>Тарифы</h1></div>${tariffs}`,
    }),
  },
  {
    path: '/dashboard/user/orders',
    access: 'user',
    layout: 'app',
    render: () => ({
      title: 'История заказов',
      widgets: [widget('order-history', {})],
      body: ([orders]) => html`<div class="page-head"><h1>История заказов</h1></div>${orders}`,
    }),
  },
  {
    // Reached from the dashboard's balance («История баланса»): every change of the balances, in words.
    path: '/dashboard/balance',
    access: 'user',
    layout: 'app',
    nav: '/dashboard',
    render: () => ({
      title: 'История баланса',
      widgets: [widget('balance-history', {})],
      body: ([history]) => html`<div class="page-head"><h1>История баланса</h1></div>${history}`,
    }),
  },
  {
    path: '/chat',
    access: 'user',
    layout: 'app',
    render: () => ({
      title: 'Чат',
      widgets: [widget('chat', { plansUrl: '/dashboard/user/payment', packagesUrl: '/dashboard/user/payment#packages' })],
      fill: true,
    }),
  },
  ...aiProductPages(),
  ...aiHistoryPages(),
  ...adminPages(),
];

/**
 * The admin panel: one widget with its own client routes (`widgets/admin/src/routes.ts`), so the
 * server renders /admin, every /admin/... path and /dashboard/admin_vue (the seed's route of its
 * first tab) with the same widget; a deep link or a reload of any screen works.
 */
function adminPages(): PageDefinition[] {
  return ['/admin', '/admin/*', '/dashboard/admin_vue'].map((path) => ({
    path,
    access: 'admin',
    layout: 'app',
    nav: '/admin',
    render: () => ({ title: 'Админка', widgets: [widget('admin', {})], wide: true }),
  }));
}

/**
 * The generation catalogue (one widget with its own client routes): the list at /ai-products
 * (`?type=video` for video products) and a screen per variant at /ai-products/{variant}/{id}.
 * The server renders each of those paths, so a link or a reload of any screen works.
 */
function aiProductPages(): PageDefinition[] {
  const page = (path: string): PageDefinition => ({
    path,
    access: 'user',
    layout: 'app',
    nav: '/ai-products',
    render: () => ({
      title: 'Генерации',
      widgets: [widget('ai-products', { plansUrl: '/dashboard/user/payment', packagesUrl: '/dashboard/user/payment#packages', historyUrl: '/ai-history', videoHistoryUrl: '/ai-history-video' })],
    }),
  });
  return [page('/ai-products'), ...PRODUCT_VARIANTS.map((variant) => page(`/ai-products/${variant}/:id`))];
}

/** The history of runs: images at /ai-history (text runs under its «Тексты» tab), video at /ai-history-video. */
function aiHistoryPages(): PageDefinition[] {
  return (['/ai-history', '/ai-history-video'] as const).map((path) => ({
    path,
    access: 'user',
    layout: 'app',
    nav: '/ai-history',
    render: () => ({
      title: 'История генераций',
      widgets: [widget('ai-history', { type: path === '/ai-history' ? 'image' : 'video', productsUrl: '/ai-products' })],
    }),
  }));
}

export const defaultBody = (slots: RawHtml[]) => html`${slots}`;
export { mountPoint };
