import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressFile } from '@app/widget-build/precompress';
import { createTestApp, type TestApp } from '../support/index.ts';

/** A built widget: its entry, a content-hashed chunk (both compressed at build), a file too small to compress. */
const widgetsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-static-'));
const dist = path.join(widgetsDir, 'demo', 'dist');
const CHUNK = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${String(i)}, title: "Строка ${String(i)}" }`).join(', ')}];\n`;
const ENTRY = `export async function init() {}\nexport async function get() { return import('./assets/mount-abcd1234.js'); }\n${'// glue\n'.repeat(200)}`;
const TINY = 'export{a}from"./b.js";';

let t: TestApp;
beforeAll(async () => {
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'remoteEntry.js'), ENTRY);
  fs.writeFileSync(path.join(dist, 'assets', 'mount-abcd1234.js'), CHUNK);
  fs.writeFileSync(path.join(dist, 'assets', 'facade-abcd1234.js'), TINY);
  for (const f of ['remoteEntry.js', 'assets/mount-abcd1234.js', 'assets/facade-abcd1234.js']) await precompressFile(path.join(dist, f));
  fs.writeFileSync(path.join(dist, 'widget.json'), JSON.stringify({ name: 'demo', entry: '/widgets/demo/remoteEntry.js?v=1', remote: 'ns_demo', preload: [], version: '1', builtAt: '2026-01-01T00:00:00.000Z' }));
  t = await createTestApp({ env: { WIDGETS_DIR: widgetsDir }, workers: false });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(widgetsDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) => t.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

const decode = (body: Buffer, encoding: string | undefined) =>
  (encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body).toString('utf8');

describe('compressed copies written at build time', () => {
  it('a chunk gets a Brotli and a gzip copy, each smaller than it; a file that would not shrink gets none', () => {
    const size = (f: string) => fs.statSync(path.join(dist, f)).size;
    expect(size('assets/mount-abcd1234.js.br')).toBeLessThan(size('assets/mount-abcd1234.js.gz'));
    expect(size('assets/mount-abcd1234.js.gz')).toBeLessThan(size('assets/mount-abcd1234.js'));
    expect(fs.existsSync(path.join(dist, 'assets', 'facade-abcd1234.js.br'))).toBe(false);
    expect(fs.existsSync(path.join(dist, 'assets', 'facade-abcd1234.js.gz'))).toBe(false);
  });

  it('a copy left from an earlier build of a file that no longer shrinks is removed', async () => {
    const file = path.join(widgetsDir, 'rebuilt.js');
    fs.writeFileSync(file, CHUNK);
    await precompressFile(file);
    expect(fs.existsSync(`${file}.br`)).toBe(true);
    fs.writeFileSync(file, TINY);
    await precompressFile(file);
    expect(fs.existsSync(`${file}.br`)).toBe(false);
    expect(fs.existsSync(`${file}.gz`)).toBe(false);
  });

  it("the loader's build compresses its scripts and styles", () => {
    const loaderFiles = fs.readdirSync(t.config.loaderDir).filter((f) => /^(host-.+\.js|loader\.css)$/.test(f));
    expect(loaderFiles.length).toBeGreaterThan(3);
    for (const f of loaderFiles) {
      const raw = fs.statSync(path.join(t.config.loaderDir, f)).size;
      if (raw > 1024) expect(fs.statSync(path.join(t.config.loaderDir, `${f}.br`)).size, f).toBeLessThan(raw);
    }
  });
});

describe('a widget file is sent in the encoding the browser accepts', () => {
  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate, br;q=1', 'br'],
    ['gzip', 'gzip'],
    ['deflate', undefined],
    ['identity', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %s → %s', async (accept, encoding) => {
    const res = await get('/widgets/demo/assets/mount-abcd1234.js', accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode(res.rawPayload, encoding)).toBe(CHUNK);
  });

  it('the entry keeps its no-cache and is compressed too', async () => {
    const res = await get('/widgets/demo/remoteEntry.js?v=1', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(decode(res.rawPayload, 'br')).toBe(ENTRY);
  });

  it('a file with no compressed copy is sent as it is', async () => {
    const res = await get('/widgets/demo/assets/facade-abcd1234.js', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(TINY);
  });

  it("the loader's chunks and styles too", async () => {
    const css = await get('/assets/loader.css', 'br');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(decode(css.rawPayload, 'br')).toBe(fs.readFileSync(path.join(t.config.loaderDir, 'loader.css'), 'utf8'));
  });

  it('the site’s icons are PNG, kept a day', async () => {
    for (const [url, size] of [['/assets/favicon-32.png', 32], ['/assets/apple-touch-icon.png', 180]] as const) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('image/png');
      expect(res.headers['cache-control'], url).toBe('public, max-age=86400');
      // The PNG's own width and height (IHDR).
      expect([res.rawPayload.readUInt32BE(16), res.rawPayload.readUInt32BE(20)], url).toEqual([size, size]);
    }
  });

  it('missing files and paths that leave the folder are 404, whatever the encoding', async () => {
    for (const url of ['/widgets/demo/assets/none.js', '/widgets/demo/..%2f..%2fwidget.json', '/widgets/demo/assets/../../../etc/passwd', '/assets/none.js', '/widgets/Demo/remoteEntry.js']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-encoding'], url).toBeUndefined();
    }
  });
});

describe("the build's scripts and styles carry a file's headers, not a document's", () => {
  const DOCUMENT_ONLY = ['content-security-policy', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];

  it('a widget’s entry and chunk, the loader and its styles: no sniffing and same-origin only, without CSP or framing rules', async () => {
    for (const url of ['/widgets/demo/remoteEntry.js?v=1', '/widgets/demo/assets/mount-abcd1234.js', '/assets/loader.js', '/assets/loader.css?v=1']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(res.headers['x-powered-by'], url).toBeUndefined();
      for (const name of DOCUMENT_ONLY) expect(res.headers[name], `${url} ${name}`).toBeUndefined();
    }
  });

  it('pages, files of the build that are not scripts or styles, and the error pages a script’s address may answer keep the document’s headers', async () => {
    for (const url of ['/login', '/widgets/demo/widget.json', '/assets/favicon-32.png', '/widgets/demo/remoteEntry.json', '/assets/loader.js.html', '/assets/nope.js', '/widgets/demo/assets/nope.css', '/assets/%2e%2e/x.js', '/widgets/demo.js', '/widgets/x/..%2f..%2fx.js']) {
      const res = await get(url);
      expect(res.headers['content-type'], url).not.toMatch(/javascript|css/);
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });
});
