import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../src/config.ts';
import { createTestApp, type TestApp } from '../support/index.ts';

/*
 * The alert rules and the dashboard kept in the repository: promtool (Debian's `prometheus`
 * package) checks the configuration and the rules and runs each rule's test over recorded series
 * (deploy/prometheus/alerts.test.yml); every rule has its test; and every metric the rules and the
 * dashboard read is one the service exports, so a renamed metric cannot leave them blind.
 */

const DIR = path.join(REPO_ROOT, 'deploy', 'prometheus');
const DASHBOARD = path.join(REPO_ROOT, 'deploy', 'grafana', 'dashboards', 'neurostudio.json');

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { cwd: DIR, encoding: 'utf8' });
  if (run.error && (run.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error('promtool is not installed: it comes with Debian\'s prometheus package (apt-get install --no-install-recommends prometheus; .ci/run installs it)');
  }
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

interface Rule {
  alert: string;
  expr: string;
}
const rules = (parse(fs.readFileSync(path.join(DIR, 'alerts.yml'), 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const tests = (parse(fs.readFileSync(path.join(DIR, 'alerts.test.yml'), 'utf8')) as { tests: { name: string; alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[] }).tests;
const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as { panels: { type: string; title: string; targets?: { expr: string }[] }[] };

/** Names in a PromQL expression that are metrics: not functions, keywords, label names or values (quoted), durations. */
function metricNames(expr: string): string[] {
  const bare = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\{[^}]*\}/g, '{}').replace(/\[[^\]]*\]/g, '[]');
  const words = [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(?=\s*[{[)\s*/+\-<>=!]|\s*$)/g)].map((m) => m[0]);
  const keywords = new Set(['sum', 'max', 'min', 'count', 'avg', 'by', 'without', 'on', 'ignoring', 'and', 'or', 'unless', 'rate', 'increase', 'deriv', 'topk', 'histogram_quantile', 'min_over_time', 'max_over_time', 'predict_linear', 'hour', 'vector', 'bool', 'group_left', 'group_right']);
  // Label names inside `by (…)` and `on (…)`.
  const grouped = new Set([...bare.matchAll(/\b(?:by|on|without|ignoring)\s*\(([^)]*)\)/g)].flatMap((m) => (m[1] ?? '').split(',').map((s) => s.trim())));
  return [...new Set(words.filter((w) => !keywords.has(w) && !grouped.has(w)))];
}

let app: TestApp;
/** Every family the service exports (a scrape's `# TYPE` lines), histograms with their series' suffixes. */
const exported = new Set<string>();

beforeAll(async () => {
  app = await createTestApp({ env: { METRICS_PORT: '0' } });
  const text = await (await fetch(`http://127.0.0.1:${String(app.ctx.metrics.port)}/metrics`)).text();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    exported.add(name ?? '');
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exported.add(`${name ?? ''}${suffix}`);
  }
});
afterAll(() => app.close());

describe('deploy/prometheus', () => {
  it('passes promtool’s checks of the configuration and the rules', () => {
    const config = promtool('check', 'config', 'prometheus.yml');
    expect(config.status, config.output).toBe(0);
    const checked = promtool('check', 'rules', 'alerts.yml');
    expect(checked.status, checked.output).toBe(0);
    expect(checked.output).toContain(`SUCCESS: ${String(rules.length)} rules found`);
  });

  it('passes every rule’s test over recorded series (promtool test rules)', () => {
    const run = promtool('test', 'rules', 'alerts.test.yml');
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain('SUCCESS');
  });

  it('has one test for each rule, in which the rule fires and is silent at another time', () => {
    expect(tests.map((t) => t.name).sort()).toEqual(rules.map((r) => r.alert).sort());
    for (const test of tests) {
      const evals = test.alert_rule_test.filter((e) => e.alertname === test.name);
      expect(evals.some((e) => e.exp_alerts.length > 0), test.name).toBe(true);
      expect(evals.some((e) => e.exp_alerts.length === 0), test.name).toBe(true);
    }
  });

  it('reads only metrics the service exports', () => {
    expect(exported.has('neurostudio_payments_total')).toBe(true);
    expect(metricNames('sum by (queue) (rate(neurostudio_jobs_total{outcome="failed"}[5m])) / on() hour() > 0.2')).toEqual(['neurostudio_jobs_total']);
    for (const rule of rules) {
      const names = metricNames(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names.filter((n) => n !== 'up')) expect(exported.has(name), `${rule.alert}: ${name}`).toBe(true);
    }
  });
});

describe('the Grafana dashboard', () => {
  it('reads only metrics the service exports (besides Prometheus’ own up and ALERTS)', () => {
    const targets = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
    expect(targets.length).toBeGreaterThan(20);
    for (const { panel, expr } of targets) {
      for (const name of metricNames(expr).filter((n) => n !== 'up' && n !== 'ALERTS')) expect(exported.has(name), `${panel}: ${name}`).toBe(true);
    }
  });
});
