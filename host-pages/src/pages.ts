import type { FastifyRequest } from 'fastify';
import { PRODUCT_VARIANTS, SUBSCRIPTION_TYPES, type Tariff, type User, type UserSubscriptionStatus, type WelcomeState, accountRoutes, balanceRoutes, billingRoutes, catalogRoutes, chatRoutes, dashboardRoutes, generationRoutes, promoRoutes, type SetupStep } from '@app/contracts';
import { PRIVACY_TEXTS } from '@app/contracts/privacy';
import { html, type RawHtml } from './html.ts';
import { mountPoint, widget, type PageContext, type PageData, type PageRead, type WidgetMount } from './layout.ts';
import { type PageFacts, type SkeletonPlan, authSkeleton, balanceHistorySkeleton, chatSkeleton, catalogSkeleton, dashboardSkeleton, historyButtonSkeleton, historySkeleton, ordersSkeleton, resetRequestSkeleton, tariffsSkeleton, welcomeSkeleton } from './skeletons.ts';

export type PageAccess = 'guest' | 'user' | 'admin' | 'any';

/** Where a signed-in account changes its password; a temporary one is changed here before any other page opens. */
export const PASSWORD_CHANGE_PATH = '/password/change';

/** Where staff enrol their second factor before any other page opens. */
export const SECOND_FACTOR_PATH = '/admin/second-factor';

/** The page of each setup step (`SETUP_STEPS`), where every page of the account leads until it is done. */
export const SETUP_STEP_PAGES: Record<SetupStep, string> = { password: PASSWORD_CHANGE_PATH, second_factor: SECOND_FACTOR_PATH };

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
  /** The page's description for search engines (`DEFAULT_DESCRIPTION` otherwise). */
  description?: string;
  /**
   * The reads its widgets make as they mount, which the server makes as it renders a signed-in
   * page (`HostPagesOptions.read`) and hands over in the HTML: the widget draws its data as it
   * mounts instead of a round trip later (on a phone's network, ≈150 ms and more).
   */
  reads?: PageRead[];
}

export interface PageDefinition {
  path: string;
  access: PageAccess;
  layout: 'auth' | 'app' | 'embed';
  /** The header's item marked current, when it is not `path` itself (a product's screen marks «Генерации»). */
  nav?: string;
  render: (ctx: PageContext, req: FastifyRequest) => PageResult;
}

/** `?page=n` of a request as the paged widgets read it from the address: 1 when missing or not a page number. */
const pageOf = (req: FastifyRequest): number => {
  const page = Number(query(req).page);
  return Number.isInteger(page) && page > 0 ? page : 1;
};

/** Whether the page's read of `path` answered an empty first page of a list (undefined: not read, refused, or not the first page). */
export function emptyFirstPage(data: readonly PageData[], path: string): boolean | undefined {
  const read = data.find((d) => d.path === path);
  const page = read?.request.query?.page;
  const list = (read?.json as { data?: unknown } | undefined)?.data;
  if (!read || (page !== undefined && Number(page) !== 1) || !Array.isArray(list)) return undefined;
  return list.length === 0;
}

/** The monthly plans of the page's read of the plans, in its order (what the plans page lists under «Подписки»). */
function subscriptionPlans(data: readonly PageData[]): SkeletonPlan[] | undefined {
  const tariffs = replyOf(data, billingRoutes.tariffs.path);
  if (!Array.isArray(tariffs)) return undefined;
  return (tariffs as Tariff[]).filter((t) => t.subscriptions_type !== SUBSCRIPTION_TYPES.package).map((t) => ({ name: t.name, popular: t.popular, description: t.description }));
}

/** The reply of the page's read of `path`, if it was read and answered. */
const replyOf = (data: readonly PageData[], path: string): unknown => data.find((d) => d.path === path)?.json;

/** The page's read of the signed-in account (`GET /api/new/user`), if it answered. */
const accountOf = (data: readonly PageData[]) => replyOf(data, accountRoutes.user.path) as User | undefined;

/** The dashboard widgets' reads as they mount: the account, its plan, the news cards, the welcome notice. */
const DASHBOARD_READS: PageRead[] = [
  { path: accountRoutes.user.path, request: {} },
  { path: billingRoutes.subscriptionStatus.path, request: {} },
  { path: dashboardRoutes.cards.path, request: {} },
  { path: dashboardRoutes.welcome.path, request: {} },
];

