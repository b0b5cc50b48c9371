import { widgetProps, type SetupStep, type WidgetName, type WidgetPropsInput, type WidgetManifest } from '@app/contracts';
import { html, jsonForScript, raw, type RawHtml } from './html.ts';
import type { LoaderFiles } from './manifest.ts';
import { styleGroupFile, styleGroupsOf } from './style-groups.ts';

export interface PageViewer {
  email: string;
  emailConfirmed: boolean;
  role: 'user' | 'admin';
  /** What the account must do first (`password`: a new password): every page leads to that step's page. */
  setupStep?: SetupStep | null;
  /** The password is a temporary one (`admin:create`). */
  passwordTemporary?: boolean;
}

/** What a page needs to know about the request, supplied by the server. */
export interface PageContext {
  viewer: PageViewer | null;
  /** The session's account is blocked (then `viewer` is null): its pages say so instead of asking to sign in. */
  blocked?: { email: string } | null;
  supportUrl: string;
  /**
   * `sandbox`: the payment sandbox takes payments (test cards); `unavailable`: no payment can be
   * made now (the sandbox stands in for CloudPayments but an admin switched it off).
   */
  payments: { sandbox: boolean; unavailable: boolean; scriptUrl: string };
}

export interface WidgetMount {
  name: WidgetName;
  props: unknown;
  /** The widget often shows nothing (a hidden notice, a tracking stub): its slot takes no space and shows no placeholder until it draws something. */
  quiet?: boolean;
  /**
   * What the page shows in the widget's place until it has drawn itself, in the widget's shape
   * (`skeletons.ts`); or drawn from the replies the page read for its widgets (`PageResult.reads`),
   * so that what the widget will draw first is already there (an empty list's words).
   */
  skeleton?: RawHtml | SkeletonOf;
  /**
   * The widget loads its data after it mounts: the loader keeps the skeleton's height for it until
   * it no longer shows a loading state (`aria-busy`), so what follows does not move meanwhile.
   */
  hold?: boolean;
}

/** A skeleton drawn from the replies the page read as it rendered (none for a guest, or when a read was refused); undefined draws none. */
export type SkeletonOf = (data: readonly PageData[]) => RawHtml | undefined;

export interface WidgetOptions {
  quiet?: boolean;
  skeleton?: RawHtml | SkeletonOf;
  hold?: boolean;
}

/** A mount point for a widget; props are checked against the widget's schema as the page renders. */
export function widget<N extends WidgetName>(name: N, props: WidgetPropsInput<N>, options: WidgetOptions = {}): WidgetMount {
  widgetProps[name].parse(props);
  return { name, props, ...options };
}

/** The widget's slot with its skeleton, inert (nothing in it can be focused or typed into) and hidden from assistive technology; the widget replaces it as it mounts. */
export function mountPoint(w: WidgetMount, data: readonly PageData[] = []): RawHtml {
  const skeleton = typeof w.skeleton === 'function' ? w.skeleton(data) : w.skeleton;
  return html`<div class="widget-slot" data-widget="${w.name}" data-props="${JSON.stringify(w.props)}" data-loading${w.quiet ? raw(' data-quiet') : ''}${skeleton && w.hold ? raw(' data-hold') : ''}>${
    skeleton ? html`<div class="widget-skeleton" inert aria-hidden="true">${skeleton}</div>` : ''
  }</div>`;
}

export interface LayoutInput {
  title: string;
  layout: 'auth' | 'app' | 'embed';
  ctx: PageContext;
  body: RawHtml;
  widgets: WidgetMount[];
  manifest: WidgetManifest;
  loaderVersion: string;
  /** The loader's chunks it needs at once (boot; React's last) and those of its lazy host modules, linked as modulepreload. */
  loaderFiles: LoaderFiles;
  current?: string;
  banner?: RawHtml | false;
  /** Development only: the React-refresh preamble, run before the loader (widgets from `vite dev`). */
  devPreamble?: string;
  /** The CSP nonce of `<style>` elements the page's scripts add (dialogs' scroll lock). */
  styleNonce?: string;
  /** One screen filling the viewport under the header (the chat). */
  fill?: boolean;
  /** A wider page (the admin panel). */
  wide?: boolean;
  /** The page's `<meta name="description">`. */
  description?: string;
  /** Replies the page's widgets ask for first, read as the page rendered (`PageResult.reads`). */
  data?: PageData[];
}

/**
 * A read a page's widget makes as it mounts: a GET route's path and the request exactly as the
 * widget's query key holds it (`routeKey`: `{}` for none, else `{ query: {...} }` with the same
 * types), so the page can read it as it renders and hand the reply over.
 */
export interface PageRead {
  path: string;
  request: { query?: Record<string, string | number> };
}

