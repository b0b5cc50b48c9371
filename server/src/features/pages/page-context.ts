import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PageContext } from '@app/host-pages';

/** Who is signed in and which local stand-ins are active, for the server-rendered pages. */
export function pageContext(app: FastifyInstance, req: FastifyRequest): PageContext {
  const viewer = req.viewer && !req.viewer.blocked ? req.viewer : null;
  const cp = app.config.cloudpayments;
  return {
    viewer: viewer ? { email: viewer.email, emailConfirmed: viewer.emailConfirmed, role: viewer.role } : null,
    supportUrl: app.config.supportUrl,
    payments: { sandbox: cp.sandbox, scriptUrl: cp.sandbox ? '/sandbox/cloudpayments.js' : cp.widgetUrl },
  };
}
