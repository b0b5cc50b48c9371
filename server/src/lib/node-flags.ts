/**
 * The Node and V8 options every server process starts with, on its command line (V8 flags cannot
 * go in NODE_OPTIONS): `npm start`, `npm run serve` and `npm run worker` (package.json), the image
 * (Dockerfile's CMD) and docker-compose's worker, the processes the tests run as production does
 * (`startCluster`) and the bench's servers, the bare ones included. Set there, they are in force
 * before V8 runs a line of the server, which a flag set from inside the process is not.
 * `server/test/platform/node-flags.test.ts` starts each of those commands and reads the flags of
 * the process it runs.
 *
 * Allocation-site pretenuring off: V8 watches which allocation sites' objects survive young
 * collections and, past a threshold, allocates everything from such a site straight in the old
 * generation. A server's start (compiling the routes' schemas, checking the migrations, seeding a
 * new database) and any bulk read teach it that the sites of pg's rows, dates and the like make
 * long-lived objects; from then on every request's rows land in the old generation, and each
 * young collection takes 2–2.5× as long. Measured here (a CPU profile and the GC's own timings
 * over 20 000 requests, the bench's app against the same server with this off): the admin users
 * list 184–190 µs of CPU a request against 159–171, the plans list 91–101 against 87; a bare
 * Fastify + pg server is the same either way. Everything a request allocates is short-lived, so
 * the heuristic has nothing to win in a process like this one.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];
