/**
 * `npm run poc [-- --seed N] [--reduced] [--twice|--once] [--json]`: the §22 proof of concept across real
 * processes. One `missionweave serve` node on an embedded PostgreSQL; two concurrent
 * software-development Missions (A: requirements → implementation → testing → code review →
 * security review as a child Mission → integration → human Approval; B: design → features →
 * release tests) sharing one Worker; each Coordinator and Worker its own OS process with its own
 * home and SQLite projection, over wss (through a relay per Agent, so that one Agent's link can
 * be cut); the human MissionOwner at the console's HTTPS API. The failure suite (pocScenario.ts)
 * injects duplicate Event delivery, a Worker restart, a Coordinator failure with epoch
 * replacement, a temporary disconnection, a lease expiry with reassignment, a high-priority
 * arrival and a human change request. Prints one named check per property and per injection
 * (pocChecks.ts); exits 1 if any fails. With `--json` the last line is
 * `{"checks":[{"name","pass","detail"}…],"trace":[…],"seed":N}`.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPool } from '#src/store/pool.js';
import { Cluster } from '../faults/cluster.js';
import { readFinalLogs } from '../faults/finalState.js';
import { Journal } from './agentProcesses.js';
import { HumanConsole } from './humanConsole.js';
import { LinkProxy } from './linkProxy.js';
import { runChecks, type Check } from './pocChecks.js';
import type { PocSize } from './pocPlan.js';
import { runScenario } from './pocScenario.js';
import { decisionTrace } from './pocTrace.js';
import { AGENT_NAMES, setUpPocWorld, type AgentName } from './pocWorld.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '..', '..', 'dist', 'cli', 'main.js');
const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
const size: PocSize = process.argv.includes('--reduced') ? 'reduced' : 'full';
const seed = Number(argument('--seed') ?? '7');
const json = process.argv.includes('--json');
const twice = process.argv.includes('--twice') || (size === 'full' && !process.argv.includes('--once'));
const log = (line: string) => process.stderr.write(`[poc] ${line}\n`);
process.env['MW_POC_STEP_MS'] = size === 'full' ? '400' : '200';

function replayVerify(orgDir: string, databaseUrl: string, groupId: string): { ok: boolean; detail: string } {
  const run = spawnSync(process.execPath, [CLI, 'replay', groupId, '--dir', orgDir, '--verify'], { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { ok: run.status === 0, detail: run.status === 0 ? `${run.stdout.split('\n').filter((l) => l !== '').length} Events` : `exit ${String(run.status)}: ${run.stderr.slice(-400)}` };
}

/** One whole run: its named checks and its decision trace. */
async function runOnce(): Promise<{ checks: Check[]; trace: string[] }> {
  const root = mkdtempSync(join(tmpdir(), 'mw-poc-'));
  const cluster = new Cluster(join(root, 'db'), join(root, 'org'), 1, log, undefined, 180_000);
  const proxies: Partial<Record<AgentName, LinkProxy>> = {};
  const journal = new Journal(log);
  let stopAll: (() => Promise<void>) | undefined;
  try {
    log(`setting up (${size} run, seed ${seed})`);
    const databaseUrl = await cluster.startDatabase();
    const world = await setUpPocWorld(root, databaseUrl);
    const node = cluster.nodes[0];
    if (node === undefined) throw new Error('no node');
    await cluster.startNode(node);
    const nodeUrl = node.url ?? '';
    const target = new URL(nodeUrl);
    for (const name of AGENT_NAMES) proxies[name] = await LinkProxy.open({ host: target.hostname, port: Number(target.port) });
    const human = new HumanConsole(`https://${target.host}`, world.ca, world.owner.principal, world.owner.key);
    await human.signIn();
    const pool = createPool(databaseUrl, { max: 2 });
    try {
      const outcome = await runScenario({
        root, world, proxies: proxies as Record<AgentName, LinkProxy>, nodeUrl, human, pool, journal, seed, size, log,
        scripts: { worker: join(here, 'workerHost.js'), coordinator: join(here, 'coordinatorHost.js'), handler: join(here, 'handlers', 'devHandler.js') },
      });
      stopAll = async () => {
        for (const p of outcome.processes) await p.stop();
      };
      await stopAll();
      log('reading the Groups back');
      const groupIds = [world.missions.A.groupId, world.missions.B.groupId, ...(outcome.childGroupId === undefined ? [] : [outcome.childGroupId])];
      const [A, B, S] = await readFinalLogs(databaseUrl, groupIds);
      if (A === undefined || B === undefined) throw new Error('no logs');
      log('replay --verify of each Group');
      const replays = Object.fromEntries(groupIds.map((g) => [g, replayVerify(world.orgDir, databaseUrl, g)]));
      // MW_POC_JOURNAL=FILE: what every Agent process reported, one JSON line each (to study a failure).
      const journalFile = process.env['MW_POC_JOURNAL'];
      if (journalFile !== undefined) writeFileSync(journalFile, journal.entries.map((e) => JSON.stringify(e)).join('\n'));
      const checks = runChecks({ world, logs: { A, B, S }, plans: outcome.plans, journal, injections: outcome.injections, replays });
      for (const p of outcome.processes) for (const exit of p.unexpectedExits) checks.push({ name: `process: ${p.name}`, pass: false, detail: exit });
      return { checks, trace: decisionTrace({ A, B, S }, world) };
    } finally {
      await pool.end();
    }
  } finally {
    await stopAll?.();
    for (const proxy of Object.values(proxies)) await proxy.close();
    await cluster.stop();
    if (process.env['MW_POC_KEEP'] !== '1') rmSync(root, { recursive: true, force: true });
    else log(`kept ${root}`);
  }
}

