import type { FastifyInstance } from 'fastify';
import { billingRoutes, CP_CODES } from '@app/contracts';
import { AppError } from '../../lib/app-error.ts';
import { mountRoute } from '../../lib/routes.ts';
import { verifyNotificationSignature } from './cloudpayments.ts';
import { handleNotification } from './notifications.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

function parseBody(contentType: string | undefined, raw: string): Record<string, unknown> {
  if (contentType?.includes('application/json')) {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new AppError('BAD_REQUEST');
    return value as Record<string, unknown>;
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) if (!(key in fields)) fields[key] = value;
  return fields;
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

  mountRoute(
    app,
    billingRoutes.notification,
    async ({ req, params }) => {
      const raw = req.rawBody ?? '';
      if (!verifyNotificationSignature(app.secrets.cloudpaymentsSecret, raw, req.headers)) throw new AppError('INVALID_SIGNATURE');
      let fields: Record<string, unknown>;
      try {
        fields = parseBody(req.headers['content-type'], raw);
      } catch {
        return { code: CP_CODES.cannotAccept };
      }
      return { code: await handleNotification(app, params.kind, fields) };
    },
    { config: { rateLimit: false } },
  );
}
