import { bootstrap } from './bootstrap.ts';
import { createContext, startContext, stopContext } from './context.ts';

/**
 * Runs the job workers alone (mail, payment jobs, renewals in the sandbox, expiry, Telegram
 * polling), so web processes (RUN_WORKERS=false) and workers scale apart. It builds only the
 * application context: no HTTP app, no pages, no API documentation.
 */
const runtime = await bootstrap({ seed: false });
const ctx = createContext(runtime);
await startContext(ctx, { work: true });
ctx.log.info('workers are running');
let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await stopContext(ctx);
  await runtime.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
