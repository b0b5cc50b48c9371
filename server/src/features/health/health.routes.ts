import type { FastifyInstance } from 'fastify';
import { pingDatabase } from './health.queries.ts';

/** Liveness (the process answers) and readiness (the database answers). */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await pingDatabase(app.ctx.db);
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
