import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, NGINX_TEMPLATE, startNginx, trickle, type Nginx, type Trickle } from '../support/index.ts';

/*
 * The repository's nginx configuration in front of two processes: a request that reached a
 * process and was answered by it is that process's answer. A 503 (the database unavailable to it,
 * so to the other too) is not tried again on the other process: the request may have done part
 * of its work (a GET that starts a payment makes an invoice, a DELETE that cancels a plan calls
 * CloudPayments first), and a database outage would cost every request twice the wait.
 */

interface Upstream {
  server: http.Server;
  port: number;
  seen: string[];
}

async function upstream(status: number): Promise<Upstream> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: status === 200 ? 'success' : 'error' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, seen };
}

let failing: Upstream;
let healthy: Upstream;
let nginx: Nginx;
let dir: string;
beforeAll(async () => {
  [failing, healthy] = await Promise.all([upstream(503), upstream(200)]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-nginx-'));
  nginx = await startNginx({ dir, listen: await freePort(), upstreams: [failing.port, healthy.port], waitForHealth: false });
});
afterAll(async () => {
  await nginx.stop();
  for (const u of [failing, healthy]) await new Promise((resolve) => u.server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('deploy/nginx/neurostudio.conf.template', () => {
  it('passes the answer of the process that answered: a 503 of any method is not sent again to the other', async () => {
    for (const u of [failing, healthy]) u.seen.length = 0;
    const methods = ['GET', 'DELETE', 'PUT', 'POST', 'PATCH'];
    const statuses: number[] = [];
    // Round robin: each method twice, so each goes to the failing process once.
    for (const method of methods) {
      for (const n of [1, 2]) {
        const res = await fetch(`${nginx.url}/api/new/x-${method}-${String(n)}`, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    }
    const reached = [...failing.seen, ...healthy.seen];
    expect(reached.length, JSON.stringify({ failing: failing.seen, healthy: healthy.seen })).toBe(methods.length * 2);
    expect(statuses.filter((s) => s === 503)).toHaveLength(failing.seen.length);
  });

  it("passes a process's compressed static file on as it is: the browser's Accept-Encoding reaches the process, the encoding and Vary come back", async () => {
    const script = `export const x = ${JSON.stringify('й'.repeat(4000))};`;
    let asked: string | undefined;
    const encoded = http.createServer((req, res) => {
      asked = req.headers['accept-encoding'];
      const br = /\bbr\b/.test(asked ?? '');
      res.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8', vary: 'accept-encoding', ...(br ? { 'content-encoding': 'br' } : {}) });
      res.end(br ? zlib.brotliCompressSync(script) : script);
    });
    await new Promise<void>((resolve) => encoded.listen(0, '127.0.0.1', resolve));
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-nginx-br-'));
    const proxy = await startNginx({ dir: own, listen: await freePort(), upstreams: [(encoded.address() as { port: number }).port], waitForHealth: false });
    try {
      const raw = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${proxy.url}/widgets/demo/assets/mount-abcd1234.js`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
      expect(asked).toBe('gzip, deflate, br');
      expect(raw.headers['content-encoding']).toBe('br');
      expect(String(raw.headers.vary)).toMatch(/accept-encoding/i);
      expect(zlib.brotliDecompressSync(raw.body).toString('utf8')).toBe(script);
    } finally {
      await proxy.stop();
      await new Promise((resolve) => encoded.close(resolve));
      fs.rmSync(own, { recursive: true, force: true });
    }
  });
});

/*
 * One address with ~1 030 slow sign-ins (Content-Length: 100000, a byte at a time, each reopened
 * as it ends) must neither take every connection of nginx nor keep another client from being
 * served: it holds at most the template's 100 requests at once, the rest are refused (429) or cut.
 */
describe('one address’s slow request bodies', () => {
  const ATTACK = 1030;
  const SECONDS = 12;
  const LIMIT = Number(/limit_conn ns_conn_per_address (\d+);/.exec(fs.readFileSync(NGINX_TEMPLATE, 'utf8'))?.[1]);

  it('hold at most the limit of connections, and another client is served meanwhile', async () => {
    const served = await upstream(200);
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-nginx-slow-'));
    const proxy = await startNginx({ dir: own, listen: await freePort(), upstreams: [served.port], waitForHealth: false });
    const attackers = new Set<Trickle>();
    let attacking = true;
    let opened = 0;
    const refused = new Map<string, number>();
    const open = () => {
      if (!attacking) return;
      opened += 1;
      const a = trickle(proxy.url, { head: 'POST /api/new/login HTTP/1.1\r\nHost: neurostudio\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n', intervalMs: 1000, localAddress: '127.0.0.1' });
      attackers.add(a);
      void a.ended.then((status) => {
        attackers.delete(a);
        refused.set(String(status ?? 'closed'), (refused.get(String(status ?? 'closed')) ?? 0) + 1);
        // Reopened as it ends, after a moment (as the attack did).
        setTimeout(open, 50);
      });
    };
    try {
      for (let i = 0; i < ATTACK; i++) open();
      const other: { status: number | string; ms: number }[] = [];
      let held = 0;
      const begun = Date.now();
      const end = begun + SECONDS * 1000;
      while (Date.now() < end) {
        // Requests nginx holds for the address: sent over two seconds ago, neither answered nor ended
        // (a fresh one may still wait for nginx to read it on this loaded machine).
        const now = performance.now();
        if (Date.now() - begun > 3000) held = Math.max(held, [...attackers].filter((a) => a.status === null && !a.closed && a.sentAt !== null && now - a.sentAt > 2000).length);
        const started = performance.now();
        const status = await new Promise<number | string>((resolve) => {
          const req = http.get(`${proxy.url}/api/new/tariff`, { localAddress: '127.0.0.2', agent: false, timeout: 20_000 }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('timeout', () => req.destroy(new Error('timeout')));
          req.on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? err.message));
        });
        other.push({ status, ms: performance.now() - started });
        await new Promise((r) => setTimeout(r, 200));
      }
      const stillHeld = [...attackers].filter((a) => a.status === null && !a.closed).length;
      const ms = other.map((o) => o.ms).sort((a, b) => a - b);
      const at = (q: number) => (ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0).toFixed(1);
      console.log(
        `one address: ${String(opened)} connections opened in ${String(SECONDS)} s, at most ${String(held)} held unanswered (${String(stillHeld)} at the end), ended: ${JSON.stringify(Object.fromEntries(refused))}; ` +
          `another client (127.0.0.2): ${String(other.length)} requests, statuses ${JSON.stringify([...new Set(other.map((o) => o.status))])}, latency p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`,
      );
      expect(other.length).toBeGreaterThan(0);
      expect(other.filter((o) => o.status !== 200)).toEqual([]);
      expect(held).toBeLessThanOrEqual(LIMIT);
      expect(refused.get('429') ?? 0).toBeGreaterThan(0);
      expect(proxy.errors()).not.toMatch(/worker_connections are not enough/);
    } finally {
      attacking = false;
      for (const a of attackers) a.stop();
      await proxy.stop();
      await new Promise((resolve) => served.server.close(resolve));
      fs.rmSync(own, { recursive: true, force: true });
    }
  }, 90_000);
});

