import { BUDGETS, PAGE_BUDGETS, WIDGET_BUDGETS } from './budgets.ts';
import type { FileSize } from './sizes.ts';

/**
 * One page's JS split by who it is for: each widget's own code and its federation glue (files
 * under `/widgets/<name>/…`), and the rest (the loader and its host chunks).
 */
export interface PageWeight {
  path: string;
  shared: FileSize & { files: number };
  widgets: Record<string, FileSize & { files: number }>;
  glue: Record<string, FileSize & { files: number }>;
  total: FileSize & { files: number };
}

/** One measured figure against its budget. */
export interface BudgetRow {
  page: string;
  figure: string;
  value: number;
  budget: number;
  unit: 'KB gz' | 'requests';
  ok: boolean;
}

const kb = (bytes: number) => bytes / 1024;

/** Every figure of every page against the budgets of `budgets.ts`. */
export function checkBudgets(pages: readonly PageWeight[]): BudgetRow[] {
  const rows: BudgetRow[] = [];
  const row = (page: string, figure: string, value: number, budget: number, unit: BudgetRow['unit']) => rows.push({ page, figure, value, budget, unit, ok: value <= budget });
  // What every page loads: the least shared JS of any measured page (the loader's boot chunk with React, the kit and the contracts).
  const everyPage = Math.min(...pages.map((p) => p.shared.gzip));
  for (const page of pages) {
    const whole = PAGE_BUDGETS[page.path];
    row(page.path, 'shared (loader and host chunks)', kb(page.shared.gzip), whole?.sharedKb ?? BUDGETS.sharedKb, 'KB gz');
    for (const [name, size] of Object.entries(page.widgets)) row(page.path, `widget ${name}`, kb(size.gzip), WIDGET_BUDGETS[name] ?? BUDGETS.widgetKb, 'KB gz');
    for (const [name, size] of Object.entries(page.glue)) row(page.path, `glue of ${name}`, kb(size.gzip), BUDGETS.glueKb, 'KB gz');
    if (whole) {
      row(page.path, 'all JS', kb(page.total.gzip), whole.totalKb, 'KB gz');
      row(page.path, 'JS requests', page.total.files, whole.requests, 'requests');
      if (whole.beyondKb !== undefined) row(page.path, 'beyond what every page loads', kb(page.total.gzip - everyPage), whole.beyondKb, 'KB gz');
    }
  }
  return rows;
}

/** A page's scripts (URL paths) grouped as `PageWeight`, with `sizeOf` giving each file's size and `isGlue` telling a widget's glue from its code. */
export function pageWeight(path: string, scripts: readonly string[], sizeOf: (urlPath: string) => FileSize | null, isGlue: (urlPath: string) => boolean): PageWeight {
  const add = (into: FileSize & { files: number }, size: FileSize) => {
    into.raw += size.raw;
    into.gzip += size.gzip;
    into.files += 1;
  };
  const empty = () => ({ raw: 0, gzip: 0, files: 0 });
  const weight: PageWeight = { path, shared: empty(), widgets: {}, glue: {}, total: empty() };
  for (const script of scripts) {
    const size = sizeOf(script);
    if (!size) continue;
    const widget = /^\/widgets\/([a-z0-9-]+)\//.exec(script)?.[1];
    if (!widget) add(weight.shared, size);
    else if (isGlue(script)) add((weight.glue[widget] ??= empty()), size);
    else add((weight.widgets[widget] ??= empty()), size);
    add(weight.total, size);
  }
  return weight;
}
