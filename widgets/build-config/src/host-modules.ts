/**
 * Modules the host page supplies once and every widget shares through Module Federation: the
 * loader provides them to the federation runtime as singletons, and a widget's build declares
 * each one it uses as shared with `import: false`, so it is never bundled into a widget and a
 * page runs one copy of each.
 *
 * `eager` modules are in the loader itself; `lazy` ones are chunks of the loader's build that a
 * page fetches only when one of its widgets imports them (one request, shared by the page's
 * widgets), so a library only some widgets use does not weigh on every page.
 */
export const HOST_MODULES = {
  eager: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime', '@app/contracts/browser', '@app/kit'],
  lazy: ['@app/kit/forms', '@app/kit/dialog', '@app/kit/tabs', '@app/kit/stream', '@app/contracts/generation'],
} as const;

/**
 * Host modules a widget's remote declares only when its own sources import them; the others of
 * `eager` it always declares (React and its JSX runtime, which libraries import too, the kit and
 * the contracts). Each declared module costs the page a share negotiation in the remote's init
 * (≈5 % of /dashboard's time to mounted for two of them on four widgets, measured A/B), and
 * react-dom is what only a widget's own `createPortal` or a library's would import: a library
 * that does is caught by its build instead (`noBundledReact`).
 */
export const DECLARED_WHEN_IMPORTED: readonly HostModuleName[] = ['react-dom', 'react-dom/client'];

/** What of React must never be in a widget's bundle: the page's copy is the one React. */
export const REACT_PACKAGES = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;

export type EagerHostModule = (typeof HOST_MODULES.eager)[number];
export type LazyHostModule = (typeof HOST_MODULES.lazy)[number];
export type HostModuleName = EagerHostModule | LazyHostModule;

/** The package each host module belongs to: its version is the one the page offers and a widget asks for. */
export function packageOf(name: HostModuleName): 'react' | 'react-dom' | '@app/kit' | '@app/contracts' {
  if (name.startsWith('@app/kit')) return '@app/kit';
  if (name.startsWith('@app/contracts')) return '@app/contracts';
  return name.startsWith('react-dom') ? 'react-dom' : 'react';
}

/**
 * The versions a widget accepts of a package it was built against: any release with the same
 * major (for `0.x`, the same minor), so a widget built against a newer patch loads on a page
 * with an older one and the other way round, and one built against another major is refused
 * (`strictVersion`) instead of running against an API it was not written for.
 */
export function requiredVersion(builtAgainst: string): string {
  const [major = '0', minor = '0'] = builtAgainst.split('.');
  return major === '0' ? `^0.${minor}.0` : `^${major}.0.0`;
}

/** The federation name of a widget's remote (an identifier: `ai-history` → `ns_ai_history`). */
export const remoteName = (widget: string) => `ns_${widget.replace(/-/g, '_')}`;

/** What a widget exposes: `loadRemote('<remote>/mount')` answers its module, which exports `mount`. */
export const EXPOSED_MOUNT = './mount';

/** Modules a widget must not import at all: what it needs of them comes through a host module. */
export const FORBIDDEN_IN_WIDGETS: Record<string, string> = {
  '@app/contracts': 'import from @app/contracts/browser (the root entry holds the server’s reply schemas and classic zod)',
  zod: 'schemas a widget parses live in @app/contracts/browser (zod/mini)',
  'zod/mini': 'schemas a widget parses live in @app/contracts/browser',
  '@tanstack/react-query': 'use the kit’s useRouteQuery / useRouteMutation (one query client per page, supplied by the host)',
  'react-hook-form': 'use useContractForm and FormField from @app/kit/forms',
  '@radix-ui/react-dialog': 'use Dialog from @app/kit/dialog',
  '@radix-ui/react-tabs': 'use Tabs from @app/kit/tabs',
  '@radix-ui/react-dropdown-menu': 'menus are native (buttons and `<details>`): no Radix menu on any page',
  '@radix-ui/react-select': 'selects are native `<select>`s: no Radix select on any page',
};
