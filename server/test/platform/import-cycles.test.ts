import path from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/config.ts';

/*
 * No import circle among the server's files, type-only imports included: the context is a type
 * (`context.ts`) that services import, and the one module that imports the classes and jobs to
 * build it (`composition.ts`) is imported by the entry points alone.
 */
describe('the server’s imports', () => {
  it('form no cycle', async () => {
    const graph = await madge(path.join(REPO_ROOT, 'server/src'), { fileExtensions: ['ts'], tsConfig: path.join(REPO_ROOT, 'tsconfig.node.json') });
    const modules = graph.obj();
    // The walk resolved the tree (relative imports with their `.ts`): a graph it could not read has no cycle either.
    expect(Object.keys(modules).length).toBeGreaterThan(150);
    expect(modules['features/chat/chat.service.ts']).toContain('context.ts');
    expect(graph.warnings().skipped.filter((name) => name.startsWith('.'))).toEqual([]);
    expect(graph.circular().map((cycle) => cycle.join(' → '))).toEqual([]);
  }, 120_000);
});
