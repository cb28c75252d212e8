/**
 * The deployment files, checked as files: no Docker engine runs here, so no image is built and no
 * container started. docker-compose.yml (parsed with `yaml`) must be the whole deployment —
 * PostgreSQL, a one-shot init, two nodes after it, monitoring only behind its profile; the
 * Dockerfile must be multi-stage with a non-root, production-only final stage and a HEALTHCHECK;
 * Prometheus must scrape both nodes. When a compose client answers, it validates the file too.
 * The HEALTHCHECK script itself runs against a real node in deployment.e2e.test.ts.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVE_NODE_FLAGS } from '../src/cli/heapTuning.js';

const ROOT = join(import.meta.dirname, '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

interface Service {
  readonly image?: string;
  readonly build?: string;
  readonly pull_policy?: string;
  readonly command?: string[];
  readonly ports?: string[];
  readonly volumes?: string[];
  readonly profiles?: string[];
  readonly depends_on?: Record<string, { condition: string }> | string[];
  readonly healthcheck?: { test?: string[]; disable?: boolean };
  readonly environment?: Record<string, string>;
}

// Compose files use YAML merge keys (`<<: *node`), a YAML 1.1 feature the parser must be told of.
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
/** The `citus` profile's services (a second deployment, on Citus), checked on their own below; the rest is the plain deployment. */
const CITUS = ['citus-coordinator', 'citus-worker-1', 'citus-worker-2', 'citus-setup', 'citus-init', 'citus-node-a', 'citus-node-b'];
const CITUS_VOLUMES = ['citus-coordinator', 'citus-worker-1', 'citus-worker-2', 'operator-citus'];
const services = Object.fromEntries(Object.entries(compose.services).filter(([name]) => !CITUS.includes(name)));
const MISSIONWEAVE = ['init', 'node-a', 'node-b'];
const NODES: readonly [name: string, port: string][] = [['node-a', '8443'], ['node-b', '8444']];

