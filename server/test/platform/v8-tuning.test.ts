import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/config.ts';

/** The module specifiers of a file's static imports, in order. */
const importsOf = (file: string) => Array.from(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?'([^']+)';/gm), (m) => m[1]);

describe("the server processes' V8 settings", () => {
  it.each(['server/src/main.ts', 'server/src/worker.ts', 'bench/src/app-process.ts', 'bench/src/bare-process.ts', 'bench/src/chat-bare-process.ts'])('%s loads them before anything else', (file) => {
    const [first] = importsOf(file);
    expect(first?.endsWith('/lib/v8-tuning.ts')).toBe(true);
  });

  it('turn allocation-site pretenuring off, and nothing else', () => {
    const source = fs.readFileSync(path.join(REPO_ROOT, 'server/src/lib/v8-tuning.ts'), 'utf8');
    expect(Array.from(source.matchAll(/setFlagsFromString\('([^']*)'\)/g), (m) => m[1])).toEqual(['--no-allocation-site-pretenuring']);
  });
});
