import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's script, injected into the page under test (its context needs `bypassCSP`: the pages' CSP refuses inline scripts). */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string; html: string }[];
}
type AxeWindow = { axe?: { run: (options: object) => Promise<{ violations: AxeViolation[] }> } };

/** axe-core's serious and critical violations on the page as it is now, one line each (rule, element, why). */
export async function seriousViolations(page: Page, label: string): Promise<string[]> {
  if (!(await page.evaluate(() => (globalThis as AxeWindow).axe !== undefined))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const { axe } = globalThis as AxeWindow;
    if (!axe) throw new Error('axe-core did not load (is the context made with bypassCSP?)');
    return (await axe.run({ resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.slice(0, 5).map((n) => `${label}: ${v.id} (${String(v.impact)}) ${v.help} — ${n.target.join(' ')} — ${n.html.slice(0, 120)} — ${(n.failureSummary ?? '').split('\n').slice(1).join(' ').trim()}`),
    );
}