describe('docker-compose.yml', () => {
  it('is PostgreSQL, init, two nodes, and Prometheus and Grafana — nothing bind-mounts or builds the source in a stock image', () => {
    expect(Object.keys(services).sort()).toEqual(['grafana', 'init', 'node-a', 'node-b', 'postgres', 'prometheus']);
    for (const name of MISSIONWEAVE) {
      const service = services[name] as Service;
      expect(service.image, name).toBe('missionweave:0.1.0');
      expect(service.volumes, name).toEqual(['operator:/deploy']);
      expect(service.environment?.['DATABASE_URL'], name).toMatch(/@postgres:5432\//);
    }
    expect(Object.keys(compose.volumes).filter((name) => !CITUS_VOLUMES.includes(name)).sort()).toEqual(['grafana', 'operator', 'pgdata', 'prometheus']);
    expect(services['postgres']?.volumes).toEqual(['pgdata:/var/lib/postgresql/data']);
  });

  it('builds the one image once, in init; the nodes run it and never pull or build it', () => {
    const builders = Object.entries(services).filter(([, service]) => service.build !== undefined).map(([name]) => name);
    expect(builders).toEqual(['init']);
    expect(services['init']?.build).toBe('.');
    for (const [name] of NODES) {
      expect(services[name]?.image, name).toBe(services['init']?.image);
      expect(services[name]?.pull_policy, name).toBe('never');
    }
  });

  it('publishes every port on 127.0.0.1 unless MW_BIND names another address', () => {
    const published = Object.fromEntries(Object.entries(services).filter(([, service]) => service.ports !== undefined).map(([name, service]) => [name, service.ports]));
    expect(published).toEqual({
      'node-a': ['${MW_BIND:-127.0.0.1}:8443:8443'],
      'node-b': ['${MW_BIND:-127.0.0.1}:8444:8444'],
      prometheus: ['${MW_BIND:-127.0.0.1}:9090:9090'],
      grafana: ['${MW_BIND:-127.0.0.1}:3000:3000'],
    });
    // What compose makes of each entry: the host address is the default's unless MW_BIND is set.
    const hostAddress = (entry: string, env: Record<string, string>): string => entry.replace(/\$\{MW_BIND:-([^}]*)\}/, (_, fallback: string) => env['MW_BIND'] || fallback).split(':')[0] as string;
    for (const entry of Object.values(published).flat() as string[]) {
      expect(hostAddress(entry, {})).toBe('127.0.0.1');
      expect(hostAddress(entry, { MW_BIND: '0.0.0.0' })).toBe('0.0.0.0');
    }
  });

  it('runs init once on the compose PostgreSQL, into the operator volume, after PostgreSQL is healthy', () => {
    const init = services['init'] as Service;
    expect(init.command?.slice(0, 3)).toEqual(['init', '--dir', '/deploy']);
    expect(init.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services['postgres']?.healthcheck?.test?.join(' ')).toMatch(/pg_isready/);
  });

  it('starts each node only once init has completed, on its own published port, with a readiness healthcheck on it', () => {
    for (const [name, port] of NODES) {
      const node = services[name] as Service;
      expect(node.depends_on, name).toEqual({ postgres: { condition: 'service_healthy' }, init: { condition: 'service_completed_successfully' } });
      expect(node.command, name).toEqual(['serve', '--dir', '/deploy', '--host', '0.0.0.0', '--port', port]);
      expect(node.ports, name).toEqual([`\${MW_BIND:-127.0.0.1}:${port}:${port}`]);
      expect(node.healthcheck?.test, name).toEqual(['CMD', 'node', 'dist/cli/healthcheck.js', '--url', `https://127.0.0.1:${port}/ready`, '--ca', '/deploy/tls/cert.pem']);
    }
    expect(existsSync(join(ROOT, 'src/cli/healthcheck.ts'))).toBe(true);
  });

  it('puts only Prometheus and Grafana behind the monitoring profile, so a plain `up` stays small', () => {
    const profiled = Object.entries(services).filter(([, service]) => service.profiles !== undefined);
    expect(Object.fromEntries(profiled.map(([name, service]) => [name, service.profiles]))).toEqual({ prometheus: ['monitoring'], grafana: ['monitoring'] });
  });

  it('mounts configuration files that exist in the repository', () => {
    const binds = Object.values(services).flatMap((service) => (service.volumes ?? []).filter((volume) => volume.startsWith('./')));
    expect(binds).toEqual([
      './deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
      './deploy/grafana/provisioning:/etc/grafana/provisioning:ro',
      './docs/grafana:/etc/grafana/dashboards/missionweave:ro',
    ]);
    for (const source of ['deploy/prometheus/prometheus.yml', 'deploy/grafana/provisioning/datasources/prometheus.yml', 'deploy/grafana/provisioning/dashboards/missionweave.yml']) {
      expect(existsSync(join(ROOT, source)), source).toBe(true);
    }
  });
});