/** A read's reply (the envelope's `json`), as of `at` (ms since the epoch). */
export interface PageData extends PageRead {
  json: unknown;
  at: number;
}

/** What a page says of itself to search engines and link previews when it does not say more. */
export const DEFAULT_DESCRIPTION = 'Нейростудия — чат с нейросетями, генерация изображений, видео и текстов. Оплата словами и медиа токенами по подписке или пакетами.';

const NAV = [
  { href: '/dashboard', label: 'Главная' },
  { href: '/chat', label: 'Чат' },
  { href: '/ai-products', label: 'Генерации' },
  { href: '/ai-history', label: 'История' },
  { href: '/dashboard/user/payment', label: 'Тарифы' },
  { href: '/dashboard/user/orders', label: 'Заказы' },
];

/** Only admins see it. */
const ADMIN_NAV = { href: '/admin', label: 'Админка' };

const guestHeader = () => html`<header class="site-header site-header--guest"><a class="brand" href="/">${raw(LOGO)}<span>Нейростудия</span></a></header>`;

const userBox = (viewer: PageViewer) => html`<div class="site-user"><span class="site-user__email">${viewer.email}</span><a class="site-user__logout" href="/logout">Выйти</a></div>`;

function header(ctx: PageContext, current: string | undefined): RawHtml {
  if (!ctx.viewer) return guestHeader();
  // While a setup step is pending every other page leads back to it: no navigation to offer, only the way out.
  if (ctx.viewer.setupStep) {
    return html`<header class="site-header site-header--setup"><span class="brand">${raw(LOGO)}<span>Нейростудия</span></span>${userBox(ctx.viewer)}</header>`;
  }
  return html`<header class="site-header">
  <a class="brand" href="/dashboard">${raw(LOGO)}<span>Нейростудия</span></a>
  <nav class="site-nav" aria-label="Основное меню">${(ctx.viewer.role === 'admin' ? [...NAV, ADMIN_NAV] : NAV).map(
    (item) => html`<a href="${item.href}"${item.href === current ? raw(' aria-current="page"') : ''}>${item.label}</a>`,
  )}</nav>
  <div class="site-user"><span class="site-user__email">${ctx.viewer.email}</span><a class="site-user__settings" href="/settings"${current === '/settings' ? raw(' aria-current="page"') : ''}>Настройки</a><a class="site-user__logout" href="/logout">Выйти</a></div>
</header>`;
}

/**
 * The site's icons (host-pages/public, served from /assets/): PNG, not SVG — Chromium draws an SVG
 * icon in a document of its own on the page's main thread (≈50 ms at the phone profile's 4× CPU,
 * measured on /login, just as the page's modules evaluate before its widgets mount); a PNG is
 * decoded off it.
 */
export const SITE_ICONS = { favicon: 'favicon-32.png', touch: 'apple-touch-icon.png' } as const;
const ICON_LINKS = raw(`<link rel="icon" href="/assets/${SITE_ICONS.favicon}" type="image/png" sizes="32x32"><link rel="apple-touch-icon" href="/assets/${SITE_ICONS.touch}">`);

const LOGO = '<svg class="brand__logo" width="28" height="28" viewBox="0 0 28 28" aria-hidden="true"><rect width="28" height="28" rx="8" fill="currentColor"/><path d="M8 19V9l6 6 6-6v10" stroke="#fff" stroke-width="2.2" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>';

/**
 * The loader's chunks and the files of the page's widgets as `modulepreload` links: the server
 * knows which widgets the page mounts, so the boot chunk, the widgets' entries and exposed
 * modules, the chunks of the host modules they import (forms, dialog…) and React's chunk load
 * beside the loader instead of after it. In that order: a browser fetches a few files at a time
 * from one server (six over HTTP/1.1) in the order the page names them, so the small files the
 * boot and the widgets' remotes start with come before React's chunk, the largest, which they
 * need last — on a slow link the remotes then start while React is still arriving.
 */
function preloads(loader: LoaderFiles, manifest: WidgetManifest, nonce: string | undefined): RawHtml {
  const widgets = Object.values(manifest);
  const hostChunks = widgets.flatMap((m) => (m.hostModules ?? []).flatMap((name) => (Object.hasOwn(loader.lazy, name) ? (loader.lazy[name] ?? []) : [])));
  const urls = [...new Set([...loader.preload, ...widgets.flatMap((m) => [m.entry, ...m.preload]), ...hostChunks, ...loader.preloadLast])];
  return html`${urls.map((url) => html`<link rel="modulepreload" href="${url}"${nonce ? html` nonce="${nonce}"` : ''}>\n`)}`;
}

