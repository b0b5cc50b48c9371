import { startServer } from './server.ts';

/**
 * The real app as its own process for the speed bench (a load generator sharing its event loop
 * would distort what is measured): prints one JSON line with its address, database and user
 * token, and runs until SIGTERM.
 */
// The chat bench's fake provider key, for the connection it adds (keys come from *_API_KEY variables).
const key = process.env.BENCH_PROVIDER_API_KEY;
// The streams bench raises the per-user limit of open event streams for its measurement.
const streams = process.env.SSE_STREAMS_PER_USER;
const server = await startServer({ ...(key ? { BENCH_PROVIDER_API_KEY: key } : {}), ...(streams ? { SSE_STREAMS_PER_USER: streams } : {}) }, { customers: 400 });
process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, databaseUrl: server.databaseUrl, token: server.user.token, adminToken: server.admin.token })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
