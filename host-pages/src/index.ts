import crypto from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { ManifestStore } from './manifest.ts';
import { DEV_PREAMBLE_PATH, devPreambleModule, devPreamblePath } from './dev.ts';
import { html } from './html.ts';
import { SITE_ICONS, mountPoint, renderBlockedDocument, renderDocument, renderErrorDocument, widget, type PageContext, type PageData, type PageRead } from './layout.ts';
import { defaultBody, PAGES, SETUP_STEP_PAGES, safeNext, type PageDefinition } from './pages.ts';

export type { PageContext, PageViewer, PageRead, PageData } from './layout.ts';
export { PAGES, safeNext, type PageDefinition, type PageResult } from './pages.ts';
export { widget, DEFAULT_DESCRIPTION } from './layout.ts';
export type { PageFacts } from './skeletons.ts';
export { html, raw, type RawHtml } from './html.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends a server-rendered page with widget mount points (used by features that own a page). */
    sendPage(req: FastifyRequest, reply: FastifyReply, page: Omit<PageDefinition, 'path'> & { path?: string }): Promise<FastifyReply>;
  }
}

export interface HostPagesOptions {
  widgetsDir: string;
  loaderDir: string;
  /**
   * Development only: widgets served by their `vite dev` server (name → origin, from
   * WIDGET_DEV_SERVERS). Their manifest entries point there and their pages get the
   * React-refresh preamble; the server's CSP must allow those origins.
   */
  devServers?: Record<string, string>;
  context: (req: FastifyRequest) => PageContext;
  /**
   * Makes a signed-in page's reads (`PageResult.reads`) as the viewer: the replies that came back
   * 200, in any order; one that did not is left to its widget.
   */
  read?: (req: FastifyRequest, reads: PageRead[]) => Promise<PageData[]>;
}

const HTML = 'text/html; charset=utf-8';

/**
 * Route config of static files (the loader, widget chunks, the icon): the server's session
 * lookup and rate limit skip them, so serving a page's scripts never touches the database.
 */
export const STATIC_ROUTE = { static: true, rateLimit: false } as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A static file: no session lookup, no rate limit. */
    static?: boolean;
  }
}

/** An error page; with the request's page context a signed-in user keeps the header and navigation. */
export function renderErrorPage(reply: FastifyReply, status: number, ctx?: PageContext): FastifyReply {
  return reply.code(status).type(HTML).header('cache-control', 'no-store').send(renderErrorDocument(status, ctx));
}

/** A blocked account's page: 403, what happened, support and «Выйти». */
const renderBlockedPage = (reply: FastifyReply, ctx: PageContext & { blocked: { email: string } }) =>
  reply.code(403).type(HTML).header('cache-control', 'no-store').send(renderBlockedDocument(ctx));

/**
 * The server-rendered pages: each is an HTML shell with widget mount points, the loader and
 * the manifest of the widgets it mounts. Also serves the loader and each widget's build.
 */
/**
 * A page's dialogs lock the page's scroll with a `<style>` element they add (Radix, through
 * react-remove-scroll), which a CSP of `style-src 'self'` refuses. The page's `style-src` gets
 * a nonce for it, and the page hands the nonce to the loader; where `style-src` already allows
 * inline styles (real CloudPayments) nothing changes, as a nonce would switch that off.
 */
function allowInjectedStyles(reply: FastifyReply): string | undefined {
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp !== 'string') return undefined;
  const directives = csp.split(';').map((d) => d.trim());
  const index = directives.findIndex((d) => d.startsWith('style-src '));
  const styleSrc = directives[index];
  if (styleSrc === undefined || styleSrc.includes("'unsafe-inline'")) return undefined;
  const nonce = crypto.randomBytes(16).toString('base64');
  directives[index] = `${styleSrc} 'nonce-${nonce}'`;
  reply.header('content-security-policy', directives.join(';'));
  return nonce;
}

