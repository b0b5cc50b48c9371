import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PageContext, PageData, PageFacts, PageRead } from '@app/host-pages';
import { subscriptionStatus } from '../billing/billing.service.ts';
import { listActiveCards } from '../dashboard/dashboard.queries.ts';
import { getBalances } from '../wallet/wallet.queries.ts';
import { welcomeState } from '../welcome/welcome.service.ts';
import type { AppContext } from '../../context.ts';

/** Who is signed in and which local stand-ins are active, for the server-rendered pages. */
export function pageContext(ctx: AppContext, req: FastifyRequest): PageContext {
  const viewer = req.viewer && !req.viewer.blocked ? req.viewer : null;
  const cp = ctx.config.cloudpayments;
  // A sandbox an admin switched off takes no payment, and there is no real CloudPayments behind it.
  const sandboxOff = cp.sandbox && !ctx.settings.current.sandbox_payments;
  return {
    viewer: viewer ? { email: viewer.email, emailConfirmed: viewer.emailConfirmed, role: viewer.role, setupStep: viewer.setupStep, passwordTemporary: viewer.passwordTemporary } : null,
    blocked: req.viewer?.blocked ? { email: req.viewer.email } : null,
    supportUrl: ctx.settings.current.support_url,
    payments: { sandbox: cp.sandbox && !sandboxOff, unavailable: sandboxOff, scriptUrl: cp.sandbox ? '/sandbox/cloudpayments.js' : cp.widgetUrl },
  };
}

/**
 * What the skeletons of the dashboard and the balance history show before their widgets load:
 * the same reads as the widgets' own calls (the balances, the plan, the welcome notice, how many
 * news cards), so the server's HTML already holds what the user came for.
 */
export async function pageFacts(ctx: AppContext, req: FastifyRequest): Promise<PageFacts> {
  const viewer = req.viewer;
  if (!viewer) throw new Error('page facts without a viewer');
  const [balances, subscription, welcome, cards] = await Promise.all([
    getBalances(ctx.db, viewer.id),
    subscriptionStatus(ctx, viewer.id),
    welcomeState(ctx, viewer.id),
    listActiveCards(ctx.db),
  ]);
  return { balances, subscription, welcome: welcome.visible ? welcome : null, cards: cards.length };
}

/**
 * A signed-in page's reads (`PageResult.reads`), made as the page's own request: the same route,
 * session and client address (so they count toward that address's rate limit as the widget's own
 * calls would), through the app's whole pipeline. Only 200 replies are handed over.
 */
export async function pageReads(app: FastifyInstance, req: FastifyRequest, reads: PageRead[]): Promise<PageData[]> {
  const headers: Record<string, string> = {};
  for (const name of ['cookie', 'authorization'] as const) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const replies = await Promise.all(
    reads.map(async (read) => {
      const query = Object.entries(read.request.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]);
      const url = query.length ? `${read.path}?${new URLSearchParams(query).toString()}` : read.path;
      const res = await app.inject({ method: 'GET', url, headers, remoteAddress: req.ip });
      if (res.statusCode !== 200) return null;
      const envelope = res.json<{ status?: unknown; json?: unknown }>();
      return envelope.status === 'success' ? { ...read, json: envelope.json, at: Date.now() } : null;
    }),
  );
  return replies.filter((r): r is PageData => r !== null);
}
