import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, REPO_ROOT } from '../../src/config.ts';

/*
 * The deployment files say what they should: every process the compose file runs gets a
 * configuration the service accepts, trusts only nginx's forwarded headers, and has a health
 * check; nginx gets the repository's own configuration with everything it needs filled in; the
 * image runs Node 24.
 */

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  networks?: Record<string, { ipv4_address?: string }> | string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const appServices = Object.entries(services).filter(([, s]) => s.build !== undefined);

describe('docker-compose.yml', () => {
  it('runs nginx, two web processes, a worker, PostgreSQL, Redis, S3, a mail catcher, Prometheus and Grafana', () => {
    expect(Object.keys(services).sort()).toEqual(['grafana', 'mail', 'migrate', 'minio', 'minio-bucket', 'nginx', 'postgres', 'prometheus', 'redis', 'web1', 'web2', 'worker']);
    expect(services.web1?.environment?.RUN_WORKERS).toBe('false');
    expect(services.web2?.environment?.RUN_WORKERS).toBe('false');
    // Plain Node on the built server (node-flags.test.ts starts it and reads its flags).
    expect(services.worker?.command).toEqual(['node', '--no-allocation-site-pretenuring', 'server/dist/worker.js']);
    expect(services.migrate?.command).toEqual(['node', 'server/dist/cli/seed.js']);
  });

  it('gives every process of the service a configuration it starts with', () => {
    for (const [name, service] of appServices) {
      const config = loadConfig(service.environment ?? {});
      expect(config.databaseUrl, name).toMatch(/^postgres:\/\//);
      expect(config.storage, name).toMatchObject({ kind: 's3' });
      expect(config.redis.url, name).toBe('redis://redis:6379');
    }
  });

  it('trusts X-Forwarded-* from nginx only, and nginx gets the repository’s configuration filled in', () => {
    const nginx = services.nginx;
    const address = (nginx?.networks as Record<string, { ipv4_address?: string }>).backend?.ipv4_address;
    expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    for (const [name, service] of appServices) expect(loadConfig(service.environment ?? {}).trustProxy, name).toEqual([address]);
    expect(nginx?.volumes).toContain('./deploy/nginx/neurostudio.conf.template:/etc/nginx/templates/neurostudio.conf.template:ro');
    const template = fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'nginx', 'neurostudio.conf.template'), 'utf8');
    const variables = [...template.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]);
    for (const variable of new Set(variables)) expect(nginx?.environment?.[variable ?? ''], variable).toBeTruthy();
    // Every web process is an upstream.
    for (const web of ['web1', 'web2']) expect(nginx?.environment?.NS_UPSTREAMS).toContain(`server ${web}:3000`);
  });

  it('checks the health of every long-running process', () => {
    for (const name of ['postgres', 'redis', 'minio', 'web1', 'web2', 'worker', 'nginx', 'prometheus', 'grafana']) expect(services[name]?.healthcheck?.test, name).toBeDefined();
    expect(services.worker?.environment?.WORKER_HEALTH_PORT).toBeTruthy();
    expect(services.worker?.healthcheck?.test.join(' ')).toContain(`:${services.worker?.environment?.WORKER_HEALTH_PORT ?? ''}/readyz`);
  });
});

describe('Prometheus and Grafana beside the service', () => {
  const prometheus = parse(fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'prometheus', 'prometheus.yml'), 'utf8')) as {
    rule_files: string[];
    scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
  };
  const targets = (job: string) => prometheus.scrape_configs.find((c) => c.job_name === job)?.static_configs.flatMap((c) => c.targets) ?? [];

  it('scrapes every web process and the worker on its METRICS_PORT, which nginx never proxies', () => {
    const running = appServices.filter(([name]) => name !== 'migrate');
    expect(targets('neurostudio-web').sort()).toEqual(running.filter(([, s]) => s.environment?.RUN_WORKERS === 'false').map(([name, s]) => `${name}:${loadConfig(s.environment ?? {}).metricsPort ?? ''}`).sort());
    expect(targets('neurostudio-worker')).toEqual([`worker:${String(loadConfig(services.worker?.environment ?? {}).metricsPort)}`]);
    const template = fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'nginx', 'neurostudio.conf.template'), 'utf8');
    expect(template).not.toContain('9464');
    expect(services.nginx?.environment?.NS_UPSTREAMS).not.toContain('9464');
    for (const [name, service] of running) expect(JSON.stringify(service), name).not.toContain('9464:');
  });

  it('mounts the rules and the configuration the tests check, and provisions Grafana with Prometheus and the dashboard', () => {
    expect(services.prometheus?.volumes).toContain('./deploy/prometheus:/etc/prometheus:ro');
    expect(prometheus.rule_files).toEqual(['alerts.yml']);
    expect(services.grafana?.volumes).toEqual(expect.arrayContaining(['./deploy/grafana/provisioning:/etc/grafana/provisioning:ro', './deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro']));
    const source = parse(fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'grafana', 'provisioning', 'datasources', 'prometheus.yml'), 'utf8')) as { datasources: { uid: string; url: string }[] };
    expect(source.datasources).toEqual([expect.objectContaining({ uid: 'prometheus', url: 'http://prometheus:9090' })]);
    const provider = parse(fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'grafana', 'provisioning', 'dashboards', 'neurostudio.yml'), 'utf8')) as { providers: { options: { path: string } }[] };
    expect(provider.providers[0]?.options.path).toBe('/var/lib/grafana/dashboards');
    const dashboard = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'grafana', 'dashboards', 'neurostudio.json'), 'utf8')) as { panels: { type: string; datasource?: { uid: string } }[] };
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) expect(panel.datasource?.uid).toBe('prometheus');
  });
});

describe('Dockerfile', () => {
  it('runs on Node 24 LTS', () => {
    expect(fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8')).toMatch(/^FROM node:24-/m);
  });
});
