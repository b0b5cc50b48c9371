/**
 * The page's script (`/assets/loader.js`, served no-cache: always revalidated, so its URL
 * carries no version — chunks that import this file's helpers must reach the same module).
 * What it runs are chunks of their own: `boot.ts` (the federation runtime and the widgets'
 * remotes) and `ui.ts` (React and the kit, which the host chunks fetched later import).
 */
import '@app/kit/styles.css';
import './skeletons.css';
import { boot } from './boot.ts';

declare global {
  interface Window {
    /** Resolves when every widget of the page has mounted (or failed); used by tests and benchmarks. */
    __widgetsReady?: Promise<void>;
  }
}

// Once per page, however this module is reached. React's part (`ui.ts`) is not imported by the
// boot: the boot starts the widgets' remotes while React is still arriving.
window.__widgetsReady ??= boot(import('./ui.ts'));
