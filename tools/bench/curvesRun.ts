/**
 * The four scaling curves of `npm run bench:curves` (issue 16 part 5), each a list of points
 * measured against a real `serve` node on the bench's PostgreSQL: Commands over more and more
 * Groups, replay of longer and longer histories, restart-to-ready over those histories, and
 * memory for more and more idle sessions. Costs are read as in `npm run bench` (cpuCost.ts).
 */

import { get } from 'node:https';
import { readFileSync } from 'node:fs';
import { commandRun, log, replay, type BenchTarget } from './benchPhases.js';
import type { BenchAgent, BenchMission, BenchWorld } from './benchWorld.js';
import { postmasterPid } from './cpuCost.js';
import { CURVE_LIMITS, idleServeProcesses, median, writerGroups, type CurvePoint } from './curvesPlan.js';
import { createGroups, seedHistory, verifySeeded } from './curvesSeed.js';
import { seedAgents } from './curvesAgents.js';
import { startLoad, startServe, treeResidentBytes, type ServeNode } from './loadDriver.js';

/** Where the curves run: the world, and the PostgreSQL cluster its `serve` nodes use. */
export interface CurveWorld {
  readonly world: BenchWorld;
  readonly dataDirectory: string;
}

const SEED_CONTENT = 'replayed message';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function serve(cw: CurveWorld, extraArgs: readonly string[] = []): Promise<BenchTarget> {
  const node = await startServe(cw.world.home.directory, { ...process.env, DATABASE_URL: cw.world.databaseUrl }, extraArgs);
  return { world: cw.world, node, probe: { serverPid: node.child.pid as number, postmasterPid: postmasterPid(cw.dataDirectory) } };
}

/** Commands/s and CPU per Command with the many-Groups load spread over 10, 1,000, 100,000 Groups. */
export async function groupsCurve(cw: CurveWorld, sizes: readonly number[], perWriter: number): Promise<CurvePoint[]> {
  const writers = await cw.world.agents('writer', CURVE_LIMITS.writers);
  const groups: BenchMission[] = [];
  const t = await serve(cw);
  const points: CurvePoint[] = [];
  try {
    for (const size of sizes) {
      const started = performance.now();
      const before = groups.length;
      await createGroups(cw.world, writers, groups, size);
      const setupPerSec = (size - before) / ((performance.now() - started) / 1000);
      log(`${size} Groups (${size - before} created, ${Math.round(setupPerSec)}/s through the Command path)`);
      const spread = (w: number) => writerGroups(w, writers.length, size, perWriter).map((j) => groups[j] as BenchMission);
      const run = await commandRun(t, writers, spread, perWriter);
      if (run.errors > 0) throw new Error(`${run.errors} Commands refused at ${size} Groups: ${JSON.stringify(run.errorsByCode)}`);
      points.push({ size, figures: { commandsPerSec: run.perSec, serverCpuUsPerCommand: run.cost.serverUs ?? Number.NaN, postgresCpuUsPerCommand: run.cost.postgresUs ?? Number.NaN, setupGroupsPerSec: setupPerSec } });
    }
  } finally {
    await t.node.stop();
  }
  return points;
}

/** A Group of exactly `size` Events, seeded through the store layer and verified when small. */
async function history(cw: CurveWorld, owner: BenchAgent, size: number): Promise<{ mission: BenchMission; seedPerSec: number }> {
  const mission = await cw.world.mission(owner, []);
  const started = performance.now();
  await seedHistory(cw.world, mission, size, SEED_CONTENT);
  const seedPerSec = size / ((performance.now() - started) / 1000);
  log(`seeded a ${size}-Event Group at ${Math.round(seedPerSec)} Events/s`);
  if (size <= CURVE_LIMITS.verifyUpTo) {
    const problems = await verifySeeded(cw.world, mission.groupId);
    if (problems.length > 0) throw new Error(`seeded history fails verification: ${problems.slice(0, 3).join('; ')}`);
    log(`  verified: six stages per Event, sequences 1..${size}, fold equals the stored aggregates`);
  }
  return { mission, seedPerSec };
}

/** The histories replay seeded, reused by restart in the same run. */
export type Histories = Map<number, BenchMission>;

/** Events/s and CPU per replayed Event for one reader replaying each whole history. */
export async function replayCurve(cw: CurveWorld, sizes: readonly number[], histories: Histories): Promise<CurvePoint[]> {
  const [reader] = await cw.world.agents('reader', 1);
  const points: CurvePoint[] = [];
  for (const size of sizes) {
    const { mission, seedPerSec } = await history(cw, reader as BenchAgent, size);
    histories.set(size, mission);
    const t = await serve(cw);
    try {
      const run = await replay(t, reader as BenchAgent, mission, size);
      points.push({ size, figures: { eventsPerSec: run.perSec, serverCpuUsPerReplayedEvent: run.cost.serverUs ?? Number.NaN, postgresCpuUsPerReplayedEvent: run.cost.postgresUs ?? Number.NaN, seedEventsPerSec: seedPerSec } });
    } finally {
      await t.node.stop();
    }
  }
  return points;
}