describe('docker-compose.yml, citus profile', () => {
  const citus = compose.services;
  it('is a coordinator, two workers, a one-shot that registers them, init and two nodes, all behind the profile, with volumes of their own', () => {
    expect(Object.keys(citus).filter((name) => citus[name]?.profiles?.includes('citus')).sort()).toEqual([...CITUS].sort());
    for (const name of CITUS) expect(citus[name]?.profiles, name).toEqual(['citus']);
    for (const name of ['citus-coordinator', 'citus-worker-1', 'citus-worker-2']) {
      expect(citus[name]?.image, name).toBe('citusdata/citus:13.2');
      expect(citus[name]?.volumes, name).toEqual([`${name}:/var/lib/postgresql/data`]);
      expect(citus[name]?.healthcheck?.test?.join(' '), name).toMatch(/pg_isready/);
      expect(citus[name]?.command, name).toEqual(['postgres', '-c', 'wal_level=logical']);
    }
    expect(CITUS_VOLUMES.every((volume) => volume in compose.volumes)).toBe(true);
  });

  it('publishes only on 127.0.0.1, and never the workers', () => {
    const published = CITUS.flatMap((name) => (citus[name]?.ports ?? []).map((port) => `${name} ${port}`));
    expect(published).toEqual(['citus-coordinator 127.0.0.1:5433:5432', 'citus-node-a 127.0.0.1:8445:8445', 'citus-node-b 127.0.0.1:8446:8446']);
  });

  it('registers both workers and the coordinator once every node is healthy', () => {
    const setup = citus['citus-setup'] as Service;
    expect(setup.depends_on).toEqual(Object.fromEntries(['citus-coordinator', 'citus-worker-1', 'citus-worker-2'].map((n) => [n, { condition: 'service_healthy' }])));
    const sql = (setup.command ?? []).join(' ');
    for (const step of ["citus_set_coordinator_host('citus-coordinator', 5432)", "citus_add_node('citus-worker-1', 5432)", "citus_add_node('citus-worker-2', 5432)"]) expect(sql).toContain(step);
  });

  it('runs init and two nodes of ours on the coordinator, in their own operator volume, after the cluster is set up', () => {
    expect(citus['citus-init']?.depends_on).toEqual({ 'citus-setup': { condition: 'service_completed_successfully' } });
    expect(citus['citus-init']?.command?.slice(0, 3)).toEqual(['init', '--dir', '/deploy']);
    for (const [name, port] of [['citus-init', ''], ['citus-node-a', '8445'], ['citus-node-b', '8446']] as const) {
      const service = citus[name] as Service;
      // The one image init builds (`--profile citus up` starts init too): never built twice, never pulled.
      expect(service.build, name).toBeUndefined();
      expect(service.image, name).toBe(compose.services['init']?.image);
      expect(service.pull_policy, name).toBe('never');
      expect(service.environment, name).toEqual({ DATABASE_URL: 'postgres://missionweave:missionweave@citus-coordinator:5432/missionweave' });
      expect(service.volumes, name).toEqual(['operator-citus:/deploy']);
      if (port === '') continue;
      expect(service.command, name).toEqual(['serve', '--dir', '/deploy', '--host', '0.0.0.0', '--port', port]);
      expect(service.depends_on, name).toEqual({ 'citus-coordinator': { condition: 'service_healthy' }, 'citus-init': { condition: 'service_completed_successfully' } });
      expect(service.healthcheck?.test, name).toEqual(['CMD', 'node', 'dist/cli/healthcheck.js', '--url', `https://127.0.0.1:${port}/ready`, '--ca', '/deploy/tls/cert.pem']);
    }
  });
});

describe('monitoring configuration', () => {
  it('has Prometheus scrape both nodes’ /metrics over HTTPS at their compose names and ports', () => {
    const config = parse(read('deploy/prometheus/prometheus.yml')) as { scrape_configs: { scheme: string; metrics_path: string; tls_config: { insecure_skip_verify: boolean }; static_configs: { targets: string[] }[] }[] };
    const [job] = config.scrape_configs;
    expect(config.scrape_configs).toHaveLength(1);
    expect(job?.scheme).toBe('https');
    expect(job?.metrics_path).toBe('/metrics');
    expect(job?.tls_config.insecure_skip_verify).toBe(true);
    expect(job?.static_configs.flatMap((entry) => entry.targets)).toEqual(NODES.map(([name, port]) => `${name}:${port}`));
  });

  it('provisions the Prometheus datasource with uid `prometheus` and loads dashboards from where compose mounts docs/grafana', () => {
    const datasources = parse(read('deploy/grafana/provisioning/datasources/prometheus.yml')) as { datasources: { uid: string; type: string; url: string }[] };
    expect(datasources.datasources).toEqual([expect.objectContaining({ uid: 'prometheus', type: 'prometheus', url: 'http://prometheus:9090' })]);
    const dashboards = parse(read('deploy/grafana/provisioning/dashboards/missionweave.yml')) as { providers: { type: string; options: { path: string } }[] };
    expect(dashboards.providers.map((provider) => provider.options.path)).toEqual(['/etc/grafana/dashboards/missionweave']);
  });

  const DASHBOARD = join(ROOT, 'docs/grafana/missionweave-dashboard.json');
  it('the dashboard names only the provisioned datasource, directly (no import-time ${DS_…} input)', () => {
    const text = readFileSync(DASHBOARD, 'utf8');
    const dashboard = JSON.parse(text) as { panels: { type: string; datasource?: unknown; targets?: { datasource?: unknown }[] }[]; __inputs?: unknown };
    const uids = [...text.matchAll(/"datasource"\s*:\s*\{[^}]*"uid"\s*:\s*"([^"]+)"/g)].map((match) => match[1]);
    expect(uids.length).toBeGreaterThan(0);
    for (const uid of uids) expect(uid).toBe('prometheus');
    expect(dashboard.__inputs).toBeUndefined();
    expect(text).not.toMatch(/\$\{DS_/);
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect(panel.datasource).toEqual({ type: 'prometheus', uid: 'prometheus' });
      for (const target of panel.targets ?? []) expect(target.datasource).toEqual({ type: 'prometheus', uid: 'prometheus' });
    }
  });
});

