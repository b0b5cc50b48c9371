import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startNginx, type Nginx } from '../support/index.ts';

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