/** Resolves when `GET /ready` answers 200, polling every 10 ms. */
async function readyOverHttps(node: ServeNode, ca: string): Promise<void> {
  const url = new URL(node.url);
  for (;;) {
    const status = await new Promise<number>((resolve) => {
      get({ host: url.hostname, port: url.port, path: '/ready', ca }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', () => resolve(0));
    });
    if (status === 200) return;
    await pause(10);
  }
}

/** Spawn-to-ready-line and spawn-to-`GET /ready` 200 with each history stored (median of restarts). */
export async function restartCurve(cw: CurveWorld, sizes: readonly number[], histories: Histories): Promise<CurvePoint[]> {
  const ca = readFileSync(cw.world.home.path('tls', 'cert.pem'), 'utf8');
  const [owner] = await cw.world.agents('restart', 1);
  const points: CurvePoint[] = [];
  for (const size of sizes) {
    if (!histories.has(size)) histories.set(size, (await history(cw, owner as BenchAgent, size)).mission);
    const stored = Number((await cw.world.running.pool.query<{ n: string }>('select count(*) as n from events')).rows[0]?.n);
    const line: number[] = [];
    const http: number[] = [];
    for (let i = 0; i < CURVE_LIMITS.restarts; i++) {
      const started = performance.now();
      const node = await startServe(cw.world.home.directory, { ...process.env, DATABASE_URL: cw.world.databaseUrl });
      line.push(node.readyMs);
      await readyOverHttps(node, ca);
      http.push(performance.now() - started);
      await node.stop();
    }
    log(`restart with ${stored} Events stored: ready line ${line.map(Math.round).join(', ')} ms; GET /ready 200 ${http.map(Math.round).join(', ')} ms`);
    points.push({ size, figures: { eventsStored: stored, readyLineMs: median(line), readyHttpMs: median(http) } });
  }
  return points;
}

/** The server's V8 heap in use, from its own `GET /metrics` (prom-client's default metrics). */
async function heapUsedBytes(node: ServeNode, ca: string): Promise<number> {
  const url = new URL(node.url);
  const body = await new Promise<string>((resolve, reject) => {
    get({ host: url.hostname, port: url.port, path: '/metrics', ca }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(text));
    }).on('error', reject);
  });
  return Number(/^nodejs_heap_size_used_bytes (\d+)/m.exec(body)?.[1] ?? Number.NaN);
}

/**
 * RSS and heap of a fresh `serve --processes N` node holding `size` idle authenticated sessions:
 * one node per point, so memory a larger point leaves behind never counts for the next; N is as
 * small as holds the sessions (`idleServeProcesses`: 1 up to 10,000, 3 for 30,000; the figure
 * `serveProcesses`). RSS is summed over the node's process tree (primary and N processes;
 * `treeRssBytes`), heap is the node's `/metrics` (the primary sums its processes'). Sessions
 * come from load processes of `sessionsPerProcess`, each from its own loopback address
 * (127.0.0.2, …). The Agents are registered through the store layer (curvesAgents.ts): the
 * Command path is O(n²) in them.
 */
export async function idleCurve(cw: CurveWorld, sizes: readonly number[]): Promise<CurvePoint[]> {
  const registering = performance.now();
  const count = Math.max(...sizes);
  const agents = await seedAgents(cw.world, 'idle', count);
  log(`registered ${count} idle Agents at ${Math.round(count / ((performance.now() - registering) / 1000))}/s (store-layer seed)`);
  const ca = readFileSync(cw.world.home.path('tls', 'cert.pem'), 'utf8');
  const points: CurvePoint[] = [];
  for (const size of sizes) {
    const processes = idleServeProcesses(size);
    const t = await serve(cw, ['--processes', String(processes)]);
    try {
      await pause(2_000);
      const [treeBefore, heapBefore] = [await treeResidentBytes(t.node.child.pid as number), await heapUsedBytes(t.node, ca)];
      const loads = [];
      for (let start = 0, k = 0; start < size; start += CURVE_LIMITS.sessionsPerProcess, k++) {
        const part = agents.slice(start, Math.min(size, start + CURVE_LIMITS.sessionsPerProcess));
        loads.push(startLoad({ mode: 'idle', url: t.node.url, caFile: cw.world.home.path('tls', 'cert.pem'), agentsFile: cw.world.credentials(`idle-${k}.json`, part), groups: [], localAddress: `127.0.0.${2 + k}`, pingMs: CURVE_LIMITS.idlePingMs }));
      }
      const opening = performance.now();
      await Promise.all(loads.map((l) => l.ready));
      const openMs = performance.now() - opening;
      await pause(3_000);
      const [tree, heap] = [await treeResidentBytes(t.node.child.pid as number), await heapUsedBytes(t.node, ca)];
      for (const l of loads) l.kill();
      const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
      log(`${size} idle sessions opened in ${Math.round(openMs)} ms: RSS summed over the node's ${tree.processes} processes (serve --processes ${processes}) ${mib(treeBefore.bytes)} → ${mib(tree.bytes)} MiB, heap of its processes ${mib(heapBefore)} → ${mib(heap)} MiB`);
      points.push({ size, figures: { serveProcesses: processes, treeRssBytes: tree.bytes, heapUsedBytes: heap, treeRssBytesPerIdleSession: (tree.bytes - treeBefore.bytes) / size, heapBytesPerIdleSession: (heap - heapBefore) / size, sessionsOpenedPerSec: size / (openMs / 1000) } });
    } finally {
      await t.node.stop();
    }
  }
  return points;
}
