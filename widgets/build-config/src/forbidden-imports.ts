import path from 'node:path';
import type { Plugin } from 'vite';
import { FORBIDDEN_IN_WIDGETS } from './host-modules.ts';

/**
 * Fails the build (and shows the error in `vite dev`) when a widget's own code imports a module
 * it may not (`FORBIDDEN_IN_WIDGETS`): what it needs of those comes through a host module.
 * Only the widget's own sources (`<root>/src`) are held to it: libraries and the kit may import
 * them, and so may a contracts entry bundled into the one widget that uses it
 * (`@app/contracts/admin`). Type-only imports are gone before modules are resolved.
 */
export function forbiddenImports(root: string): Plugin {
  const own = path.join(root, 'src') + path.sep;
  return {
    name: 'widget-forbidden-imports',
    enforce: 'pre',
    resolveId(source, importer) {
      const reason = Object.hasOwn(FORBIDDEN_IN_WIDGETS, source) ? FORBIDDEN_IN_WIDGETS[source] : undefined;
      if (!reason || !importer?.startsWith(own) || importer.includes(`${path.sep}node_modules${path.sep}`)) return null;
      this.error(`${importer} imports ${source}: ${reason}`);
    },
  };
}
