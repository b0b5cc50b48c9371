import http from 'node:http';
import { sql } from 'kysely';
import { bootstrap } from './bootstrap.ts';
import { createContext, startContext, stopContext } from './composition.ts';
import { surviveDatabaseLoss } from './lib/database-loss.ts';

/**
 * Runs the job workers alone (mail, payment jobs, renewals in the sandbox, expiry, Telegram
 * polling), so web processes (RUN_WORKERS=false) and workers scale apart. It builds only the
 * application context: no HTTP app, no pages, no API documentation.
 */
const runtime = await bootstrap({ seed: false });
surviveDatabaseLoss(runtime.log);
const ctx = createContext(runtime);
await startContext(ctx, { work: true });
ctx.log.info('workers are running');

// Health for orchestrators (WORKER_HEALTH_PORT): /healthz says the process runs, /readyz that it
// reaches the database. Plain node:http: the worker loads no web framework.
const health = runtime.config.workerHealthPort
  ? http
      .createServer((req, res) => {
        const answer = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
        if (req.url === '/healthz') return answer(200, '{"status":"ok"}');
        if (req.url !== '/readyz') return answer(404, '{"status":"not found"}');
        sql`select 1`.execute(ctx.db).then(
          () => answer(200, '{"status":"ok"}'),
          () => answer(503, '{"status":"unavailable"}'),
        );
      })
      .listen(runtime.config.workerHealthPort, runtime.config.host)
  : null;
let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  health?.close();
  await stopContext(ctx);
  await runtime.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
