/**
 * The admin panel's client routes (seed «Admin»): sixteen tabs, tab1 first. Each tab has its
 * list route and, where the seed gives one, its single route `{list}/{id}`; tabs 13–16 are
 * PRODUCT.md's. /admin is tab1.
 */
export const ADMIN_TABS = [
  { flag: 'tab1', label: 'Главная', path: '/dashboard/admin_vue', single: false },
  { flag: 'tab2', label: 'Аи продукты', path: '/admin/ai-products', single: true },
  { flag: 'tab3', label: 'Аи категории продуктов', path: '/admin/ai-categories', single: true },
  { flag: 'tab4', label: 'Аи модели', path: '/admin/ai-models', single: true },
  { flag: 'tab5', label: 'Тарифы', path: '/admin/tariff', single: true },
  { flag: 'tab6', label: 'Пользователи', path: '/admin/users', single: true },
  { flag: 'tab7', label: 'Подписки', path: '/admin/subscriptions', single: false },
  { flag: 'tab8', label: 'Платежи', path: '/admin/payments', single: false },
  { flag: 'tab9', label: 'Лог подписок', path: '/admin/log', single: false },
  { flag: 'tab10', label: 'Стартовая панель', path: '/admin/dashboard', single: true },
  { flag: 'tab11', label: 'История генераций', path: '/admin/history', single: false },
  { flag: 'tab12', label: 'Чат', path: '/admin/chat_model', single: false },
  { flag: 'tab13', label: 'Аналитика', path: '/admin/analytics', single: false },
  { flag: 'tab14', label: 'Провайдеры', path: '/admin/providers', single: true },
  { flag: 'tab15', label: 'Журнал действий', path: '/admin/audit', single: false },
  { flag: 'tab16', label: 'Настройки', path: '/admin/settings', single: false },
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number];
export type TabFlag = AdminTab['flag'];

/** Where the panel is: a tab, and on a single route the record's id. */
export type AdminRoute = { kind: 'tab'; tab: AdminTab; id: number | null; section?: 'promo' } | { kind: 'unknown' };

/** «Промокоды», a section of «Тарифы» (tab5) with routes of its own: the list and `{path}/{id}`. */
export const PROMO_PATH = '/admin/promo-codes';

const tab1 = ADMIN_TABS[0];

export function parseAdminRoute(pathname: string): AdminRoute {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/admin' || path === tab1.path) return { kind: 'tab', tab: tab1, id: null };
  if (path === PROMO_PATH || path.startsWith(`${PROMO_PATH}/`)) {
    const rest = path.slice(PROMO_PATH.length + 1);
    if (rest === '') return { kind: 'tab', tab: ADMIN_TABS[4], id: null, section: 'promo' };
    if (/^\d{1,12}$/.test(rest) && Number(rest) > 0) return { kind: 'tab', tab: ADMIN_TABS[4], id: Number(rest), section: 'promo' };
    return { kind: 'unknown' };
  }
  for (const tab of ADMIN_TABS) {
    if (path === tab.path) return { kind: 'tab', tab, id: null };
    if (tab.single && path.startsWith(`${tab.path}/`)) {
      const rest = path.slice(tab.path.length + 1);
      if (/^\d{1,12}$/.test(rest) && Number(rest) > 0) return { kind: 'tab', tab, id: Number(rest) };
    }
  }
  return { kind: 'unknown' };
}

/** The sixteen flags of the tab bar: the current tab on, the others off. */
export const tabFlags = (current: TabFlag): Record<TabFlag, boolean> => Object.fromEntries(ADMIN_TABS.map((t) => [t.flag, t.flag === current])) as Record<TabFlag, boolean>;

/** A list's state in the address: `?q=&sort=&dir=&page=`. */
export interface ListQuery {
  q: string;
  sort: string;
  dir: 'asc' | 'desc';
  page: number;
}

export function readListQuery(search: string, fallbackSort: string): ListQuery {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    sort: params.get('sort') ?? fallbackSort,
    dir: params.get('dir') === 'asc' ? 'asc' : 'desc',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The address of a list with `query` (defaults left out). */
export function listHref(path: string, query: ListQuery, fallbackSort: string): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.sort !== fallbackSort) params.set('sort', query.sort);
  if (query.dir !== 'desc') params.set('dir', query.dir);
  if (query.page > 1) params.set('page', String(query.page));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}
