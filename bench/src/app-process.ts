import { startServer } from './server.ts';

/**
 * The real app as its own process for the speed bench (a load generator sharing its event loop
 * would distort what is measured): prints one JSON line with its address, database and user
 * token, and runs until SIGTERM.
 */
// The chat bench's fake provider key, for the connection it adds (keys come from *_API_KEY variables),
// with the fake's host:port as the key's host and as an allowed private host (it listens on 127.0.0.1).
const key = process.env.BENCH_PROVIDER_API_KEY;
const host = process.env.BENCH_PROVIDER_HOST;
// The streams bench raises the per-user limit of open event streams for its measurement.
const streams = process.env.SSE_STREAMS_PER_USER;
const server = await startServer(
  {
    ...(key && host ? { BENCH_PROVIDER_API_KEY: key, BENCH_PROVIDER_API_KEY_HOSTS: host, PROVIDER_PRIVATE_HOSTS: host } : {}),
    ...(streams ? { SSE_STREAMS_PER_USER: streams } : {}),
  },
  { customers: 400 },
);
process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, databaseUrl: server.databaseUrl, token: server.user.token, unconfirmedToken: server.unconfirmed.token, adminToken: server.admin.token })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
