/**
 * `npm run bench [-- --json] [--quick] [--database citus]`: the Group Authority measured end to
 * end, with same-run baselines (`--database citus`: again on a Citus cluster, benchCitus.ts). A real `missionweave serve` node on an embedded PostgreSQL
 * (`synchronous_commit` on, fsync on), driven by real Agents over wss from separate processes.
 * Prints a table; with `--json` the last line is one JSON object of the figures: rates, and
 * per phase the CPU the server, PostgreSQL and the load spent per unit of work, against a
 * same-run cryptographic floor (issue 16; BENCHMARKS.md says how each is measured).
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Home } from '#src/home/home.js';
import { ensureHome } from '#src/cli/initCommand.js';
import { openEmbeddedPostgres, removeEmbeddedData } from '#src/store/embeddedPostgres.js';
import { naiveSqlPerSec, rawVerifyPerSec, rawWsDeliveries } from './baselines.js';
import { commandRun, deliveries, idleSessions, log, percentile, replay, type BenchTarget } from './benchPhases.js';
import { clusterDurability, openCitusBenchDatabase, type CitusBenchDatabase } from './benchCitus.js';
import { BenchWorld, type BenchAgent, type BenchMission } from './benchWorld.js';
import { halfLoad, postmasterPid, readProcStats, treeTicks, USER_HZ, type UnitCost } from './cpuCost.js';
import { cryptoFloorUsPerCommand } from './cryptoFloor.js';
import { startServe } from './loadDriver.js';

const quick = process.argv.includes('--quick');
/** `--only a,b`: run only these phases (cold, many, one, naive, latency, halfload, deliveries, replay, idle). */
const onlyAt = process.argv.indexOf('--only');
/** `--database embedded|citus`: citus runs the phases again on the cluster MW_CITUS_URL names (many, one and replay unless `--only`). */
const databaseAt = process.argv.indexOf('--database');
const databaseKind = databaseAt < 0 ? 'embedded' : process.argv[databaseAt + 1];
if (databaseKind !== 'embedded' && databaseKind !== 'citus') throw new Error(`--database ${String(databaseKind)}: embedded or citus`);
const only = onlyAt >= 0 ? new Set((process.argv[onlyAt + 1] ?? '').split(',')) : databaseKind === 'citus' ? new Set(['many', 'one', 'replay']) : undefined;
const want = (phase: string) => only === undefined || only.has(phase);
const scale = (full: number, small: number) => (quick ? small : full);
/** `--latency-rate N`: the steady offered load of the latency phase (1,000 Commands/s by default). */
const rateAt = process.argv.indexOf('--latency-rate');
const latencyRate = rateAt < 0 ? 1_000 : Number(process.argv[rateAt + 1]);
const figures: Record<string, number> = {};
/** This run's cryptographic floor per Command (µs), for the server's ratio to it. */
let floorUs = Number.NaN;
const notes: string[] = [];

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

/** Records a phase's CPU per unit under `names` (server, PostgreSQL, load), skipping what is unknown. */
function setCost(cost: UnitCost, names: readonly [server: string, postgres: string, load: string]): void {
  [cost.serverUs, cost.postgresUs, cost.loadUs].forEach((value, i) => {
    if (value !== undefined) figures[names[i] as string] = value;
  });
}

