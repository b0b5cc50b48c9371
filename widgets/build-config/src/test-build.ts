import path from 'node:path';

/** vite's CLI, as `npm run build` runs it for each widget. */
export const VITE = path.resolve(import.meta.dirname, '..', '..', '..', 'node_modules', 'vite', 'bin', 'vite.js');

/** The environment `npm run build` has: none of the test runner's variables (under `VITEST` the federation plugin shares nothing). */
export const BUILD_ENV = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))), NODE_ENV: 'production' };
