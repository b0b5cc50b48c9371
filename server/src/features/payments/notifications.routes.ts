import type { FastifyInstance } from 'fastify';
import { billingRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { receiveNotification } from './notifications.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/**
 * CloudPayments notifications. The body is kept as sent, because the signature is over those
 * exact bytes; it is parsed only after the signature checks out.
 */
export default async function notificationRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded'], { parseAs: 'string', bodyLimit: 64 * 1024 }, (req, body, done) => {
    req.rawBody = body as string;
    done(null, null);
  });

  mountRoute(app, billingRoutes.notification, async ({ req, params }) => ({ code: await receiveNotification(app.ctx, params.kind, req.rawBody ?? '', req.headers) }), { config: { rateLimit: false } });
}
