import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, csrfPair, trickle, type TestApp } from '../support/index.ts';

/*
 * A process reached directly (not through nginx) bounds a slow request too: headers that do not
 * arrive in HTTP_HEADERS_TIMEOUT_SECONDS, or a request whose body has not arrived whole in
 * HTTP_REQUEST_TIMEOUT_SECONDS, end with 408 and a closed connection, however steadily the client
 * trickles bytes. (Set short here; the defaults are 15 s and 300 s.)
 */

let t: TestApp;
/** A sign-in that passes every check before its body (the CSRF pair echoed), declaring 100 000 bytes of body. */
let LOGIN_HEAD = '';
beforeAll(async () => {
  t = await createTestApp({ workers: false, env: { HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '2' } });
  await t.listen();
  const { cookie, header } = await csrfPair(t.app);
  LOGIN_HEAD = `POST /api/new/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nCookie: XSRF-TOKEN=${cookie}\r\nX-XSRF-TOKEN: ${header}\r\nContent-Length: 100000\r\n\r\n`;
});
afterAll(() => t.close());

describe('a slow client of a process', () => {
  it('a body trickled a byte at a time is cut off with 408 when the request time runs out', async () => {
    const slow = trickle(t.baseUrl, { head: LOGIN_HEAD, intervalMs: 200 });
    const started = Date.now();
    expect(await slow.ended).toBe(408);
    const took = Date.now() - started;
    // Not before the bound (Node checks every half second here, so a little after it).
    expect(took).toBeGreaterThanOrEqual(2000);
  });

  it('headers trickled a byte at a time are cut off too', async () => {
    const slow = trickle(t.baseUrl, { head: 'GET /api/new/tariff HTTP/1.1\r\nX-Slow: ', intervalMs: 200 });
    const started = Date.now();
    expect(await slow.ended).toBe(408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('an ordinary request on the same process is answered meanwhile', async () => {
    const slow = trickle(t.baseUrl, { head: LOGIN_HEAD, intervalMs: 200 });
    try {
      const res = await fetch(`${t.baseUrl}/api/new/tariff?frontend=1`);
      expect(res.status).toBe(200);
    } finally {
      slow.stop();
    }
  });

  it('refuses a headers timeout longer than the request timeout at start, naming it', async () => {
    const { loadConfig } = await import('../../src/config.ts');
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '60', HTTP_REQUEST_TIMEOUT_SECONDS: '30' })).toThrow(/HTTP_HEADERS_TIMEOUT_SECONDS: must not exceed HTTP_REQUEST_TIMEOUT_SECONDS/);
  });
});