async function deliveryPhase(t: BenchTarget, writers: BenchAgent[]): Promise<void> {
  log('deliveries to 200 subscribers');
  const subscribers = await t.world.agents('subscriber', 200);
  const deliveryWriters = [writers[1], writers[2]] as BenchAgent[];
  const audience = await t.world.mission(writers[1] as BenchAgent, [...subscribers, writers[2] as BenchAgent]);
  const events = scale(1_000, 200);
  const ours = await deliveries(t, deliveryWriters, audience, subscribers, events);
  figures['deliveriesPerSec'] = ours.perSec;
  setCost(ours.cost, ['serverCpuUsPerDelivery', 'postgresCpuUsPerDelivery', 'loadCpuUsPerDelivery']);
  const tls = { cert: readFileSync(t.world.home.path('tls', 'cert.pem'), 'utf8'), key: readFileSync(t.world.home.path('tls', 'key.pem'), 'utf8') };
  const raw = await rawWsDeliveries(tls, t.world.home.path('tls', 'cert.pem'), 200, events, 1_800);
  figures['rawWsDeliveriesPerSec'] = raw.perSec;
  figures['rawWsCpuUsPerDelivery'] = raw.cpuUsPerDelivery;
  log(`  raw ws: ${raw.cpuUsPerDelivery.toFixed(1)} µs of CPU per delivery`);
}

/** p99 Command→Event at half of this run's many-Groups throughput (issue 16's latency target). */
async function halfLoadPhase(t: BenchTarget, writers: BenchAgent[], spread: (i: number) => BenchMission[]): Promise<void> {
  const many = figures['commandsPerSecManyGroups'];
  if (many === undefined) {
    notes.push('halfload needs the many-Groups phase of the same run; skipped');
    return;
  }
  const { rate, perAgent } = halfLoad(many, writers.length, scale(10, 3));
  log(`latency at half load, ${rate} Commands/s`);
  const steady = await commandRun(t, writers, spread, perAgent, rate);
  figures['halfLoadCommandsPerSec'] = rate;
  figures['latencyAtHalfLoadP50Ms'] = percentile(steady.latencies, 50);
  figures['latencyAtHalfLoadP99Ms'] = percentile(steady.latencies, 99);
  setCost(steady.cost, ['serverCpuUsPerCommandAtHalfLoad', 'postgresCpuUsPerCommandAtHalfLoad', 'loadCpuUsPerCommandAtHalfLoad']);
}

/** Statements Citus ran during `run`, as figures named after `phase` (Citus pass only). */
async function routed<T>(phase: string, citus: CitusBenchDatabase | undefined, run: () => Promise<T>): Promise<T> {
  const before = await citus?.counts();
  const ticksBefore = citus === undefined ? [] : nodeTicks(await readProcStats(), citus.postmasterPids);
  const result = await run();
  const ticksAfter = citus === undefined ? [] : nodeTicks(await readProcStats(), citus.postmasterPids);
  const after = await citus?.counts();
  if (citus !== undefined) {
    // Each node's share of the PostgreSQL CPU: what one machine per node would each carry.
    const spent = ticksAfter.map((ticks, i) => ticks - (ticksBefore[i] ?? 0));
    const total = spent.reduce((a, b) => a + b, 0);
    if (total > 0) figures[`coordinatorShareOfPostgresCpu${phase}`] = (spent[0] ?? 0) / total;
    log(`  PostgreSQL CPU by node (coordinator first): ${spent.map((ticks) => (ticks / USER_HZ).toFixed(2)).join(' s, ')} s`);
  }
  if (before !== undefined && after !== undefined) {
    const single = after.single - before.single;
    const multi = after.multi - before.multi;
    figures[`singleShardStatements${phase}`] = single;
    figures[`multiShardStatements${phase}`] = multi;
    if (single + multi > 0) figures[`singleShardShare${phase}`] = single / (single + multi);
    log(`  Citus ran ${single} statements on one shard, ${multi} on several`);
  }
  return result;
}

function nodeTicks(stats: Awaited<ReturnType<typeof readProcStats>>, pids: readonly number[]): number[] {
  return pids.map((pid) => treeTicks(stats, pid));
}

