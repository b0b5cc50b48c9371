/**
 * Modules the host page supplies once and every widget shares: the loader registers them under
 * these names, and a widget's build replaces its imports of them with look-ups in that registry
 * (`host-imports.ts`), so they are never bundled into a widget and a page runs one copy of each.
 *
 * `eager` modules are in the loader itself; `lazy` ones are chunks of the loader's build that a
 * page fetches only when one of its widgets imports them (one request, shared by the page's
 * widgets), so a library only some widgets use does not weigh on every page.
 */
export const HOST_MODULES = {
  eager: [
    'react',
    'react-dom',
    'react-dom/client',
    'react/jsx-runtime',
    'react/jsx-dev-runtime',
    '@app/contracts/browser',
    '@app/kit',
  ],
  lazy: ['@app/kit/forms', '@app/kit/dialog', '@app/kit/tabs', '@app/kit/stream', '@app/contracts/generation'],
} as const;

export type EagerHostModule = (typeof HOST_MODULES.eager)[number];
export type LazyHostModule = (typeof HOST_MODULES.lazy)[number];
export type HostModuleName = EagerHostModule | LazyHostModule;

/** The global the loader puts its registry on. */
export const HOST_GLOBAL = '__neurostudioHost';

/** What the loader puts on `globalThis[HOST_GLOBAL]`. */
export interface HostRegistry {
  /** An eager module (throws if the page's loader does not supply it). */
  get: (name: string) => object;
  /** Any host module; a lazy one is fetched on first use. */
  load: (name: string) => Promise<object>;
}

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
