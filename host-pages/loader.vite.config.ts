import path from 'node:path';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

/** The browser loader: React, ReactDOM, zod and the federation runtime in one file, no splitting. */
export default defineConfig({
  root,
  logLevel: 'warn',
  // Static assets (news card icons) are copied next to the loader and served under /assets/.
  publicDir: path.join(root, 'public'),
  build: {
    outDir: path.join(root, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      input: { loader: path.join(root, 'loader/loader.ts') },
      output: { entryFileNames: 'loader.js', assetFileNames: 'loader[extname]', codeSplitting: false },
    },
  },
});
