import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp, { type Sharp } from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FileKind } from '@app/contracts';
import { REPO_ROOT } from '../../src/config.ts';

/*
 * The budget of picture checks is only as good as `imageCost`: for every encoding that makes a
 * decoder (or the turn EXIF asks for) hold a picture whole, a 10-megapixel picture is checked alone
 * in a fresh process (image-cost-probe.ts) and the memory it took must be within the estimate.
 */

const PROBE = path.join(REPO_ROOT, 'server', 'test', 'support', 'image-cost-probe.ts');
const DIR = path.join(os.tmpdir(), 'ns-test-images', 'cost-v1');
const [WIDTH, HEIGHT] = [4000, 2500];

/** A 10-megapixel RGBA gradient with a half-transparent corner, drawn once. */
const base = async () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${String(WIDTH)}" height="${String(HEIGHT)}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3a6"/><stop offset="1" stop-color="#a36" stop-opacity="0.6"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="2000" cy="1250" r="800" fill="#fc3"/></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return () => sharp(data, { raw: info });
};

/** An animation of eight 500×500 frames. */
async function animation(): Promise<Sharp> {
  const frames = await Promise.all(Array.from({ length: 8 }, (_, i) => sharp({ create: { width: 500, height: 500, channels: 4, background: { r: 30 * i, g: 120, b: 200, alpha: 1 } } }).raw().toBuffer()));
  return sharp(Buffer.concat(frames), { raw: { width: 500, height: 4000, channels: 4, pageHeight: 500 } });
}

const CASES: { name: string; kind: FileKind; make: (rgba: () => Sharp) => Promise<Buffer> }[] = [
  { name: 'a progressive JPEG (4:2:0)', kind: 'jpeg', make: (p) => p().removeAlpha().jpeg({ progressive: true }).toBuffer() },
  { name: 'a progressive JPEG (4:4:4) on its side', kind: 'jpeg', make: (p) => p().removeAlpha().withMetadata({ orientation: 6 }).jpeg({ progressive: true, chromaSubsampling: '4:4:4' }).toBuffer() },
  { name: 'a baseline JPEG upside down', kind: 'jpeg', make: (p) => p().removeAlpha().withMetadata({ orientation: 3 }).jpeg().toBuffer() },
  { name: 'a progressive CMYK JPEG', kind: 'jpeg', make: (p) => p().removeAlpha().toColourspace('cmyk').jpeg({ progressive: true }).toBuffer() },
  { name: 'an interlaced 16-bit PNG with alpha', kind: 'png', make: (p) => p().toColourspace('rgb16').png({ progressive: true }).toBuffer() },
  { name: 'a PNG with alpha on its side (eXIf)', kind: 'png', make: (p) => p().withMetadata({ orientation: 6 }).png().toBuffer() },
  { name: 'a lossless WebP', kind: 'webp', make: (p) => p().webp({ lossless: true, effort: 0 }).toBuffer() },
  { name: 'a lossy WebP with alpha', kind: 'webp', make: (p) => p().webp({ quality: 80, effort: 0 }).toBuffer() },
  { name: 'an animated GIF', kind: 'gif', make: async () => (await animation()).gif({ delay: Array<number>(8).fill(100) }).toBuffer() },
];

const fileOf = (name: string) => path.join(DIR, `${name.replace(/[^a-z0-9]+/gi, '-')}.bin`);

beforeAll(async () => {
  fs.mkdirSync(DIR, { recursive: true });
  const missing = CASES.filter((c) => !fs.existsSync(fileOf(c.name)));
  if (!missing.length) return;
  const rgba = await base();
  for (const c of missing) {
    // Written aside and renamed into place, so a run beside this one reads whole files only.
    const temporary = `${fileOf(c.name)}.${String(process.pid)}.tmp`;
    fs.writeFileSync(temporary, await c.make(rgba));
    fs.renameSync(temporary, fileOf(c.name));
  }
}, 180_000);

const run = promisify(execFile);

describe('what checking a picture costs, against imageCost', () => {
  it.each(CASES)('$name: within the estimate', { timeout: 120_000 }, async ({ name, kind }) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', PROBE, fileOf(name), kind], { cwd: REPO_ROOT, maxBuffer: 1024 * 1024 });
    const { ok, used, estimate } = JSON.parse(stdout) as { ok: boolean; used: number; estimate: number };
    expect(ok).toBe(true);
    expect(used, `${String(Math.round(used / 2 ** 20))} MB used, ${String(Math.round(estimate / 2 ** 20))} MB estimated`).toBeLessThanOrEqual(estimate);
  });
});
