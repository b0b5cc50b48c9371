/**
 * The page's script (`/assets/loader.js`, served no-cache: always revalidated, so its URL
 * carries no version — chunks that import this file's helpers must reach the same module).
 * What it runs is a chunk of its own (`boot.ts`), which the host chunks fetched later import
 * React and the kit from.
 */
import '@app/kit/styles.css';
import './skeletons.css';

declare global {
  interface Window {
    /** Resolves when every widget of the page has mounted (or failed); used by tests and benchmarks. */
    __widgetsReady?: Promise<void>;
  }
}

// Once per page, however this module is reached.
window.__widgetsReady ??= import('./boot.ts').then((m) => m.boot());
