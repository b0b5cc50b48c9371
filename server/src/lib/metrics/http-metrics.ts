import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

/**
 * Times every request of `app` into `http_request_duration_seconds` by the route's pattern
 * (`/api/new/chat/:id`, never the URL asked for; `unmatched` for a 404 without a route), method
 * and status, and counts those under way. One `onRequest` hook that listens for the response's
 * `close`, which comes however a request ends — replied, failed, or its client gone first (then
 * status 499, nginx's «client closed request», unless the reply had begun: an event stream keeps
 * its 200).
 */
export function installHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRequest', (req, reply, done) => {
    metrics.inFlight += 1;
    reply.raw.once('close', () => {
      metrics.inFlight -= 1;
      const res = reply.raw;
      const status = res.writableFinished || res.headersSent ? res.statusCode : 499;
      metrics.httpDuration.observe({ route: req.routeOptions.url ?? 'unmatched', method: req.method, status: String(status) }, reply.elapsedTime / 1000);
    });
    done();
  });
  // Open event streams are counted where they are kept (per user, for SSE_STREAMS_PER_USER).
  const unwatch = metrics.watchStreams(() => (app.hasDecorator('streamSlots') ? app.streamSlots.total : 0));
  app.addHook('onClose', (_app, closed) => {
    unwatch();
    closed();
  });
}
