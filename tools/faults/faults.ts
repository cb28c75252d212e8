/**
 * `npm run faults [-- --json] [--short] [--database citus]`: a Jepsen-style fault suite. Two `missionweave serve`
 * nodes on one embedded PostgreSQL serve concurrent Agents while faults are injected: nodes
 * SIGKILLed at random moments and right after a commit (before the answer leaves), PostgreSQL
 * killed and restarted, duplicate-Command storms, random disconnects with resume, stale epochs
 * tried on purpose, and Worker faults (workRounds.ts): Worker processes paused past their lease
 * and resumed, SIGKILLed mid-execution, racing for one offer. Every invocation and answer is
 * recorded; afterwards the history is checked against the logs (checker.ts, workChecker.ts).
 * With `--database citus` the database is a fresh one on the Citus cluster MW_CITUS_URL names, and
 * instead of PostgreSQL a Citus worker (the one holding most of the run's Mission trees) is
 * stopped as a crash and started again (citusWorkers.ts); nothing that needed it may be
 * acknowledged while it is down. Exits 1 on any violation; with `--json` the last line is
 * `{"faults":N,"commands":N,"violations":N,…,"workerFaults":{…},"workInvariants":{…}}`.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchWorld, type BenchAgent, type BenchMission } from '../bench/benchWorld.js';
import { Reader, Writer, pause, pick, type Stage } from './actors.js';
import { checkDeliveries, checkDowntimes, checkEpochs, checkLogs, checkOperations, checkReplays, unresolved, unresolvedOperations, type Violation } from './checker.js';
import { CoordinationChurn, Owner } from './churn.js';
import { busiestWorker, checkWorkerDowntimes, readPlacements, startWorker, stopWorker, type WorkerDowntime } from './citusWorkers.js';
import { Cluster } from './cluster.js';
import { readFinalLogs, replayThroughNodes, verifyHistories } from './finalState.js';
import { Recorder } from './recorder.js';
import { checkLateCommands, checkWork, type LateCommands, type WorkChecks } from './workChecker.js';
import { WorkerProcess } from './workerPool.js';
import { WorkChurn } from './workRounds.js';

const short = process.argv.includes('--short');
const json = process.argv.includes('--json');
const databaseAt = process.argv.indexOf('--database');
const databaseKind = databaseAt >= 0 ? process.argv[databaseAt + 1] : 'embedded';
if (databaseKind !== 'embedded' && databaseKind !== 'citus') throw new Error(`--database ${String(databaseKind)}: embedded or citus`);
const citusAdminUrl = databaseKind === 'citus' ? process.env['MW_CITUS_URL'] : undefined;
if (databaseKind === 'citus' && (citusAdminUrl ?? '') === '') throw new Error('--database citus needs MW_CITUS_URL (export MW_CITUS_URL=$(scripts/citus.sh start))');
/** The Citus workers' downtimes, and the worker the run stops (the one holding most of its trees). */
const workerDowntimes: WorkerDowntime[] = [];
let workerToRestart = 0;
const plan = short
  ? { seconds: 25, writers: 5, readers: 4, groups: 3, nodeKills: 2, databaseRestarts: 1, workLanes: 2 }
  : { seconds: 90, writers: 10, readers: 8, groups: 6, nodeKills: 10, databaseRestarts: 2, workLanes: 3 };
const began = Date.now();
/** How long the actors may take, once the faults are over, to settle their last Commands. */
const SETTLE_MS = 120_000;
const log = (line: string) => process.stderr.write(`[faults +${((Date.now() - began) / 1_000).toFixed(1)} s] ${line}\n`);

