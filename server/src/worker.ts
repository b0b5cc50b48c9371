import { buildApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';

/**
 * Runs the job workers alone (mail, renewals in the sandbox, expiry, Telegram polling), so web
 * processes (RUN_WORKERS=false) and workers scale apart. Serves no HTTP.
 */
const runtime = await bootstrap({ seed: false });
const app = await buildApp({ ...runtime, config: { ...runtime.config, runWorkers: true }, loggerInstance: runtime.log });
await app.ready();
app.log.info('workers are running');
let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await app.close();
  await runtime.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
