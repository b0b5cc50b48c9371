import { launchBrowser } from '../../e2e/support/browser.ts';
import { startProcess, stop } from './speed.ts';
const server = await startProcess('page-server-process.ts', process.env.TREE ? { BENCH_TREE: process.env.TREE } : {});
const browser = await launchBrowser();
for (let i = 0; i < 4; i++) {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'session', value: server.info.cookie ?? '', url: server.info.baseUrl }]);
  await context.addInitScript({ content: `addEventListener('DOMContentLoaded', () => { window.__dcl = performance.now(); window.__widgetsReady?.then(() => { window.__mountedAt = performance.now(); }); });` });
  const page = await context.newPage();
  await page.goto(`${server.info.baseUrl}/dashboard`);
  await page.waitForFunction(() => (globalThis as { __mountedAt?: number }).__mountedAt !== undefined);
  const r = await page.evaluate(() => {
    const g = globalThis as unknown as { __mountedAt: number; __dcl: number; performance: { getEntriesByType: (t: string) => { name: string; startTime: number; responseEnd: number; responseStart: number }[] } };
    const nav = g.performance.getEntriesByType('navigation')[0];
    return { mounted: g.__mountedAt, dcl: g.__dcl, navResponseEnd: nav?.responseEnd, res: g.performance.getEntriesByType('resource').map((e) => `${e.startTime.toFixed(0)}-${e.responseEnd.toFixed(0)} ${e.name.replace(/^https?:\/\/[^/]+/, '').slice(0, 70)}`) };
  });
  if (i === 3) console.log(JSON.stringify(r, null, 1)); else console.log(r.mounted.toFixed(0), r.dcl.toFixed(0), r.navResponseEnd?.toFixed(0));
  await context.close();
}
await browser.close();
await stop(server);
