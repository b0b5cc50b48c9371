import type { FastifyRequest } from 'fastify';
import type { PageContext } from '@app/host-pages';
import type { AppContext } from '../../context.ts';

/** Who is signed in and which local stand-ins are active, for the server-rendered pages. */
export function pageContext(ctx: AppContext, req: FastifyRequest): PageContext {
  const viewer = req.viewer && !req.viewer.blocked ? req.viewer : null;
  const cp = ctx.config.cloudpayments;
  // A sandbox an admin switched off takes no payment, and there is no real CloudPayments behind it.
  const sandboxOff = cp.sandbox && !ctx.settings.current.sandbox_payments;
  return {
    viewer: viewer ? { email: viewer.email, emailConfirmed: viewer.emailConfirmed, role: viewer.role, mustChangePassword: viewer.mustChangePassword } : null,
    blocked: req.viewer?.blocked ? { email: req.viewer.email } : null,
    supportUrl: ctx.settings.current.support_url,
    payments: { sandbox: cp.sandbox && !sandboxOff, unavailable: sandboxOff, scriptUrl: cp.sandbox ? '/sandbox/cloudpayments.js' : cp.widgetUrl },
  };
}
