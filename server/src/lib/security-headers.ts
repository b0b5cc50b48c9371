import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Helmet's headers for `options`, worked out once (they do not depend on the request). */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const collected = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      collected.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader: (name: string) => void collected.delete(name.toLowerCase()),
  };
  helmet(options)({} as never, collector as never, () => undefined);
  return Object.fromEntries(collected);
}

/**
 * Security headers on every reply, worked out once at start and set in one step (@fastify/helmet
 * rebuilds Helmet's middleware for every request). Pages, files and the rest get Helmet's set for
 * `options`. API replies, which no browser renders as a document, get what OWASP's REST guidance
 * gives — nothing may be loaded or framed, no sniffing, no referrer, HSTS as for pages — and
 * `Cache-Control: no-store` (a route serving a file sets its own).
 */
export function securityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const page = helmetHeaders(options);
  const api = {
    ...helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      crossOriginResourcePolicy: { policy: 'same-origin' },
      originAgentCluster: false,
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: options.strictTransportSecurity ?? false,
      xContentTypeOptions: true,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xFrameOptions: { action: 'deny' },
      xPermittedCrossDomainPolicies: false,
      xPoweredBy: true,
      xXssProtection: false,
    }),
    'cache-control': 'no-store',
  };
  app.addHook('onRequest', (req, reply, done) => {
    void reply.headers(req.url.startsWith('/api/') ? api : page);
    done();
  });
}