/**
 * The command: one run, or two with the same seed (`--twice`, the full size's default) and the
 * check that they took the same decisions in the same order (decisionTrace, IDs aside).
 */
async function main(): Promise<number> {
  const started = Date.now();
  const first = await runOnce();
  const checks = [...first.checks];
  if (twice) {
    log('second run with the same seed');
    const second = await runOnce();
    const differing = first.trace.filter((line, i) => second.trace[i] !== line).length + Math.abs(first.trace.length - second.trace.length);
    for (const c of second.checks) if (!c.pass) checks.push({ ...c, name: `second run: ${c.name}` });
    checks.push({ name: 'same-seed-same-decisions', pass: differing === 0 && first.trace.length > 0, detail: differing === 0 ? `two runs with seed ${seed}: the same ${first.trace.length} per-stage decision sequences, in the same order` : `${differing} of ${first.trace.length} decision sequences differ: ${first.trace.filter((line, i) => second.trace[i] !== line).slice(0, 2).join(' | ')} vs ${second.trace.filter((line, i) => first.trace[i] !== line).slice(0, 2).join(' | ')}` });
  }
  return report(checks, first.trace, Date.now() - started);
}

function report(checks: readonly Check[], trace: readonly string[], durationMs: number): number {
  const width = Math.max(...checks.map((c) => c.name.length));
  for (const c of checks) process.stdout.write(`${c.pass ? 'PASS' : 'FAIL'}  ${c.name.padEnd(width)}  ${c.detail}\n`);
  const failed = checks.filter((c) => !c.pass).length;
  process.stdout.write(`${checks.length - failed}/${checks.length} checks passed in ${(durationMs / 1000).toFixed(1)} s (seed ${seed}, ${size} size); decision trace ${trace.length} entries\n`);
  if (json) process.stdout.write(`${JSON.stringify({ seed, size, checks, trace, durationMs })}\n`);
  return failed === 0 ? 0 : 1;
}

process.exit(await main().catch((error: unknown) => {
  process.stderr.write(`[poc] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 2;
}));
