/**
 * `npm run bench [-- --json] [--quick]`: the Group Authority measured end to end, with
 * same-run baselines. A real `missionweave serve` node on an embedded PostgreSQL
 * (`synchronous_commit` on, fsync on), driven by real Agents over wss from separate processes.
 * Prints a table; with `--json` the last line is one JSON object of the figures.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Home } from '../cli/home.js';
import { ensureHome } from '../cli/initCommand.js';
import { openEmbeddedPostgres, removeEmbeddedData } from '../store/embeddedPostgres.js';
import { naiveSqlPerSec, rawVerifyPerSec, rawWsDeliveriesPerSec } from './baselines.js';
import { BenchWorld, type BenchAgent, type BenchMission } from './benchWorld.js';
import { cpuByRole, cpuLine, processCpuSeconds, residentBytes, startLoad, startServe, type ServeNode } from './loadDriver.js';

const quick = process.argv.includes('--quick');
/** `--only a,b`: run only these phases (cold, many, one, naive, latency, deliveries, replay, idle). */
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt < 0 ? undefined : new Set((process.argv[onlyAt + 1] ?? '').split(','));
const want = (phase: string) => only === undefined || only.has(phase);
const scale = (full: number, small: number) => (quick ? small : full);
/** `--latency-rate N`: the steady offered load of the latency phase (1,000 Commands/s by default). */
const rateAt = process.argv.indexOf('--latency-rate');
const latencyRate = rateAt < 0 ? 1_000 : Number(process.argv[rateAt + 1]);
const figures: Record<string, number> = {};
const notes: string[] = [];
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function coldStart(root: string): Promise<number> {
  const home = new Home(join(root, 'cold'));
  delete process.env['DATABASE_URL'];
  await ensureHome(home, { port: 0 });
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const node = await startServe(home.directory, { ...process.env });
    times.push(node.readyMs);
    await node.stop();
  }
  return times.sort((a, b) => a - b)[1] as number;
}

function loadCpu(results: readonly Record<string, unknown>[]): string {
  return `load ${results.reduce((n, r) => n + Number(r['cpuSeconds'] ?? 0), 0).toFixed(1)} s`;
}

async function commandRun(world: BenchWorld, node: ServeNode, agents: BenchAgent[], groupsOf: (i: number) => BenchMission[], perAgent: number, rate = 0): Promise<{ perSec: number; latencies: number[]; errors: number; serverCpuMs: number }> {
  const ca = world.home.path('tls', 'cert.pem');
  const halves = [agents.slice(0, agents.length / 2), agents.slice(agents.length / 2)];
  const loads = halves.map((part, h) => startLoad({
    mode: 'commands', url: node.url, caFile: ca, agentsFile: world.credentials(`writers-${h}.json`, part),
    groups: part.map((_, i) => groupsOf(h * halves[0]!.length + i)), perAgent, contentBytes: 900, window: 32, rate: rate / 2,
  }));
  await Promise.all(loads.map((l) => l.ready));
  const cpuBefore = await cpuByRole();
  const serverBefore = await processCpuSeconds(node.child.pid as number);
  for (const l of loads) l.go();
  const results = await Promise.all(loads.map((l) => l.result));
  const serverCpu = (await processCpuSeconds(node.child.pid as number)) - serverBefore;
  const cpuAfter = await cpuByRole();
  const accepted = results.reduce((n, r) => n + Number(r['accepted']), 0);
  const elapsed = Math.max(...results.map((r) => Number(r['elapsedMs'])));
  const errors = results.reduce((n, r) => n + Object.values(r['errors'] as Record<string, number>).reduce((a, b) => a + b, 0), 0);
  const serverCpuMs = (serverCpu * 1000) / Math.max(1, accepted);
  log(`  ${accepted} accepted in ${Math.round(elapsed)} ms; ${results.reduce((n, r) => n + Number(r['received']), 0)} frames received; CPU: ${cpuLine(cpuBefore, cpuAfter)}, ${loadCpu(results)}; this node ${serverCpuMs.toFixed(3)} ms per Command`);
  return { perSec: accepted / (elapsed / 1000), latencies: results.flatMap((r) => r['latencies'] as number[]).sort((a, b) => a - b), errors, serverCpuMs };
}

async function deliveries(world: BenchWorld, node: ServeNode, writer: BenchAgent, mission: BenchMission, subscribers: BenchAgent[], events: number): Promise<number> {
  const ca = world.home.path('tls', 'cert.pem');
  const head = Number((await world.running.pool.query<{ s: string }>('select last_sequence as s from groups where group_id = $1', [mission.groupId])).rows[0]?.s ?? 0);
  const subscribe = startLoad({ mode: 'subscribe', url: node.url, caFile: ca, agentsFile: world.credentials('subscribers.json', subscribers), groups: [[mission]], expect: events, afterSequence: head });
  await subscribe.ready;
  subscribe.go();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const write = startLoad({ mode: 'commands', url: node.url, caFile: ca, agentsFile: world.credentials('delivery-writer.json', [writer]), groups: [[mission]], perAgent: events, contentBytes: 900, window: 256 });
  await write.ready;
  const cpuBefore = await cpuByRole();
  const start = Date.now();
  write.go();
  const [received, written] = await Promise.all([subscribe.result, write.result]);
  const cpuAfter = await cpuByRole();
  log(`  ${Number(received['deliveries'])} deliveries in ${Number(received['lastAt']) - start} ms; CPU: ${cpuLine(cpuBefore, cpuAfter)}, ${loadCpu([received, written])}`);
  return Number(received['deliveries']) / ((Number(received['lastAt']) - start) / 1000);
}

