import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_FILE } from './index.ts';
import { BUILD_ENV, VITE } from './test-build.ts';

/*
 * The chunking the pages' budgets expect of every widget (`bench/src/budgets.ts`): a page fetches
 * three files a widget — `remoteEntry.js`, one chunk of federation glue (the share map and the
 * runtime's shim, `FEDERATION_GLUE_GROUP`) and the exposed module — and the glue stays within
 * 9 KB gz. The group names modules of `@module-federation/vite`, which is pinned exactly: an
 * upgrade that renames them fails here, not silently in a page's request count.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..', 'history-button');
let outDir = '';
let manifest: { entry: string; preload: string[] };
let glue: string[];
let files: string[];

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-chunking-'));
  // The smallest widget, built as `npm run build` builds it (its own process, in its folder), into a folder of its own.
  const built = spawnSync(process.execPath, [VITE, 'build', '--configLoader', 'runner', '--outDir', outDir], { cwd: ROOT, encoding: 'utf8', env: BUILD_ENV });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  manifest = JSON.parse(fs.readFileSync(path.join(outDir, 'widget.json'), 'utf8')) as typeof manifest;
  const [builds] = JSON.parse(fs.readFileSync(path.join(outDir, '.builds.json'), 'utf8')) as { files: string[]; glue: string[] }[];
  glue = builds?.glue ?? [];
  files = builds?.files ?? [];
}, 120_000);

afterAll(() => {
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

const read = (file: string) => fs.readFileSync(path.join(outDir, file), 'utf8');
const base = '/widgets/history-button/';

describe('a widget’s build', () => {
  it('uses the federation plugin at the exact version its chunk group was written for', () => {
    for (const pkg of ['build-config', '../host-pages']) {
      const json = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', pkg, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
      expect(json.dependencies['@module-federation/vite']).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it('is fetched by a page as three files: its entry, one chunk of federation glue and its exposed module', () => {
    const preloaded = manifest.preload.map((url) => url.slice(base.length));
    expect(manifest.entry.startsWith(`${base}${ENTRY_FILE}?v=`)).toBe(true);
    expect(preloaded).toHaveLength(2);
    const glueChunks = preloaded.filter((f) => glue.includes(f));
    expect(glueChunks).toEqual([expect.stringMatching(/^assets\/federation-[\w-]+\.js$/)]);
    expect(preloaded.filter((f) => !glue.includes(f))).toEqual([expect.stringMatching(/^assets\/mount-[\w-]+\.js$/)]);
  });

  it('puts the share map and the federation runtime’s shim together in the glue chunk', () => {
    const chunk = manifest.preload.map((url) => url.slice(base.length)).find((f) => glue.includes(f)) ?? '';
    const code = read(chunk);
    // The share map names the modules the page supplies; the shim hands over the page's runtime.
    expect(code).toContain('@app/kit');
    expect(code).toContain('react');
    expect(code).toMatch(/__FEDERATION__|_FEDERATION_/);
    // Nothing else the entry preloads carries either of them.
    for (const other of manifest.preload.map((url) => url.slice(base.length)).filter((f) => f !== chunk)) expect(read(other)).not.toMatch(/__FEDERATION__|_FEDERATION_/);
  });

  it('keeps the glue a page loads within 9 KB gz', () => {
    const loaded = [ENTRY_FILE, ...manifest.preload.map((url) => url.slice(base.length))].filter((f) => f === ENTRY_FILE || glue.includes(f));
    const gz = loaded.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(outDir, f))).length, 0);
    expect(files).toContain(ENTRY_FILE);
    expect(gz / 1024).toBeLessThanOrEqual(9);
  });
});
