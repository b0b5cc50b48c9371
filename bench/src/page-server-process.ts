import path from 'node:path';

/**
 * The app of the source tree `BENCH_TREE` (this repository, or another commit's tree that the
 * mount-time bench extracted) as its own process, on a scratch database with one user: prints one
 * JSON line with its address and the user's session cookie, and runs until SIGTERM.
 */
const tree = process.env.BENCH_TREE ?? path.resolve(import.meta.dirname, '../..');
const { startServer } = (await import(path.join(tree, 'bench', 'src', 'server.ts'))) as typeof import('./server.ts');
const server = await startServer({}, { customers: 0 });
process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, cookie: server.user.cookie, token: server.user.token })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
