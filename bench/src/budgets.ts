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

/** Widgets allowed more than `BUDGETS.widgetKb` (none yet). */
export const WIDGET_BUDGETS: Record<string, number> = {};

/** Budgets of a whole page: all its JS together and the number of JS files it requests. */
export const PAGE_BUDGETS: Record<string, { totalKb: number; requests: number }> = {
  '/dashboard': { totalKb: 160, requests: 15 },
};