export const hostPages = fp<HostPagesOptions>(
  async (app: FastifyInstance, opts) => {
    const devServers = opts.devServers ?? {};
    const store = new ManifestStore(opts.widgetsDir, opts.loaderDir, devServers);

    // Static files: no session lookup, no rate limit, no database (see STATIC_ROUTE).
    // A browser that accepts Brotli or gzip gets the copy the build compressed beside each file
    // (`precompress` in the build config), with `Vary: Accept-Encoding`; the file itself otherwise.
    await app.register(fastifyStatic, { root: opts.loaderDir, serve: false, preCompressed: true });
    app.get<{ Params: { '*': string } }>('/assets/*', { schema: { hide: true }, config: STATIC_ROUTE }, (req, reply) => {
      const file = req.params['*'];
      if (file.includes('..') || file.includes('\\')) return renderErrorPage(reply, 404);
      // The loader's chunks (`host-<name>-<hash>.js`) are content-hashed; the site's icons are kept a day; loader.js and loader.css are revalidated.
      const cache = /^host-[\w-]+-[\w-]{8}\.js$/.test(file) ? 'public, max-age=31536000, immutable' : ICONS.has(file) ? 'public, max-age=86400' : 'no-cache';
      return reply.header('cache-control', cache).sendFile(file, opts.loaderDir, { cacheControl: false });
    });

    if (Object.keys(devServers).length > 0) {
      // `?widgets=a,b`: the page's dev widgets only (each runtime is a module and a socket of its dev server).
      app.get<{ Querystring: { widgets?: unknown } }>(DEV_PREAMBLE_PATH, { schema: { hide: true } }, (req, reply) => {
        const named = typeof req.query.widgets === 'string' ? req.query.widgets.split(',') : Object.keys(devServers);
        const servers = Object.fromEntries(Object.entries(devServers).filter(([name]) => named.includes(name)));
        return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(devPreambleModule(servers));
      });
    }

    app.get<{ Params: { name: string; '*': string } }>('/widgets/:name/*', { schema: { hide: true }, config: STATIC_ROUTE }, (req, reply) => {
      const { name } = req.params;
      const file = req.params['*'];
      if (!/^[a-z0-9-]+$/.test(name) || file.includes('..')) return renderErrorPage(reply, 404);
      // remoteEntry.js keeps its name between builds; everything else is content-hashed.
      const cache = file === 'remoteEntry.js' || file.endsWith('.json') || file.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable';
      return reply.header('cache-control', cache).sendFile(file, path.join(opts.widgetsDir, name, 'dist'), { cacheControl: false });
    });

    app.get('/', { schema: { hide: true } }, (req, reply) => {
      const ctx = opts.context(req);
      return reply.redirect(ctx.viewer || ctx.blocked ? '/dashboard' : '/login');
    });

    /** Renders a page definition for this request (access rules, overlay, manifest). */
    const sendPage = async (req: FastifyRequest, reply: FastifyReply, page: Omit<PageDefinition, 'path'> & { path?: string }) => {
      const ctx = opts.context(req);
      if (page.access === 'guest' && ctx.viewer) return reply.redirect('/dashboard');
      // A blocked account is told so where it lands, not sent to a sign-in form that would only refuse it.
      if ((page.access === 'user' || page.access === 'admin') && ctx.blocked) return renderBlockedPage(reply, { ...ctx, blocked: ctx.blocked });
      if ((page.access === 'user' || page.access === 'admin') && !ctx.viewer) return reply.redirect(`/login?next=${encodeURIComponent(safeNext(req.url))}`);
      // A pending setup step comes first: every other page of the account leads to its page, then back.
      const setupPage = ctx.viewer?.setupStep ? SETUP_STEP_PAGES[ctx.viewer.setupStep] : undefined;
      if (setupPage && (page.access === 'user' || page.access === 'admin') && page.path !== setupPage) {
        return reply.redirect(`${setupPage}?next=${encodeURIComponent(safeNext(req.url))}`);
      }
      if (page.access === 'admin' && ctx.viewer?.role !== 'admin') return renderErrorPage(reply, 403, ctx);
      const result = page.render(ctx, req);
      // What the widgets read as they mount, which their skeletons show too (the plan, the balances…).
      const data = ctx.viewer && result.reads?.length && opts.read ? await opts.read(req, result.reads) : undefined;
      const widgets = [...result.widgets];
      if (ctx.viewer && !ctx.viewer.emailConfirmed && (page.access === 'user' || page.access === 'admin')) {
        widgets.push(widget('email-confirm', { email: ctx.viewer.email, supportUrl: ctx.supportUrl }));
      }
      const slots = widgets.map((w) => mountPoint(w, data));
      const body = (result.body ?? defaultBody)(slots.slice(0, result.widgets.length));
      const overlay = slots.slice(result.widgets.length);
      const styleNonce = allowInjectedStyles(reply);
      const document = renderDocument({
        title: result.title,
        layout: page.layout,
        ctx,
        body: html`${body}${overlay}`,
        widgets,
        manifest: await store.manifestFor(widgets.map((w) => w.name)),
        loaderVersion: await store.loaderVersion(),
        loaderFiles: await store.loaderFiles(),
        current: page.nav ?? page.path,
        banner: result.banner,
        fill: result.fill,
        wide: result.wide,
        description: result.description,
        ...(data ? { data } : {}),
        devPreamble: devPreamblePath(widgets.map((w) => w.name).filter((name) => Object.hasOwn(devServers, name))),
        styleNonce,
      });
      // A guest's page holds nothing of an account: revalidated, not refused a store, so the
      // browser's back/forward cache may keep it. A signed-in page stays `no-store`: after
      // signing out, «Back» must not show the account's page again.
      return reply.type(HTML).header('cache-control', ctx.viewer ? 'no-store' : 'private, no-cache').send(document);
    };
    app.decorate('sendPage', sendPage);

    for (const page of PAGES) {
      app.get(page.path, { schema: { hide: true } }, (req, reply) => sendPage(req, reply, page));
    }
  },
  { name: 'host-pages' },
);

/** The site's icons (`SITE_ICONS`), kept a day. */
const ICONS = new Set<string>(Object.values(SITE_ICONS));
