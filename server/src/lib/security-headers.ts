import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers, worked out once at start (they do not depend on the request) and
 * set on every reply in one step: @fastify/helmet rebuilds Helmet's middleware for each request.
 */
export function securityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const collected = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      collected.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader: (name: string) => void collected.delete(name.toLowerCase()),
  };
  helmet(options)({} as never, collector as never, () => undefined);
  const headers = Object.fromEntries(collected);
  app.addHook('onRequest', (_req, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
