import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_ENV, VITE } from './test-build.ts';

/*
 * A widget's build writes each shared module's wrapper with the named exports the widget imports
 * of it (`import: false` shares). The federation plugin writes it once it believes the graph
 * parsed, by a 10 ms quiet spell; a module loaded after such a spell (a busy machine) imports an
 * export the wrapper lacks, and the build fails with MISSING_EXPORT. `sharedUsageBarrier` holds
 * the wrappers until every module reached is parsed. The fixture (`fixtures/late-usage.config.ts`)
 * loads one module of history-button only after the kit's wrapper is written.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..', 'history-button');
const CONFIG = path.join(import.meta.dirname, 'fixtures', 'late-usage.config.ts');
const outDirs: string[] = [];

/** Builds the fixture in its own process, as `npm run build` builds a widget. */
function build(withoutBarrier: boolean): Promise<{ status: number | null; output: string; outDir: string }> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-shared-usage-'));
  outDirs.push(outDir);
  const env = { ...BUILD_ENV, WITHOUT_BARRIER: withoutBarrier ? '1' : '' };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITE, 'build', '--configLoader', 'runner', '--config', CONFIG, '--outDir', outDir], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output, outDir }));
  });
}

afterAll(() => {
  for (const dir of outDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a widget’s shared-module wrappers', () => {
  it('fail the build without the barrier when a module is loaded after the wrapper is written', async () => {
    const { status, output } = await build(true);
    expect(output).toContain("late module loaded after the kit's wrapper was written: true");
    expect(status).not.toBe(0);
    expect(output).toMatch(/MISSING_EXPORT.*"EmptyState" is not exported/);
  }, 120_000);

  it('are written after every module is parsed, so they carry the late module’s imports', async () => {
    const { status, output, outDir } = await build(false);
    expect(output).toContain("late module loaded after the kit's wrapper was written: false");
    expect(status, output).toBe(0);
    const mount = fs.readdirSync(path.join(outDir, 'assets')).filter((f) => /^mount-.*\.js$/.test(f)).map((f) => fs.readFileSync(path.join(outDir, 'assets', f), 'utf8'));
    expect(mount.join('\n')).toContain('.EmptyState');
  }, 120_000);
});