async function replay(world: BenchWorld, node: ServeNode, reader: BenchAgent, mission: BenchMission, events: number): Promise<number> {
  const load = startLoad({ mode: 'subscribe', url: node.url, caFile: world.home.path('tls', 'cert.pem'), agentsFile: world.credentials('reader.json', [reader]), groups: [[mission]], expect: events, afterSequence: 0 });
  await load.ready;
  const cpuBefore = await cpuByRole();
  const start = Date.now();
  load.go();
  const result = await load.result;
  const cpuAfter = await cpuByRole();
  log(`  ${events} Events replayed in ${Number(result['lastAt']) - start} ms; CPU: ${cpuLine(cpuBefore, cpuAfter)}, ${loadCpu([result])}`);
  return events / ((Number(result['lastAt']) - start) / 1000);
}

async function idleSessions(world: BenchWorld, node: ServeNode, agents: BenchAgent[]): Promise<number> {
  const pid = node.child.pid as number;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const before = await residentBytes(pid);
  const parts = [agents.slice(0, agents.length / 2), agents.slice(agents.length / 2)];
  const loads = parts.map((part, i) => startLoad({ mode: 'idle', url: node.url, caFile: world.home.path('tls', 'cert.pem'), agentsFile: world.credentials(`idle-${i}.json`, part), groups: [] }));
  await Promise.all(loads.map((l) => l.ready));
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const after = await residentBytes(pid);
  for (const l of loads) l.kill();
  return (after - before) / agents.length;
}

async function deliveryPhase(world: BenchWorld, node: ServeNode, writers: BenchAgent[]): Promise<void> {
  log('deliveries to 200 subscribers');
  const subscribers = await world.agents('subscriber', 200);
  const audience = await world.mission(writers[1] as BenchAgent, subscribers);
  const events = scale(1_000, 200);
  figures['deliveriesPerSec'] = await deliveries(world, node, writers[1] as BenchAgent, audience, subscribers, events);
  const tls = { cert: readFileSync(world.home.path('tls', 'cert.pem'), 'utf8'), key: readFileSync(world.home.path('tls', 'key.pem'), 'utf8') };
  figures['rawWsDeliveriesPerSec'] = await rawWsDeliveriesPerSec(tls, world.home.path('tls', 'cert.pem'), 200, events, 1_800);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'mw-bench-'));
  let database: Awaited<ReturnType<typeof openEmbeddedPostgres>> | undefined;
  try {
    if (want('cold')) {
      log('cold start');
      figures['coldStartMs'] = await coldStart(root);
    }
    figures['rawVerifyPerSec'] = rawVerifyPerSec();
    database = await openEmbeddedPostgres(join(root, 'db'), { temporary: true });
    const url = database.url;
    const world = await BenchWorld.create(join(root, 'org'), url);
    log('registering Agents and creating Missions');
    const writers = await world.agents('writer', 50);
    const many: BenchMission[] = [];
    for (let j = 0; j < 100; j++) many.push(await world.mission(writers[j % 50] as BenchAgent, []));
    const one = await world.mission(writers[0] as BenchAgent, writers);
    const node = await startServe(world.home.directory, { ...process.env, DATABASE_URL: url });
    const spread = (i: number) => [many[i] as BenchMission, many[i + 50] as BenchMission];
    if (want('many')) {
      log('commands, many Groups');
      const run = await commandRun(world, node, writers, spread, scale(300, 60));
      figures['commandsPerSecManyGroups'] = run.perSec;
      figures['serverCpuMsPerCommandManyGroups'] = run.serverCpuMs;
      if (run.errors > 0) notes.push(`${run.errors} Commands refused in the many-Groups run`);
    }
    if (want('one')) {
      log('commands, one Group');
      figures['commandsPerSecOneGroup'] = (await commandRun(world, node, writers, () => [one], scale(160, 40))).perSec;
    }
    if (want('naive')) {
      log('naive SQL baseline');
      figures['naiveSqlPerSec'] = await naiveSqlPerSec(url, 50, 100, scale(15_000, 3_000), 2_000);
    }
    if (want('latency')) {
      log(`latency at ${latencyRate} Commands/s`);
      const steady = await commandRun(world, node, writers, spread, Math.round((scale(200, 60) * latencyRate) / 1_000), latencyRate);
      figures['latencyP50Ms'] = percentile(steady.latencies, 50);
      figures['latencyP99Ms'] = percentile(steady.latencies, 99);
      figures['latencyMaxMs'] = steady.latencies.at(-1) ?? 0;
    }
    if (want('deliveries')) await deliveryPhase(world, node, writers);
    if (want('replay')) {
      log('replay');
      const history = await world.mission(writers[2] as BenchAgent, []);
      const replayed = scale(200_000, 20_000);
      await world.fill(history, replayed - 1, 'replayed message');
      figures['replayEventsPerSec'] = await replay(world, node, writers[2] as BenchAgent, history, replayed);
    }
    if (want('idle')) {
      log('idle sessions');
      const idle = await world.agents('idle', scale(10_000, 1_000));
      figures['bytesPerIdleSession'] = await idleSessions(world, node, idle);
      figures['idleSessions'] = idle.length;
    }
    await node.stop();
    await world.close();
  } finally {
    await database?.stop().catch(() => undefined);
    removeEmbeddedData(join(root, 'cold', 'db')); // the cold-start nodes' cluster
    rmSync(root, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
const rows: [string, string][] = Object.entries(figures).map(([name, value]) => [name, value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(1)]);
process.stdout.write(`${rows.map(([name, value]) => `${name.padEnd(28)} ${value.padStart(12)}`).join('\n')}\n`);
for (const note of notes) process.stdout.write(`note: ${note}\n`);
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 10) / 10])))}\n`);
process.exit(0);
