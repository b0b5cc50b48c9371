import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PageContext, PageData, PageRead } from '@app/host-pages';
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
