/**
 * What a page may load, in KB (1024 bytes) of gzip (level 6, each file on its own, as
 * `sizes.ts` measures) and in JS requests. The one place budgets live: `npm run bench` fails
 * when a measured page misses one. A big screen that comes later (chat, products, admin) adds
 * its page to `PAGE_BUDGETS` and, if its widget is bigger, its widget to `WIDGET_BUDGETS`.
 */
export const BUDGETS = {
  /**
   * Everything a page loads besides its widgets: the loader (the Module Federation runtime, React,
   * the kit, the contracts' browser entry) and the host chunks its widgets ask for.
   */
  sharedKb: 125,
  /** Each widget's own code as a page loads it (its files less the federation glue). */
  widgetKb: 12,
  /** Each widget's Module Federation glue as a page loads it: its `remoteEntry.js`, share map, runtime shim. */
  glueKb: 9,
} as const;

/** Widgets whose own code is allowed more than `BUDGETS.widgetKb`. */
export const WIDGET_BUDGETS: Record<string, number> = {
  /**
   * The chat as /chat loads it: a new chat, ≈16.5 KB gz (measured; 56.6 when it bundled its Markdown
   * renderer). The renderer — react-markdown with rehype-sanitize ≈36.5 KB gz, GFM parsing (tables,
   * task lists, strikethrough, autolink literals; no footnotes) with the code blocks ≈5 more — is a
   * chunk of ≈41 fetched when a chat opens or a message is typed, and the code highlighter (≈9.5,
   * with a grammar of 1–10 each) only for an answer with code: neither is in these figures. Its
   * select and row actions are native HTML (no Radix).
   */
  chat: 54,
  /**
   * The admin panel: sixteen tabs of lists and editors in one widget, with its contracts and the
   * zod/mini copy its editors check values with (≈13.5 KB gz of it). Its page's own budget
   * (`beyondKb`) counts it with the host chunks it asks for.
   */
  admin: 80,
};

/**
 * Budgets of a whole page: all its JS together and the number of JS files it requests, and, for a
 * big screen whose widget asks for many host chunks, its own `sharedKb` instead of `BUDGETS.sharedKb`;
 * `beyondKb`: what the page loads beyond what every page loads (its widgets and the host chunks
 * only it asks for; "every page" is the least shared JS of the measured pages).
 */
export const PAGE_BUDGETS: Record<string, { totalKb: number; requests: number; sharedKb?: number; beyondKb?: number }> = {
  /**
   * Four small widgets, each a Module Federation remote: its entry, its glue chunk (share map and
   * runtime shim, `FEDERATION_GLUE_GROUP` of the build config) and exposed module (3 requests
   * each, all linked as modulepreload by the page) beside the loader's 4: 16 (before federation
   * the page made 8; 20 with the plugin's own chunking, which a plugin release that renames its
   * modules would bring back). The target for this page's weight is 160.
   */
  '/dashboard': { totalKb: 160, requests: 16 },
  /**
   * The chat asks only for the stream chunk (1.4 KB gz) with the page (measured 137.9 in all; 178.0
   * when the chat bundled its Markdown renderer). The dialog chunks (dialog,
   * Radix base and layers, ≈14.3) come only when a rename or delete dialog opens (fetched on hover
   * or focus of the row's buttons), so they are not in these figures. With federation the page's
   * shared JS carries the runtime (≈17 KB gz), so its own tighter shared budget (96, before
   * federation) gave way to every page's 125, and the page's to 175.
   */
  '/chat': { totalKb: 175, requests: 9 },
  /** The admin panel as an admin opens it (the users list): target ≤ 80 KB gz beyond what every page loads. */
  '/admin/users': { totalKb: 180, requests: 10, beyondKb: 80 },
};