async function setUp(root: string, cluster: Cluster) {
  const url = await cluster.startDatabase();
  const world = await BenchWorld.create(join(root, 'org'), url);
  const writers = await world.agents('writer', plan.writers);
  const readers = await world.agents('reader', plan.readers);
  const [lead, second, auditor, workLead] = (await world.agents('coordinator', 4)) as [BenchAgent, BenchAgent, BenchAgent, BenchAgent];
  // Two Workers per lane of Worker-fault rounds, in a work Mission of their own.
  const workers = await world.agents('worker', 2 * plan.workLanes);
  const groups: BenchMission[] = [];
  for (let i = 0; i < plan.groups; i++) groups.push(await world.mission(lead, [...writers, ...readers, auditor]));
  const coordination = await world.mission(lead, [auditor]);
  const work = await world.mission(workLead, [...workers, auditor]);
  const owner = world.owner;
  await world.close();
  return { writers, readers, lead, second, auditor, groups, coordination, workLead, workers, work, owner, ca: readFileSync(world.home.path('tls', 'cert.pem'), 'utf8') };
}

/** Injects the planned faults over the run, spread at random moments. */
async function injectFaults(cluster: Cluster, stage: Stage, until: number): Promise<void> {
  const { recorder } = stage;
  const span = until - Date.now();
  const moments = [
    ...Array.from({ length: plan.nodeKills }, (_, i) => ({ at: ((i + 0.5 + (Math.random() - 0.5) * 0.6) / plan.nodeKills) * span, what: i % 2 === 0 ? 'kill-after-commit' : 'kill' })),
    ...Array.from({ length: plan.databaseRestarts }, (_, i) => ({ at: ((i + 0.5) / plan.databaseRestarts) * span + 1_700, what: 'database' })),
  ].sort((a, b) => a.at - b.at);
  const start = Date.now();
  for (const moment of moments) {
    await pause(Math.max(0, start + moment.at - Date.now()));
    if (moment.what === 'database' && citusAdminUrl !== undefined) {
      await stopWorker(citusAdminUrl, workerToRestart);
      const from = Date.now();
      log(`Citus worker ${workerToRestart} stopped (immediate)`);
      await pause(3_000 + Math.random() * 1_000);
      workerDowntimes.push({ port: workerToRestart, from, to: Date.now() });
      await startWorker(citusAdminUrl, workerToRestart);
      recorder.count('workerRestarts');
      log(`Citus worker ${workerToRestart} started`);
      continue;
    }
    if (moment.what === 'database') {
      const from = Date.now();
      cluster.killDatabase();
      log('PostgreSQL killed');
      await pause(2_000 + Math.random() * 1_000);
      recorder.downtimes.push({ from, to: Date.now() });
      await cluster.restartDatabase();
      recorder.count('databaseRestarts');
      log('PostgreSQL restarted');
      continue;
    }
    // Kill one node at a time: the other keeps serving.
    for (let waited = 0; cluster.liveUrls().length < cluster.nodes.length && waited < 20_000; waited += 100) await pause(100);
    const node = pick(cluster.nodes.filter((n) => n.url !== undefined));
    if (node === undefined) continue;
    const how = moment.what === 'kill' ? (await cluster.killNode(node), 'kill') : await cluster.killNodeAfterNextCommit(node);
    recorder.count(how === 'after-commit' ? 'nodeKillsAfterCommit' : 'nodeKills');
    log(`${node.name} killed (${how})`);
    await pause(300 + Math.random() * 1_200);
    await cluster.startNode(node);
  }
}

