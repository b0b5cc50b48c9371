import { init, parse } from 'es-module-lexer';
import type { Plugin } from 'vite';
import { FORBIDDEN_IN_WIDGETS, HOST_GLOBAL, HOST_MODULES } from './host-modules.ts';

const EAGER = new Set<string>(HOST_MODULES.eager);
const LAZY = new Set<string>(HOST_MODULES.lazy);
const registry = `globalThis[${JSON.stringify(HOST_GLOBAL)}]`;

/** `a, b as c` of an import clause → `a, b: c` of a destructuring pattern. */
function destructure(named: string): string {
  return named
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [imported, local] = part.split(/\s+as\s+/);
      const from = (imported ?? '').trim().replace(/^["']|["']$/g, '');
      return local ? `${JSON.stringify(from)}: ${local.trim()}` : from;
    })
    .join(', ');
}

/** One static import statement of a host module, as `const` look-ups in the host registry. */
function rewriteImport(statement: string, name: string, id: string): string {
  const source = LAZY.has(name) ? `(await ${registry}.load(${JSON.stringify(name)}))` : `${registry}.get(${JSON.stringify(name)})`;
  const match = /^import\s*([\s\S]*?)\s*from\s*["'][^"']+["']\s*;?$/.exec(statement.trim());
  if (!match) {
    // `import 'module'`: loaded for its effects only.
    if (/^import\s*["'][^"']+["']\s*;?$/.test(statement.trim())) return `${source};`;
    throw new Error(`${id}: cannot rewrite the import of the host module ${name}: ${statement}`);
  }
  const clause = match[1] ?? '';
  const parts: string[] = [];
  const namespace = /^(?:([\w$]+)\s*,\s*)?\*\s*as\s+([\w$]+)$/.exec(clause);
  const named = /^(?:([\w$]+)\s*,\s*)?\{([\s\S]*)\}$/.exec(clause);
  const defaultOnly = /^([\w$]+)$/.exec(clause);
  const tmp = `__host_${name.replace(/[^\w]/g, '_')}`;
  parts.push(`const ${tmp} = ${source};`);
  if (namespace) {
    if (namespace[1]) parts.push(`const ${namespace[1]} = ${tmp}.default ?? ${tmp};`);
    parts.push(`const ${namespace[2] ?? ''} = ${tmp};`);
  } else if (named) {
    if (named[1]) parts.push(`const ${named[1]} = ${tmp}.default ?? ${tmp};`);
    const pattern = destructure(named[2] ?? '');
    if (pattern) parts.push(`const { ${pattern} } = ${tmp};`);
  } else if (defaultOnly) {
    parts.push(`const ${defaultOnly[1] ?? ''} = ${tmp}.default ?? ${tmp};`);
  } else {
    throw new Error(`${id}: cannot rewrite the import of the host module ${name}: ${statement}`);
  }
  // One line, so the lines of the module keep their numbers as far as possible.
  return parts.join(' ');
}

/**
 * Replaces a widget's imports of host modules (`HOST_MODULES`) with look-ups in the registry the
 * loader sets up: `import { useState } from 'react'` becomes
 * `const { useState } = globalThis.__neurostudioHost.get('react')`, and a lazy module is awaited
 * at the module's top level. Runs after the TSX transform (so the JSX runtime's import is
 * caught) in `vite build` and `vite dev` alike; under vitest and Storybook it is not used and
 * widgets import the real modules.
 */
export function hostImports(): Plugin {
  return {
    name: 'widget-host-imports',
    enforce: 'post',
    async transform(code, id) {
      if (id.startsWith('\0') || !/\.[cm]?[jt]sx?(\?|$)/.test(id)) return null;
      if (![...EAGER, ...LAZY, ...Object.keys(FORBIDDEN_IN_WIDGETS)].some((name) => code.includes(name))) return null;
      await init;
      const [imports] = parse(code);
      let out = '';
      let last = 0;
      let counter = 0;
      for (const imp of imports) {
        const name = imp.n;
        if (name === undefined) continue;
        const forbidden = FORBIDDEN_IN_WIDGETS[name];
        // A widget's own code may not import these; libraries may, and so may a contracts entry bundled into the one widget that uses it (`@app/contracts/admin`).
        if (forbidden && !id.includes('/node_modules/') && !id.includes('/shared-contracts/')) throw new Error(`${id} imports ${name}: ${forbidden}`);
        if (!EAGER.has(name) && !LAZY.has(name)) continue;
        if (imp.d === -1) {
          const statement = code.slice(imp.ss, imp.se);
          if (/^export\b/.test(statement.trim())) throw new Error(`${id}: re-exporting the host module ${name} is not supported; import it and export what you need`);
          out += code.slice(last, imp.ss) + rewriteImport(statement, name, id).replaceAll(`__host_${name.replace(/[^\w]/g, '_')}`, `__host_${String(counter++)}`);
          last = imp.se;
        } else if (imp.d >= 0) {
          // `import('react')`: the registry's promise of the module.
          out += `${code.slice(last, imp.ss)}${registry}.load(${JSON.stringify(name)})`;
          last = imp.se;
        }
      }
      if (last === 0) return null;
      out += code.slice(last);
      return { code: out, map: null };
    },
  };
}
