import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { originalOf } from '@app/widget-build/precompress';
import { buildWidget, openPage, pageManifest, setupE2E } from './support/index.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');

// The app serves widgets from a scratch copy, so rebuilding one never touches the repository.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-e2e-widgets-'));
const widgetsDir = path.join(scratch, 'widgets');
const authCopy = path.join(widgetsDir, 'auth');
fs.mkdirSync(widgetsDir);
// Packages resolve from the scratch copy through the repository's node_modules.
fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
fs.cpSync(path.join(REPO_ROOT, 'widgets', 'auth'), authCopy, {
  recursive: true,
  filter: (src) => !/[/\\](node_modules|dist)$/.test(src),
});

const e2e = setupE2E({ env: { WIDGETS_DIR: widgetsDir } });
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const buildCopy = async () => {
  const result = await buildWidget(authCopy);
  if (!result.ok) throw new Error(`the build of the auth copy failed:\n${result.output}`);
};

/** Replaces a text in the copy's sources; fails if no source file has it. */
function editCopy(from: string, to: string): void {
  const dir = path.join(authCopy, 'src');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.tsx') && !f.includes('.test.') && !f.includes('.stories.'));
  const file = files.find((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes(from));
  if (!file) throw new Error(`no source of the auth widget contains "${from}"`);
  const full = path.join(dir, file);
  fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(from, to));
}

describe('a widget rebuilt alone', () => {
  it('is served on the next page load without restarting the server', async () => {
    await buildCopy();
    const page = await e2e.newPage();
    await openPage(page, e2e.url('/login'));
    const before = (await pageManifest(page)).auth;
    expect(before?.entry).toContain(`v=${before?.version ?? ''}`);
    const subtitle = (await page.locator('.card__subtitle').first().textContent())?.trim() ?? '';
    expect(subtitle).not.toBe('');

    const changed = `${subtitle} (новая сборка)`;
    editCopy(subtitle, changed);
    await buildCopy();

    await openPage(page, e2e.url('/login'));
    const after = (await pageManifest(page)).auth;
    expect(after?.version).toBeDefined();
    expect(after?.version).not.toBe(before?.version);
    await page.getByText(changed).waitFor();
    // The browser fetched the new entry, not a cached old one.
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name));
    expect(scripts.some((name) => name.endsWith(after?.entry ?? '-'))).toBe(true);
  });

  it("keeps the previous build's chunks with their compressed copies and removes older ones with theirs", async () => {
    const dist = path.join(authCopy, 'dist');
    const builds = () => (JSON.parse(fs.readFileSync(path.join(dist, '.builds.json'), 'utf8')) as { version: string; files: string[] }[]).map((b) => b.files.filter((f) => f.startsWith('assets/')));
    const [older] = builds();
    editCopy('(новая сборка)', '(третья сборка)');
    await buildCopy();
    const kept = builds();
    expect(kept).toHaveLength(2);
    const assets = fs.readdirSync(path.join(dist, 'assets')).map((f) => `assets/${f}`);
    const keptFiles = new Set(kept.flat());
    // Every file is one of the two builds' or a compressed copy of one; each kept chunk has its Brotli copy.
    for (const file of assets) expect(keptFiles.has(originalOf(file)), file).toBe(true);
    for (const file of keptFiles) if (file.endsWith('.js') && fs.statSync(path.join(dist, file)).size > 1024) expect(assets, file).toContain(`${file}.br`);
    for (const file of (older ?? []).filter((f) => !keptFiles.has(f))) {
      expect(assets).not.toContain(file);
      expect(assets).not.toContain(`${file}.br`);
      expect(assets).not.toContain(`${file}.gz`);
    }
    expect((older ?? []).some((f) => !keptFiles.has(f))).toBe(true);
  });
});
