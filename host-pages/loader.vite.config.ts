import path from 'node:path';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

/**
 * The browser loader: `loader.js` imports its boot chunk (React, ReactDOM, the kit with the
 * query client, the contracts' browser entry); the host modules only some widgets use (forms,
 * dialog, tabs…) are chunks beside it, fetched when a widget imports them.
 */
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
    modulePreload: false,
    rolldownOptions: {
      input: { loader: path.join(root, 'loader/loader.ts') },
      output: { entryFileNames: 'loader.js', chunkFileNames: 'host-[name]-[hash].js', assetFileNames: 'loader[extname]' },
      // TanStack Query's modules start with "use client", which means nothing here.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
