/**
 * What a page may load, in KB (1024 bytes) of gzip (level 6, each file on its own, as
 * `sizes.ts` measures) and in JS requests. The one place budgets live: `npm run bench` fails
 * when a measured page misses one. A big screen that comes later (chat, products, admin) adds
 * its page to `PAGE_BUDGETS` and, if its widget is bigger, its widget to `WIDGET_BUDGETS`.
 */
export const BUDGETS = {
  /** Everything a page loads besides its widgets: the loader (React, the kit, the contracts' browser entry) and the host chunks its widgets ask for. */
  sharedKb: 120,
  /** Each widget as a page loads it (all its files). */
  widgetKb: 12,
} as const;

/** Widgets allowed more than `BUDGETS.widgetKb`. */
export const WIDGET_BUDGETS: Record<string, number> = {
  /**
   * The chat with its Markdown renderer, as /chat loads it (measured 52.7). The renderer is most
   * of it: react-markdown with rehype-sanitize alone is 37 KB gz, GFM parsing (tables, task
   * lists, strikethrough, autolinks, footnotes) 6.5 more; the chat itself about 10.
   */
  chat: 55,
};

/**
 * Budgets of a whole page: all its JS together and the number of JS files it requests, and, for a
 * big screen whose widget asks for many host chunks, its own `sharedKb` instead of `BUDGETS.sharedKb`.
 */
export const PAGE_BUDGETS: Record<string, { totalKb: number; requests: number; sharedKb?: number }> = {
  '/dashboard': { totalKb: 160, requests: 15 },
  /**
   * The chat asks for the dialog, menu, select (with floating-ui) and stream chunks, 41 KB gz
   * over what every page loads (measured shared 133.6, all JS 186.3 in 14 files); no other page
   * fetches them.
   */
  '/chat': { totalKb: 190, requests: 15, sharedKb: 136 },
};
