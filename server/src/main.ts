import { buildApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { ConfigError } from './config.ts';
import { createContext, startContext, stopContext } from './composition.ts';
import { surviveDatabaseLoss } from './lib/database-loss.ts';

/** How long a stopping server lets the chat answers it is writing finish before it stops them. */
const SHUTDOWN_GRACE_MS = 20_000;

/** Starts the web server, with the job workers unless RUN_WORKERS=false, on the embedded default or DATABASE_URL. */
async function main(): Promise<void> {
  const runtime = await bootstrap();
  surviveDatabaseLoss(runtime.log);
  const { config } = runtime;
  const ctx = createContext(runtime);
  const app = await buildApp(ctx);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 15_000);
    timer.unref();
    try {
      // A redeploy: no new connections (a proxy sends new requests to the other processes), the
      // answers being written finish (or, after the grace, are stopped and kept as far as they
      // went), requests under way end, then the rest closes.
      app.server.close();
      await ctx.chatRuns.drain(SHUTDOWN_GRACE_MS);
      await app.close();
      await stopContext(ctx);
      await runtime.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await startContext(ctx, { work: config.runWorkers });
  // One line for each address it listens on: where people open it (PUBLIC_URL), and what it runs on.
  const setup = `payments: ${config.cloudpayments.sandbox ? 'sandbox' : 'CloudPayments'}; mail: ${config.smtpUrl ? 'SMTP' : `files in ${config.dataDir}/mail`}; job workers: ${config.runWorkers ? 'in this process' : 'apart (RUN_WORKERS=false)'}`;
  await app.listen({ host: config.host, port: config.port, listenTextResolver: (address) => `Нейростудия is running at ${config.publicUrl} (listening on ${address}; ${setup})` });
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