/** The stylesheets of the style groups the page's widgets need (those the loader's build wrote). */
function styleLinks(input: Pick<LayoutInput, 'widgets' | 'loaderFiles' | 'loaderVersion'>): RawHtml {
  const groups = styleGroupsOf(input.widgets.map((w) => w.name)).filter((group) => input.loaderFiles.styles.includes(group));
  return html`${groups.map((group) => html`<link rel="stylesheet" href="/assets/${styleGroupFile(group)}?v=${input.loaderVersion}">\n`)}`;
}

/** The whole HTML document of a page. */
export function renderDocument(input: LayoutInput): string {
  const { ctx } = input;
  const doc = html`<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${input.description ?? DEFAULT_DESCRIPTION}">
${input.styleNonce ? html`<meta name="csp-nonce" content="${input.styleNonce}">\n` : ''}<title>${input.title} — Нейростудия</title>
${ICON_LINKS}
<link rel="stylesheet" href="/assets/loader.css?v=${input.loaderVersion}">
${styleLinks(input)}<script type="application/json" id="widget-manifest">${raw(jsonForScript(input.manifest))}</script>
${input.data?.length ? html`<script type="application/json" id="page-data">${raw(jsonForScript(input.data))}</script>\n` : ''}${input.devPreamble ? html`<script type="module" src="${input.devPreamble}"></script>\n` : ''}<script type="module" src="/assets/loader.js"></script>
${preloads(input.loaderFiles, input.manifest, input.styleNonce)}</head>
<body class="layout-${input.layout}${input.fill ? ' layout-fill' : ''}">
${input.layout === 'embed' ? '' : header(ctx, input.current)}
${input.banner ? html`<div class="sandbox-banner" role="note">${input.banner}</div>` : ''}
<main class="page page--${input.layout}${input.fill ? ' page--fill' : ''}${input.wide ? ' page--wide' : ''}">
${input.body}
</main>
${input.layout === 'embed' ? '' : html`<footer class="site-footer"><span>© Нейростудия</span><a href="${ctx.supportUrl}">Поддержка</a><a href="/privacy">Персональные данные</a><a href="/offer">Оферта</a></footer>`}
</body>
</html>`;
  return doc.value;
}

const ERROR_PAGES: Record<number, { title: string; text: string }> = {
  403: { title: 'Нет доступа', text: 'Эта страница только для администраторов.' },
  404: { title: 'Страница не найдена', text: 'Такой страницы нет. Проверьте адрес или вернитесь на главную.' },
  503: { title: 'Сервис временно недоступен', text: 'Мы уже восстанавливаем работу. Обновите страницу через минуту.' },
};
const SERVER_ERROR = { title: 'Произошла ошибка', text: 'Что-то пошло не так. Попробуйте обновить страницу чуть позже.' };

/**
 * A page for 404 and 5xx that needs no widget. A signed-in user keeps the header with the
 * navigation and the footer, as on every other page; a guest sees the guest header.
 */
export function renderErrorDocument(status: number, ctx?: PageContext): string {
  const { title, text } = ERROR_PAGES[status] ?? SERVER_ERROR;
  const signedIn = Boolean(ctx?.viewer);
  const layout = signedIn ? 'app' : 'auth';
  return html`<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} — Нейростудия</title>
${ICON_LINKS}<link rel="stylesheet" href="/assets/loader.css"></head>
<body class="layout-${layout}">${ctx && signedIn ? header(ctx, undefined) : guestHeader()}<main class="page page--${layout}"><div class="card error-page"><h1>${title}</h1><p>${text}</p><a class="btn btn-primary" href="${signedIn ? '/dashboard' : '/'}">На главную</a></div></main>${ctx && signedIn ? html`<footer class="site-footer"><span>© Нейростудия</span><a href="${ctx.supportUrl}">Поддержка</a></footer>` : ''}</body></html>`.value;
}

/**
 * What a blocked account sees on its pages (403): that it is blocked, the way to support and a
 * way out, instead of a sign-in form that would only refuse it.
 */
export function renderBlockedDocument(ctx: PageContext & { blocked: { email: string } }): string {
  const title = 'Аккаунт заблокирован';
  return html`<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} — Нейростудия</title>
${ICON_LINKS}<link rel="stylesheet" href="/assets/loader.css"></head>
<body class="layout-auth">${guestHeader()}<main class="page"><div class="card error-page" role="alert"><h1>${title}</h1><p>Аккаунт <strong class="error-page__account">${ctx.blocked.email}</strong> заблокирован администратором, пользоваться им сейчас нельзя. Если это ошибка, напишите в поддержку — мы разберёмся.</p><div class="error-page__actions"><a class="btn btn-primary" href="${ctx.supportUrl}">Написать в поддержку</a><a class="btn btn-secondary" href="/logout">Выйти</a></div></div></main><footer class="site-footer"><span>© Нейростудия</span><a href="${ctx.supportUrl}">Поддержка</a></footer></body></html>`.value;
}