async function main(): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), 'mw-faults-'));
  const cluster = new Cluster(join(root, 'db'), join(root, 'org'), 2, log, citusAdminUrl);
  const recorder = new Recorder();
  const started = Date.now();
  const workers: WorkerProcess[] = [];
  try {
    log(`setting up (${short ? 'short' : 'full'} run)`);
    const world = await setUp(root, cluster);
    const runGroups = [...world.groups, world.coordination, world.work].map((g) => g.groupId);
    if (citusAdminUrl !== undefined) {
      workerToRestart = busiestWorker(await readPlacements(cluster.databaseUrl, []), runGroups);
      log(`on Citus (${cluster.databaseUrl}): worker ${workerToRestart} holds the most of the run's trees`);
    }
    for (const node of cluster.nodes) await cluster.startNode(node);
    const stage: Stage = { recorder, cluster, ca: world.ca, epochs: new Map(), stopping: false };
    const owner = new Owner(world.owner.principal, world.owner.key, stage);
    const writers = world.writers.map((agent, i) => new Writer(agent, [world.groups[i % world.groups.length] as BenchMission, world.groups[(i + 1) % world.groups.length] as BenchMission], stage));
    const readers = world.readers.map((agent, i) => new Reader(agent, world.groups[i % world.groups.length] as BenchMission, stage));
    const coordination = new CoordinationChurn([world.lead, world.second], world.coordination, owner, stage);
    for (const agent of world.workers) workers.push(new WorkerProcess(agent, stage));
    for (const worker of workers) worker.spawn();
    const work = new WorkChurn(world.workLead, world.work, stage);
    log(`running for ${plan.seconds} s`);
    const until = Date.now() + plan.seconds * 1_000;
    const running = [
      ...writers.map((w) => w.run()),
      ...readers.map((r) => r.run(2_000)),
      coordination.renewLoop(300),
      ...Array.from({ length: plan.workLanes }, (_, i) => work.lane([workers[2 * i] as WorkerProcess, workers[2 * i + 1] as WorkerProcess], i, until)),
      (async () => {
        for (let round = 0; Date.now() < until; round++) {
          await pause(1_200 + Math.random() * 600);
          const writer = pick(writers) as Writer;
          const work = [
            () => writer.storm(16).then(() => recorder.count('storms')),
            () => owner.storm(pick(world.groups) as BenchMission, 12).then(() => recorder.count('storms')),
            () => writer.staleSessionProbe(),
            () => owner.churnMembership(writer, world.groups[writers.indexOf(writer) % world.groups.length] as BenchMission),
            () => coordination.reassign(),
          ];
          await (work[round % work.length] as () => Promise<void>)();
        }
      })(),
    ];
    await injectFaults(cluster, stage, until);
    await pause(Math.max(0, until - Date.now()));
    log('faults over; settling every Command');
    stage.stopping = true;
    for (const node of cluster.nodes) if (node.child === undefined) await cluster.startNode(node);
    // Every 10 s while settling: what is still unsettled, by its last answer.
    const watch = setInterval(() => log(`settling: ${JSON.stringify(tally(unresolvedOperations(recorder).map((u) => u.last)))}`), 10_000);
    const settledAll = await Promise.race([Promise.all(running).then(() => true), pause(SETTLE_MS).then(() => false)]);
    clearInterval(watch);
    if (!settledAll) log(`settling ran past ${SETTLE_MS / 1_000} s: ${unresolved(recorder)} Commands still unsettled`);

    log('reading the logs back');
    const groupIds = runGroups;
    const logs = await readFinalLogs(cluster.databaseUrl, groupIds);
    const replays = await replayThroughNodes(cluster, world.ca, world.auditor, logs);
    const histories = await verifyHistories(join(root, 'org'), cluster.databaseUrl, groupIds);
    const workChecks = checkWork(logs);
    const late = checkLateCommands(recorder, logs);
    const placements = citusAdminUrl === undefined ? undefined : await readPlacements(cluster.databaseUrl, [...new Set(recorder.operations.map((op) => op.actorId))]);
    const workerChecks = placements === undefined ? undefined : checkWorkerDowntimes(recorder, workerDowntimes, placements);
    const violations: Violation[] = [
      ...checkLogs(logs),
      ...checkOperations(recorder, logs),
      ...checkDowntimes(recorder),
      ...(workerChecks?.violations ?? []),
      ...checkDeliveries(recorder, logs),
      ...checkReplays(replays, logs),
      ...checkEpochs(logs),
      ...histories.map((problem) => ({ rule: 'history-invalid', detail: problem })),
      ...cluster.unexpectedExits.map((exit) => ({ rule: 'node-crashed', detail: exit })),
      ...workChecks.fencing,
      ...workChecks.offers,
      ...late.violations,
      ...workers.flatMap((w) => w.unexpectedExits).map((exit) => ({ rule: 'worker-crashed', detail: exit })),
    ];
    const citus = placements === undefined ? undefined : {
      restartedWorker: workerToRestart,
      treesOnIt: runGroups.filter((id) => placements.groups.get(id) === workerToRestart).length,
      treesElsewhere: runGroups.filter((id) => placements.groups.get(id) !== workerToRestart).length,
      acknowledgedWhileDown: workerChecks?.servedWhileDown ?? 0,
    };
    return report(recorder, logs.reduce((n, l) => n + l.events.length, 0), violations, { checks: workChecks, late }, Date.now() - started, root, citus);
  } finally {
    for (const worker of workers) await worker.stop();
    await cluster.stop();
    if (process.env['MW_FAULTS_KEEP'] !== '1') rmSync(root, { recursive: true, force: true });
  }
}

