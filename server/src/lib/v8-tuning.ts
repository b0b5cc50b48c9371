import v8 from 'node:v8';

/**
 * V8's settings for a server process, set before the rest of it loads (main.ts and worker.ts
 * import this first).
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
v8.setFlagsFromString('--no-allocation-site-pretenuring');
