/**
 * With a node running for the home, `command`, `replay`, `audit`, `registry export` and `tree` run
 * in that node (issue 33 item 5; src/cli/operatorRoute.ts, operatorForward.ts): the CLI here is
 * given a DATABASE_URL that reaches nothing, so each command succeeds only through the node, and
 * with MW_CLI_LOCAL=1 (run here, as before) the same command fails. The node's operator route
 * refuses a caller without the home's operator token. A forwarded command loads only the CLI's
 * fast path (main.ts, operatorForward.ts and the few modules they import; no npm package, nothing
 * of the domain or the store), as a loader hook in the real process reports. Real binaries, real
 * PostgreSQL.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database.js';
import { cli, serve, type ServeProcess } from './support/nodeProcess.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-forward-'));
const dir = join(scratch, 'org');
const NOWHERE = 'postgres://nobody:none@127.0.0.1:1/nothing';
let node: ServeProcess;

beforeAll(async () => {
  const db = await createTestDatabase();
  for (const args of [['init', '--dir', dir], ['human', 'add', 'alice', '--dir', dir], ['agent', 'add', 'planner', '--dir', dir]]) expect(cli(db.url, ...args).code).toBe(0);
  node = await serve(db.url, dir);
}, 120_000);
afterAll(async () => {
  await node.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

/** The CLI with a database it cannot reach: only the node can answer. */
const viaNode = (...args: string[]) => cli(NOWHERE, ...args);

describe('the CLI through a running node', () => {
  it('keeps the operator token private to the home\'s owner', () => {
    expect(statSync(join(dir, 'operator.token')).mode & 0o777).toBe(0o600);
  });

  it('runs command, replay, tree, audit and registry export in the node', () => {
    const payload = join(scratch, 'mission.json');
    writeFileSync(payload, JSON.stringify({ coordinatorId: 'urn:missionweave:agent:planner', title: 'Plan', objective: 'Agree an agenda.', definitionOfDone: [{ criterionId: 'agenda', description: 'An agreed agenda.', evidenceRequired: ['human_review'] }], budget: { currency: 'EUR', financialLimit: 100 }, deadline: new Date(Date.now() + 86_400_000).toISOString() }));
    const created = viaNode('command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${payload}`);
    expect(created.code, created.stderr).toBe(0);
    const event = { groupId: /"groupId":"([^"]+)"/.exec(created.stdout)?.[1] as string, payload: { missionId: /"missionId":"([^"]+)"/.exec(created.stdout)?.[1] as string } };
    expect(event.payload.missionId).toMatch(/^urn:missionweave:mission:/);
    const replayed = viaNode('replay', event.groupId, '--dir', dir, '--verify');
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stderr).toMatch(/OK\n$/);
    expect(replayed.stdout.trim().split('\n').length).toBeGreaterThan(0);
    const tree = viaNode('tree', event.payload.missionId, '--dir', dir);
    expect(tree.code, tree.stderr).toBe(0);
    expect(tree.stdout).toContain(event.payload.missionId);
    const audit = viaNode('audit', '--dir', dir);
    expect(audit.code, audit.stderr).toBe(0);
    const out = join(scratch, 'registry.json');
    const exported = viaNode('registry', 'export', '--dir', dir, '--out', out);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(new RegExp(`^wrote the Registry at revision \\d+ \\(\\d+ key bindings, no private key\\) to ${out}\\n$`));
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveProperty('registry');
  }, 60_000);

  it('loads only the fast path\'s own modules for a forwarded command', () => {
    // A loader hook that records every module the real binary loads (Node 20.6+: module.register).
    const hooks = join(scratch, 'hooks.mjs');
    const loaded = join(scratch, 'loaded.txt');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(loaded)}, url + '\\n'); return next(url, context); }\n`);
    writeFileSync(join(scratch, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
    const result = spawnSync(process.execPath, ['--import', join(scratch, 'register.mjs'), join(process.cwd(), 'dist', 'cli', 'main.js'), 'audit', '--dir', dir], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: NOWHERE }, timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    const ours = readFileSync(loaded, 'utf8').trim().split('\n').filter((url) => !url.startsWith('node:') && !url.endsWith('/register.mjs'));
    const names = ours.map((url) => url.replace(/^.*\/dist\//, ''));
    expect(names).toContain('cli/operatorForward.js');
    expect(ours.filter((url) => url.includes('/node_modules/'))).toEqual([]);
    expect(names.filter((name) => /^(domain|store|app|protocol|transport|delivery)\//.test(name) || ['cli/runCli.js', 'home/home.js'].includes(name))).toEqual([]);
  }, 60_000);

  it('runs the command here, as before, with MW_CLI_LOCAL=1 (and here the database cannot be reached)', () => {
    process.env['MW_CLI_LOCAL'] = '1';
    try {
      expect(viaNode('audit', '--dir', dir).code).not.toBe(0);
    } finally {
      delete process.env['MW_CLI_LOCAL'];
    }
  }, 60_000);

  it('refuses the operator route without the home\'s operator token', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(new URL('/v1/operator/cli', node.https), { method: 'POST', rejectUnauthorized: false, headers: { authorization: 'Bearer not-the-token' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{"argv":["audit","--dir","/"]}');
    });
    expect(status).toBe(401);
  });
});
