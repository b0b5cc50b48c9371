import type { FastifyInstance } from 'fastify';
import { generationRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { receiveReplicateWebhook } from './replicate-webhook.service.ts';

/**
 * A webhook body is the whole prediction, its `input` included — where the user's image and mask
 * go as data URLs (up to 2 × 15 MB, a third more in base64).
 */
const BODY_LIMIT = 48 * 1024 * 1024;

/**
 * Replicate's prediction webhooks. The body is kept as sent (bytes), because the signature is
 * over those exact bytes; it is parsed only after the signature checks out. The parser is this
 * plugin's own: JSON everywhere else is parsed as before.
 */
export default async function replicateWebhookRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    done(null, body);
  });

  mountRoute(app, generationRoutes.replicateWebhook, async ({ req }) => ({
    result: await receiveReplicateWebhook(app.ctx, req.headers, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)),
  }));
}
