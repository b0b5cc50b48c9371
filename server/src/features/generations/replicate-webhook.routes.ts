import type { FastifyInstance, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { generationRoutes } from '@app/contracts';
import { AppError } from '../../lib/app-error.ts';
import { mountRoute } from '../../lib/routes.ts';
import { hasWebhookSignatureHeaders } from '../../providers/replicate-webhook.ts';
import { isWebhookTokenValid } from './replicate-webhook-url.ts';
import { receiveReplicateWebhook } from './replicate-webhook.service.ts';

/**
 * A webhook body is the whole prediction, its `input` included — where the user's image and mask
 * go as data URLs (up to 2 × 15 MB, a third more in base64).
 */
export const WEBHOOK_BODY_LIMIT = 48 * 1024 * 1024;

/**
 * Before a byte of the body is read: no secret configured, no signature headers (or a timestamp
 * out of tolerance), or an address without the token of its run — 401; a declared body over the
 * limit — 413. The socket is closed after the refusal, so the rest of the body is never read.
 */
function refuseEarly(req: FastifyRequest, reply: FastifyReply, payload: RequestPayload, done: (err: Error | null, payload?: RequestPayload) => void): void {
  const { config, secrets } = req.server.ctx;
  const query = req.query as Record<string, unknown> | undefined;
  let refusal: AppError | undefined;
  if (!config.replicate.webhookSecret || !hasWebhookSignatureHeaders(req.headers) || !isWebhookTokenValid(secrets.appSecret, query?.run, query?.token)) {
    refusal = new AppError('INVALID_SIGNATURE');
  } else if (Number(req.headers['content-length']) > WEBHOOK_BODY_LIMIT) {
    refusal = new AppError('PAYLOAD_TOO_LARGE');
  }
  if (!refusal) {
    done(null, payload);
    return;
  }
  void reply.header('connection', 'close');
  done(refusal);
}

/**
 * Replicate's prediction webhooks. The body is kept as sent (bytes), because the signature is
 * over those exact bytes; it is parsed only after the signature checks out. The parser is this
 * plugin's own: JSON everywhere else is parsed as before.
 */
export default async function replicateWebhookRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => {
    done(null, body);
  });

  mountRoute(
    app,
    generationRoutes.replicateWebhook,
    async ({ req, query }) => ({
      result: await receiveReplicateWebhook(app.ctx, req.headers, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), query.run),
    }),
    { preParsing: refuseEarly },
  );
}