/** The Dockerfile's stages: each FROM line and the instructions after it, continuations joined. */
function stages(text: string): { from: string; lines: string[] }[] {
  const lines = text.replace(/\\\n\s*/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const result: { from: string; lines: string[] }[] = [];
  for (const line of lines) {
    if (/^FROM /i.test(line)) result.push({ from: line, lines: [] });
    else result.at(-1)?.lines.push(line);
  }
  return result;
}

describe('Dockerfile', () => {
  const all = stages(read('Dockerfile'));
  const final = all.at(-1) as { from: string; lines: string[] };

  it('builds in one stage and runs from another', () => {
    expect(all.map((stage) => stage.from)).toEqual(['FROM node:20-bookworm-slim AS build', 'FROM node:20-bookworm-slim AS runtime']);
    expect(all[0]?.lines).toContain('RUN npm ci --no-audit --no-fund');
    expect(all[0]?.lines).toContain('RUN npm run build');
  });

  it('installs production dependencies only in the final stage and copies what the runtime reads', () => {
    const installs = final.lines.filter((line) => /\bnpm (ci|install|i)\b/.test(line));
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/npm ci --omit=dev/);
    expect(final.lines).toContain('COPY --from=build /app/dist ./dist');
    expect(final.lines).toContain('COPY schemas ./schemas');
    expect(final.lines).toContain('COPY migrations ./migrations');
    for (const path of ['schemas', 'migrations', 'package-lock.json']) expect(existsSync(join(ROOT, path)), path).toBe(true);
  });

  it('runs as a user other than root, with a node-made HEALTHCHECK and the CLI as entrypoint', () => {
    const users = final.lines.filter((line) => line.startsWith('USER '));
    expect(users).toEqual(['USER node']);
    expect(final.lines.indexOf('USER node')).toBeLessThan(final.lines.findIndex((line) => line.startsWith('ENTRYPOINT')));
    expect(final.lines.find((line) => line.startsWith('HEALTHCHECK'))).toMatch(/CMD \["node", "dist\/cli\/healthcheck\.js"\]$/);
    // The node flags of a serving process (src/cli/heapTuning.ts), as `npm start` and the bench use them.
    expect(final.lines).toContain(`ENTRYPOINT [${['node', ...SERVE_NODE_FLAGS, 'dist/cli/main.js'].map((part) => JSON.stringify(part)).join(', ')}]`);
    expect(final.lines.join('\n')).not.toMatch(/curl|wget/);
  });

  it('keeps build output, dependencies and private keys out of the build context, and the sources in', () => {
    const ignored = read('.dockerignore').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
    for (const path of ['node_modules', 'dist', '.missionweave', 'deploy', '.git']) expect(ignored, path).toContain(path);
    for (const path of ['src', 'console', 'schemas', 'migrations', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) expect(ignored, path).not.toContain(path);
  });
});

/** The compose client that answers here, if any: the Docker plugin or the standalone binary. */
function composeClient(): string[] | undefined {
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    const answer = spawnSync(command[0] as string, [...command.slice(1), 'version'], { encoding: 'utf8', timeout: 10_000 });
    if (answer.status === 0) return command;
  }
  return undefined;
}

const client = composeClient();
it.skipIf(client === undefined)(`docker compose config -q accepts the file, with and without the monitoring and citus profiles${client === undefined ? ' (skipped: neither `docker compose` nor `docker-compose` answers here)' : ''}`, () => {
  const [program, ...prefix] = client as string[];
  for (const profile of [[], ['--profile', 'monitoring'], ['--profile', 'citus']]) {
    const result = spawnSync(program as string, [...prefix, ...profile, 'config', '-q'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(result.status, result.stderr).toBe(0);
  }
});
