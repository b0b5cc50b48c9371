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
      output: {
        entryFileNames: 'loader.js',
        chunkFileNames: 'host-[name]-[hash].js',
        assetFileNames: 'loader[extname]',
        codeSplitting: {
          // A group takes the modules it names, not what they import (those follow their importers).
          includeDependenciesRecursively: false,
          groups: [
            // React in one chunk (the JSX runtime with it): one script runs React's code.
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // What Radix's overlays (dialog, menu, select) share: layers, focus trap, portal, scroll lock.
            { name: 'radix-layer', test: /[\\/]node_modules[\\/](@radix-ui[\\/](react-dismissable-layer|react-focus-scope|react-portal|react-focus-guards|react-use-escape-keydown)|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-sidecar|use-callback-ref|aria-hidden|get-nonce|tslib)[\\/]/ },
            // What every Radix primitive uses (tabs too).
            { name: 'radix-base', test: /[\\/]node_modules[\\/]@radix-ui[\\/](primitive|react-primitive|react-compose-refs|react-context|react-id|react-use-controllable-state|react-presence|react-slot|react-use-callback-ref|react-use-layout-effect|react-use-effect-event|react-direction)[\\/]/ },
          ],
        },
      },
      // TanStack Query's modules start with "use client", which means nothing here.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