/** The phases against one database; `postmasters` are its nodes' postmaster PIDs on this machine. */
async function onDatabase(root: string, url: string, postmasters: readonly number[], citus?: CitusBenchDatabase): Promise<void> {
  const world = await BenchWorld.create(root, url);
  log('registering Agents and creating Missions');
  const writers = await world.agents('writer', 50);
  const many: BenchMission[] = [];
  for (let j = 0; j < 100; j++) many.push(await world.mission(writers[j % 50] as BenchAgent, []));
  const one = await world.mission(writers[0] as BenchAgent, writers);
  const node = await startServe(world.home.directory, { ...process.env, DATABASE_URL: url });
  const [postmaster, ...more] = postmasters as [number, ...number[]];
  const t: BenchTarget = { world, node, probe: { serverPid: node.child.pid as number, postmasterPid: postmaster, morePostmasterPids: more } };
  const spread = (i: number) => [many[i] as BenchMission, many[i + 50] as BenchMission];
  try {
    await phases(t, writers, spread, one, citus);
  } finally {
    await node.stop();
    await world.close();
  }
}

async function phases(t: BenchTarget, writers: BenchAgent[], spread: (i: number) => BenchMission[], one: BenchMission, citus: CitusBenchDatabase | undefined): Promise<void> {
  const world = t.world;
  if (want('many')) {
    log('commands, many Groups');
    const run = await routed('ManyGroups', citus, () => commandRun(t, writers, spread, scale(300, 60)));
    figures['commandsPerSecManyGroups'] = run.perSec;
    figures['serverCpuMsPerCommandManyGroups'] = run.serverCpuMs;
    setCost(run.cost, ['serverCpuUsPerCommand', 'postgresCpuUsPerCommand', 'loadCpuUsPerCommand']);
    if (run.cost.serverUs !== undefined) figures['serverCpuPerCommandOverFloor'] = run.cost.serverUs / floorUs;
    if (run.errors > 0) notes.push(`${run.errors} Commands refused in the many-Groups run${citus === undefined ? '' : ' on Citus'}: ${JSON.stringify(run.errorsByCode)}`);
  }
  if (want('one')) {
    log('commands, one Group');
    const run = await routed('OneGroup', citus, () => commandRun(t, writers, () => [one], scale(160, 40)));
    figures['commandsPerSecOneGroup'] = run.perSec;
    setCost(run.cost, ['serverCpuUsPerCommandOneGroup', 'postgresCpuUsPerCommandOneGroup', 'loadCpuUsPerCommandOneGroup']);
    if (run.errors > 0) notes.push(`${run.errors} Commands refused in the one-Group run${citus === undefined ? '' : ' on Citus'}: ${JSON.stringify(run.errorsByCode)}`);
  }
  if (want('naive')) {
    log('naive SQL baseline');
    figures['naiveSqlPerSec'] = await naiveSqlPerSec(world.databaseUrl, 50, 100, scale(15_000, 3_000), 2_000);
  }
  if (want('latency')) {
    log(`latency at ${latencyRate} Commands/s`);
    const steady = await commandRun(t, writers, spread, Math.round((scale(200, 60) * latencyRate) / 1_000), latencyRate);
    figures['latencyP50Ms'] = percentile(steady.latencies, 50);
    figures['latencyP99Ms'] = percentile(steady.latencies, 99);
    figures['latencyMaxMs'] = steady.latencies.at(-1) ?? 0;
    setCost(steady.cost, ['serverCpuUsPerCommandAtLatencyRate', 'postgresCpuUsPerCommandAtLatencyRate', 'loadCpuUsPerCommandAtLatencyRate']);
  }
  if (want('halfload')) await halfLoadPhase(t, writers, spread);
  if (want('deliveries')) await deliveryPhase(t, writers);
  if (want('replay')) {
    log('replay');
    const history = await world.mission(writers[2] as BenchAgent, []);
    const replayed = scale(200_000, 20_000);
    await world.fill(history, replayed - 1, 'replayed message');
    const run = await routed('Replay', citus, () => replay(t, writers[2] as BenchAgent, history, replayed));
    figures['replayEventsPerSec'] = run.perSec;
    setCost(run.cost, ['serverCpuUsPerReplayedEvent', 'postgresCpuUsPerReplayedEvent', 'loadCpuUsPerReplayedEvent']);
  }
  if (want('idle')) {
    log('idle sessions');
    const idle = await world.agents('idle', scale(10_000, 1_000));
    const opened = await routed('IdleSessions', citus, () => idleSessions(t, idle));
    figures['bytesPerIdleSession'] = opened.bytesPerSession;
    figures['idleSessions'] = idle.length;
    figures['sessionsOpenedPerSec'] = opened.openedPerSec;
    setCost(opened.openCost, ['serverCpuUsPerSessionOpened', 'postgresCpuUsPerSessionOpened', 'loadCpuUsPerSessionOpened']);
  }
}

