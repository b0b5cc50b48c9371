import type { BrowserContext, Page } from 'playwright-core';
import { STYLE_GROUP_NAMES, styleGroupFile } from '../../host-pages/src/style-groups.ts';

/**
 * Runs in every page of the browser tests before its own scripts: notes each class of a style
 * group (`host-pages/src/style-groups.ts`) that appears — in the server's HTML, as widgets mount
 * and as the test goes on — on a page that did not link that group's stylesheet, where it would
 * stand unstyled.
 */
const WATCH = `(() => {
  const files = ${JSON.stringify(Object.fromEntries(STYLE_GROUP_NAMES.map((g) => [g, `/assets/${styleGroupFile(g)}`])))};
  const unstyled = new Set();
  const linked = new Set();
  Object.defineProperty(window, '__unstyledGroupClasses', { value: unstyled });
  const isLinked = (group) => {
    if (linked.has(group)) return true;
    const found = [...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => new URL(l.href, location.href).pathname === files[group]);
    if (found) linked.add(group);
    return found;
  };
  const groupOf = (name) => Object.keys(files).find((g) => name === g || name.startsWith(g + '-'));
  const check = (el) => {
    for (const name of el.classList ?? []) {
      const group = groupOf(name);
      if (group && !isLinked(group)) unstyled.add(name + ' on ' + location.pathname);
    }
  };
  const scan = (node) => {
    if (node.nodeType !== 1) return;
    check(node);
    for (const el of node.querySelectorAll('[class]')) check(el);
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') check(r.target);
      else r.addedNodes.forEach(scan);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
})();`;

export async function watchStyleGroups(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: WATCH });
}

/** The group classes a page showed without their stylesheet (none when the page is gone). */
export async function unstyledGroupClasses(page: Page): Promise<string[]> {
  if (page.isClosed()) return [];
  return page.evaluate(() => [...((globalThis as { __unstyledGroupClasses?: Set<string> }).__unstyledGroupClasses ?? [])]).catch(() => []);
}