function tally(items: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

function report(recorder: Recorder, events: number, violations: Violation[], work: { checks: WorkChecks; late: LateCommands }, durationMs: number, root: string, citus?: Record<string, number>): number {
  const c = (name: string) => recorder.counters.get(name) ?? 0;
  const workerFaults = { paused: c('workerPauses'), killed: c('workerKills') + c('workerKillsInFlight'), killedInFlight: c('workerKillsInFlight'), races: c('offerRaces') };
  const figures = {
    faults: c('nodeKills') + c('nodeKillsAfterCommit') + c('databaseRestarts') + c('workerRestarts') + c('storms') + c('disconnects') + c('probes') + workerFaults.paused + workerFaults.killed + workerFaults.races,
    commands: recorder.operations.length,
    violations: violations.length,
    nodeKills: c('nodeKills'),
    nodeKillsAfterCommit: c('nodeKillsAfterCommit'),
    databaseRestarts: c('databaseRestarts'),
    workerRestarts: c('workerRestarts'),
    storms: c('storms'),
    stormCopies: c('stormCopies'),
    disconnects: c('disconnects'),
    resumes: c('resumes'),
    staleProbes: c('probes'),
    copiesSent: recorder.completions.length,
    retries: c('retries'),
    retriesBy: recorder.retriesBy(),
    answersLost: c('answersLost'),
    unresolved: unresolved(recorder),
    deliveries: recorder.segments.reduce((n, s) => n + s.received.length, 0),
    events,
    workerFaults,
    work: { authorized: c('workAuthorized'), completed: c('workCompleted'), abandoned: c('workAbandoned'), reoffers: c('reoffers'), lateCommands: work.late.sent, lateRefused: work.late.refused, lateRefusedWith: work.late.refusedWith, lateKept: work.late.kept, killedCommandsSettled: c('killedCommandsSettled') },
    workInvariants: { completedByFencedOwner: work.checks.fencing.length + work.late.violations.length, offerWonTwice: work.checks.offers.length, judged: work.checks.judged },
    ...(citus === undefined ? {} : { citus }),
    durationMs,
  };
  for (const v of violations.slice(0, 50)) process.stdout.write(`VIOLATION ${v.rule}: ${v.detail}\n`);
  for (const { op, last, lastAt, copies } of unresolvedOperations(recorder).slice(0, 30)) {
    const when = lastAt === undefined ? '' : ` at +${lastAt - began} ms`;
    process.stdout.write(`UNRESOLVED ${op.kind} ${op.actionId} by ${op.actorId} in ${op.groupId}, invoked at +${op.invokedAt - began} ms, ${copies} copies answered, last answer ${last}${when}\n`);
  }
  if (violations.length > 0 || figures.unresolved > 0) {
    const file = join(tmpdir(), `mw-faults-history-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify({ violations, recorder }, (_, v: unknown) => (v instanceof Map ? Object.fromEntries(v) : v)));
    process.stdout.write(`history written to ${file} (scratch ${root})\n`);
  }
  process.stdout.write(`${Object.entries(figures).map(([k, v]) => `${k.padEnd(22)} ${typeof v === 'object' ? JSON.stringify(v) : String(v).padStart(8)}`).join('\n')}\n`);
  if (json) process.stdout.write(`${JSON.stringify(figures)}\n`);
  return violations.length === 0 ? 0 : 1;
}

process.exit(await main().catch((error: unknown) => {
  process.stderr.write(`[faults] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 2;
}));