/**
 * `--database citus`: the same phases again on the Citus cluster, their figures named
 * `…OnCitus`, and Citus against plain PostgreSQL of the same run as `citusOverPlain…` ratios.
 */
async function onCitus(root: string): Promise<void> {
  const adminUrl = process.env['MW_CITUS_URL'] ?? '';
  if (adminUrl === '') throw new Error('--database citus needs MW_CITUS_URL (export MW_CITUS_URL=$(scripts/citus.sh start))');
  const plain = { ...figures };
  for (const name of Object.keys(figures)) delete figures[name];
  const citus = await openCitusBenchDatabase(adminUrl);
  try {
    notes.push(`Citus cluster: coordinator and ${citus.postmasterPids.length - 1} workers on this machine, ${await clusterDurability(citus.url)} (embedded PostgreSQL: fsync on, synchronous_commit on)`);
    log(`Citus: ${citus.url}, postmasters ${citus.postmasterPids.join(', ')}`);
    await onDatabase(join(root, 'org-citus'), citus.url, citus.postmasterPids, citus);
  } finally {
    await citus.drop().catch((error: unknown) => notes.push(`dropping the bench database on Citus failed: ${String(error)}`));
  }
  const onCluster = Object.fromEntries(Object.entries(figures).map(([name, value]) => [`${name}OnCitus`, value]));
  for (const name of Object.keys(figures)) delete figures[name];
  Object.assign(figures, plain, onCluster);
  for (const name of ['commandsPerSecManyGroups', 'commandsPerSecOneGroup', 'replayEventsPerSec', 'postgresCpuUsPerCommand', 'postgresCpuUsPerCommandOneGroup', 'postgresCpuUsPerReplayedEvent']) {
    const [a, b] = [figures[`${name}OnCitus`], figures[name]];
    if (a !== undefined && b !== undefined && b > 0) figures[`citusOverPlain_${name}`] = a / b;
  }
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
    const floor = cryptoFloorUsPerCommand();
    figures['cryptoFloorUsPerCommand'] = floor.floorUs;
    floorUs = floor.floorUs;
    log(`crypto floor per Command: verify ${floor.verifyUs.toFixed(1)} µs + sign ${floor.signUs.toFixed(1)} µs = ${floor.floorUs.toFixed(1)} µs (node:crypto, one core)`);
    database = await openEmbeddedPostgres(join(root, 'db'), { temporary: true });
    await onDatabase(join(root, 'org'), database.url, [postmasterPid(database.dataDirectory)]);
    await database.stop();
    database = undefined;
    if (databaseKind === 'citus') await onCitus(root);
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
/** Figures below 10 (the ratio to the floor, µs per delivery) keep two decimals; the rest one. */
const rounded = (value: number) => (Math.abs(value) < 10 ? Math.round(value * 100) / 100 : Math.round(value * 10) / 10);
const rows: [string, string][] = Object.entries(figures).map(([name, value]) => [name, value >= 100 ? Math.round(value).toLocaleString('en') : String(rounded(value))]);
process.stdout.write(`${rows.map(([name, value]) => `${name.padEnd(36)} ${value.padStart(12)}`).join('\n')}\n`);
for (const note of notes) process.stdout.write(`note: ${note}\n`);
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, rounded(v)])))}\n`);
process.exit(0);
