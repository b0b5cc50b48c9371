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
  it('runs nginx, two web processes, a worker, PostgreSQL, Redis, S3 and a mail catcher', () => {
    expect(Object.keys(services).sort()).toEqual(['mail', 'migrate', 'minio', 'minio-bucket', 'nginx', 'postgres', 'redis', 'web1', 'web2', 'worker']);
    expect(services.web1?.environment?.RUN_WORKERS).toBe('false');
    expect(services.web2?.environment?.RUN_WORKERS).toBe('false');
    expect(services.worker?.command).toEqual(['node', '--import', 'tsx', 'server/src/worker.ts']);
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
    for (const name of ['postgres', 'redis', 'minio', 'web1', 'web2', 'worker', 'nginx']) expect(services[name]?.healthcheck?.test, name).toBeDefined();
    expect(services.worker?.environment?.WORKER_HEALTH_PORT).toBeTruthy();
    expect(services.worker?.healthcheck?.test.join(' ')).toContain(`:${services.worker?.environment?.WORKER_HEALTH_PORT ?? ''}/readyz`);
  });
});

describe('Dockerfile', () => {
  it('runs on Node 24 LTS', () => {
    expect(fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8')).toMatch(/^FROM node:24-/m);
  });
});
