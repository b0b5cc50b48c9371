import { startServer } from './server.ts';

/**
 * The real app as its own process for the speed bench (a load generator sharing its event loop
 * would distort what is measured): prints one JSON line with its address, database and user
 * token, and runs until SIGTERM.
 */
const server = await startServer();
process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, databaseUrl: server.databaseUrl, token: server.user.token })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