/** The dashboard's facts from the page's reads (`DASHBOARD_READS`); undefined unless all four answered. */
export function dashboardFacts(data: readonly PageData[]): PageFacts | undefined {
  const user = accountOf(data);
  const subscription = replyOf(data, billingRoutes.subscriptionStatus.path) as UserSubscriptionStatus | undefined;
  const welcome = replyOf(data, dashboardRoutes.welcome.path) as WelcomeState | undefined;
  const cards = replyOf(data, dashboardRoutes.cards.path);
  if (!user?.balances || !subscription || !welcome || !Array.isArray(cards)) return undefined;
  return { balances: user.balances, subscription, welcome: welcome.visible ? welcome : null, cards: cards.length };
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
    render: (_ctx, req) => ({
      title: 'Вход',
      description: 'Вход в Нейростудию: чат с нейросетями, генерация изображений, видео и текстов.',
      widgets: [widget('auth', { mode: 'login', redirectTo: safeNext(query(req).next) }, { skeleton: authSkeleton('login') })],
      // Where deleting an account lands (the account settings' widget): it says it is done, in the page's HTML (nothing moves when the form mounts).
      ...(query(req).deleted === '1' ? { body: (slots: RawHtml[]) => html`<div class="alert alert-success page-notice" role="status">${PRIVACY_TEXTS.deleted}</div>${defaultBody(slots)}` } : {}),
    }),
  },
  {
    path: '/register',
    access: 'guest',
    layout: 'auth',
    render: () => ({
      title: 'Регистрация',
      description: 'Регистрация в Нейростудии: чат с нейросетями, генерация изображений, видео и текстов.',
      widgets: [widget('auth', { mode: 'register', redirectTo: '/dashboard' }, { skeleton: authSkeleton('register') })],
    }),
  },
  {
    // The `password` setup step (a temporary password, an account just made staff) is done here before any other page opens.
    path: PASSWORD_CHANGE_PATH,
    access: 'user',
    layout: 'auth',
    render: (ctx, req) => ({
      title: 'Смена пароля',
      widgets: [widget('password-reset-form', { mode: 'change', email: ctx.viewer?.email ?? '', temporary: ctx.viewer?.setupStep === 'password' && ctx.viewer.passwordTemporary === true, staff: ctx.viewer?.setupStep === 'password' && ctx.viewer.passwordTemporary !== true, next: safeNext(query(req).next) })],
    }),
  },
  {
    // The `second_factor` setup step of staff: the app's QR code, the first code, the recovery codes.
    path: SECOND_FACTOR_PATH,
    access: 'admin',
    layout: 'auth',
    render: (ctx, req) => ({ title: 'Вход с кодом из приложения', widgets: [widget('second-factor', { email: ctx.viewer?.email ?? '', next: safeNext(query(req).next ?? '/admin') })] }),
  },
  {
    path: '/password/reset',
    access: 'any',
    layout: 'auth',
    render: (_ctx, req) => ({ title: 'Восстановление пароля', widgets: [widget('password-reset-request', { email: (query(req).email ?? '').slice(0, 254) }, { skeleton: resetRequestSkeleton() })] }),
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
    render: (ctx, req) => ({
      title: 'Главная',
      widgets: [
        // The skeletons show what the page read for the widgets (the plan, the balances, the welcome notice, how many news cards).
        widget('welcome-notice', {}, { quiet: true, skeleton: (data) => welcomeSkeleton(dashboardFacts(data)?.welcome ?? null), hold: true }),
        widget('dashboard', {}, { skeleton: (data) => dashboardSkeleton(dashboardFacts(data)), hold: true }),
        widget('history-button', {}, { skeleton: historyButtonSkeleton() }),
        widget('conversion', { payments: query(req).payments === '1' ? 1 : 0 }, { quiet: true }),
      ],
      body: ([welcome, dashboard, historyButton, conversion]) =>
        html`<div class="page-head"><h1>Главная</h1>${historyButton}</div>${welcome}${dashboard}${conversion}`,
      // What the widgets ask as they mount, and all the facts its skeletons show: read once, not
      // twice (facts beside reads made the first byte late enough to delay every widget's mount).
      // The widgets mount with it, and a page that fetches nothing as it loads stays in the
      // back/forward cache.
      reads: DASHBOARD_READS,
    }),
  },
  {
    path: '/dashboard/user/payment',
    access: 'user',
    layout: 'app',
    render: (ctx) => ({
      title: 'Тарифы',
      // No sandbox banner here: the widget's own note says the same and lists the test cards (or that paying is unavailable now).
      widgets: [
        widget(
          'tariffs',
          { frontend: false, paymentScriptUrl: ctx.payments.scriptUrl, sandbox: ctx.payments.sandbox, paymentsOff: ctx.payments.unavailable },
          { skeleton: (data) => tariffsSkeleton({ sandbox: ctx.payments.sandbox, paymentsOff: ctx.payments.unavailable }, subscriptionPlans(data)), hold: true },
        ),
      ],
      body: ([tariffs]) => html`<div class="page-head"><h1>Тарифы</h1></div>${tariffs}`,
      reads: [
        { path: billingRoutes.tariffs.path, request: { query: { frontend: '0' } } },
        { path: billingRoutes.subscribeCheck.path, request: {} },
      ],
    }),
  },
  {
    path: '/dashboard/user/orders',
    access: 'user',
    layout: 'app',
    render: () => ({
      title: 'История заказов',
      widgets: [widget('order-history', {}, { skeleton: (data) => ordersSkeleton(emptyFirstPage(data, billingRoutes.subscriptionHistory.path)), hold: true })],
      body: ([orders]) => html`<div class="page-head"><h1>История заказов</h1></div>${orders}`,
      // The first tab, «Подписки», first page.
      reads: [{ path: billingRoutes.subscriptionHistory.path, request: { query: { page: 1 } } }],
    }),
  },
  {
    // Reached from the dashboard's balance («История баланса»): every change of the balances, in words.
    path: '/dashboard/balance',
    access: 'user',
    layout: 'app',
    nav: '/dashboard',
    render: (_ctx, req) => ({
      title: 'История баланса',
      // The balances of the page's read of the account, the movements' first page when the address asks it.
      widgets: [widget('balance-history', {}, { skeleton: (data) => balanceHistorySkeleton(accountOf(data)?.balances, emptyFirstPage(data, balanceRoutes.history.path)), hold: true })],
      body: ([history]) => html`<div class="page-head"><h1>История баланса</h1></div>${history}`,
      reads: [
        { path: accountRoutes.user.path, request: {} },
        { path: promoRoutes.referral.path, request: {} },
        { path: balanceRoutes.history.path, request: { query: { page: pageOf(req) } } },
      ],
    }),
  },
  {
    path: '/chat',
    access: 'user',
    layout: 'app',
    render: (_ctx, req) => ({
      title: 'Чат',
      // A new chat unless the address opens one (`?id=`): its empty state is what the page shows first.
      widgets: [widget('chat', { plansUrl: '/dashboard/user/payment', packagesUrl: '/dashboard/user/payment#packages' }, query(req).id === undefined ? { skeleton: chatSkeleton() } : {})],
      fill: true,
      // The composer's models and balance, and the list's first page as the widget asks it (ten
      // chats: its LIST_CHUNK): a page that fetches nothing as it loads stays in the back/forward cache.
      reads: [
        { path: chatRoutes.models.path, request: {} },
        { path: accountRoutes.user.path, request: {} },
        { path: chatRoutes.list.path, request: { query: { page: 1, per_page: 10 } } },
      ],
    }),
  },
  {
    path: '/settings',
    access: 'user',
    layout: 'app',
    render: (ctx) => ({
      title: 'Настройки',
      widgets: [widget('account-settings', { email: ctx.viewer?.email ?? '' })],
      body: ([settings]) => html`<div class="page-head"><h1>Настройки</h1></div>${settings}`,
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
  const page = (path: string, catalogue: boolean): PageDefinition => ({
    path,
    access: 'user',
    layout: 'app',
    nav: '/ai-products',
    render: (_ctx, req) => ({
      title: 'Генерации',
      widgets: [
        widget(
          'ai-products',
          { plansUrl: '/dashboard/user/payment', packagesUrl: '/dashboard/user/payment#packages', historyUrl: '/ai-history', videoHistoryUrl: '/ai-history-video' },
          // The list with its filters at /ai-products; a filtered list or a product's screen has its own shape.
          catalogue && !query(req).type ? { skeleton: catalogSkeleton(), hold: true } : {},
        ),
      ],
      // The catalogue's list, under the key its screen asks (`?type=` as the address gives it).
      reads: catalogue ? [{ path: catalogRoutes.products.path, request: { query: catalogueQuery(req) } }] : [],
    }),
  });
  return [page('/ai-products', true), ...PRODUCT_VARIANTS.map((variant) => page(`/ai-products/${variant}/:id`, false))];
}

/** The catalogue's query as the widget sends it: `type` only when the address has a valid one. */
function catalogueQuery(req: FastifyRequest): { type?: string } {
  const type = query(req).type;
  return type === 'video' || type === 'image' || type === 'text' ? { type } : {};
}

/** The history of runs: images at /ai-history (text runs under its «Тексты» tab), video at /ai-history-video. */
function aiHistoryPages(): PageDefinition[] {
  return (['/ai-history', '/ai-history-video'] as const).map((path) => ({
    path,
    access: 'user',
    layout: 'app',
    nav: '/ai-history',
    render: (_ctx, req) => {
      const type = path === '/ai-history' ? 'image' : 'video';
      // The text runs (`?type=text`) have a shape of their own.
      const skeleton = query(req).type === undefined ? { skeleton: (data: readonly PageData[]) => historySkeleton(type, emptyFirstPage(data, generationRoutes.history.path)), hold: true } : {};
      const kind = type === 'image' && query(req).type === 'text' ? 'text' : type;
      return {
        title: 'История генераций',
        widgets: [widget('ai-history', { type, productsUrl: '/ai-products' }, skeleton)],
        reads: [{ path: generationRoutes.history.path, request: { query: { type: kind, page: pageOf(req) } } }],
      };
    },
  }));
}

export const defaultBody = (slots: RawHtml[]) => html`${slots}`;
export { mountPoint };
