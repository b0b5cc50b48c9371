import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What a browser gets compressed: scripts, styles and vector images. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json)$/;

/** Each compressed copy written beside a file, by the suffix the server looks for (`@fastify/static`'s `preCompressed`). */
const ENCODERS: Record<'.br' | '.gz', (source: Buffer) => Promise<Buffer>> = {
  '.br': (source) =>
    brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
  '.gz': (source) => gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
};

/** A compressed copy's original (`host-boot-x.js.br` → `host-boot-x.js`); any other name unchanged. */
export const originalOf = (file: string) => {
  const suffix = Object.keys(ENCODERS).find((s) => file.endsWith(s));
  return suffix ? file.slice(0, -suffix.length) : file;
};

/**
 * Writes `file.br` (Brotli, best) and `file.gz` (gzip, best) beside `file`, each only when it is
 * smaller than the file; a copy left from an earlier build of the same name is removed otherwise.
 */
export async function precompressFile(file: string): Promise<void> {
  const source = await fs.promises.readFile(file);
  await Promise.all(
    Object.entries(ENCODERS).map(async ([suffix, encode]) => {
      const copy = await encode(source);
      await (copy.length < source.length ? fs.promises.writeFile(`${file}${suffix}`, copy) : fs.promises.rm(`${file}${suffix}`, { force: true }));
    }),
  );
}

/**
 * Compressed copies of a build's scripts and styles, written once at build time: the server sends
 * the one a browser accepts (`Content-Encoding: br` or `gzip`) without compressing per request.
 */
export function precompress(): Plugin {
  return {
    name: 'precompress',
    // Not for a development build (`npm run dev`'s loader, served from localhost): Brotli's best on
    // React's development build takes most of that build's time, for a copy nobody needs.
    apply: (_config, env) => env.command === 'build' && env.mode !== 'development',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      await Promise.all(
        Object.keys(bundle)
          .filter((f) => COMPRESSIBLE.test(f))
          .map((f) => precompressFile(path.join(outDir, f))),
      );
    },
  };
}
