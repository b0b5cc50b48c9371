import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The loader's build as pages load it (`npm test` builds it first): its boot chunk runs without
 * React, so on a slow link the federation runtime and the contracts evaluate and the widgets'
 * remotes start while React's chunk — the page's largest file — is still arriving.
 */
const DIST = path.resolve(import.meta.dirname, '../../../host-pages/dist');
const read = (file: string) => fs.readFileSync(path.join(DIST, file), 'utf8');
/** The files a chunk imports statically (`import … from"./x.js"`, `import"./x.js"`), not its `import()`s. */
const staticImports = (code: string) => [...code.matchAll(/(?:from|import)\s*["'`]\.\/([\w.-]+\.js)["'`]/g)].map((m) => m[1] ?? '');
/** The chunk and every file it needs before it can run. */
function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imported of staticImports(read(file))) closure(imported, seen);
  return seen;
}
const REACT_CODE = 'react.transitional.element';

describe('the loader’s build', () => {
  const { preload, preloadLast } = JSON.parse(read('loader.json')) as { preload: string[]; preloadLast: string[] };
  const asFile = (url: string) => url.replace(/^\/assets\//, '');
  const first = preload.map(asFile);
  const last = preloadLast.map(asFile);
  const files = [...first, ...last];
  const boot = first.find((f) => /^host-boot-[\w-]+\.js$/.test(f)) ?? '';
  const react = last.find((f) => /^host-react-[\w-]+\.js$/.test(f)) ?? '';

  it('links a boot chunk and a React chunk, and nothing else but the bundler’s runtime', () => {
    expect(boot).not.toBe('');
    expect(react).not.toBe('');
    expect(files.filter((f) => f !== boot && f !== react).every((f) => /^host-rolldown-runtime-[\w-]+\.js$/.test(f))).toBe(true);
  });

  it('lists what loader.js imports first and React’s chunk, which it imports on demand, apart (pages link React’s last)', () => {
    expect(first).toEqual([...closure('loader.js')].filter((f) => f !== 'loader.js').sort());
    expect(last).not.toContain(boot);
    expect(new Set([...first, ...last]).size).toBe(files.length);
  });

  it('runs its boot chunk without React: nothing it needs first holds React’s code', () => {
    const needed = closure(boot);
    expect(needed.has(react)).toBe(false);
    for (const file of needed) expect(read(file), file).not.toContain(REACT_CODE);
    expect(read(react)).toContain(REACT_CODE);
  });

  it('starts the boot and React’s chunk from loader.js side by side, and loader.js holds nothing another chunk imports', () => {
    const loader = read('loader.js');
    expect(staticImports(loader)).toEqual([boot]);
    expect(loader).toMatch(new RegExp(`import\\(\\s*["'\`]\\./${react.replace(/[.-]/g, '\\$&')}["'\`]\\s*\\)`));
    expect(loader).not.toMatch(/\bexport\s*\{/);
    for (const file of fs.readdirSync(DIST).filter((f) => /^host-.+\.js$/.test(f))) expect(staticImports(read(file)), file).not.toContain('loader.js');
  });

  it('leaves out the federation runtime’s remote preloading, which nothing on a page calls', () => {
    expect(read(boot)).toContain('preloadRemote is not supported');
    // The runtime's own preloading adds `<link rel="modulepreload">`s for a remote's exposed modules.
    expect(read(boot)).not.toMatch(/rel:\s*["'`]modulepreload/);
  });
});
