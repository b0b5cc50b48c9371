import http from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * prom-client's figures of the process itself (CPU, memory, heap spaces, event-loop lag, GC,
 * handles): one set per process, started by the first listener, as they describe the process, not
 * an application context.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * `GET /metrics` in Prometheus' text format on a listener of its own — never the public port,
 * never behind nginx — with the process's figures and the application's (`registry`). Plain
 * node:http: the worker loads no web framework. Anything else is a 404.
 */
export async function serveMetrics(registry: Registry, opts: { host: string; port: number; log: { warn(obj: object, msg: string): void } }): Promise<MetricsServer> {
  const processFigures = processMetrics();
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url !== '/metrics' && !req.url?.startsWith('/metrics?'))) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics\n');
      return;
    }
    Promise.all([processFigures.metrics(), registry.metrics()]).then(
      ([own, app]) => res.writeHead(200, { 'content-type': registry.contentType }).end(own + app),
      (err: unknown) => {
        opts.log.warn({ err }, 'metrics: a scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
