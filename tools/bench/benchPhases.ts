/**
 * The phases of `npm run bench` that drive a running `serve` node: Commands (unpaced or at a
 * fixed rate), deliveries to many subscribers, replay of a long Group, idle sessions. Each
 * reports its rate and, from /proc samples around the timed part, its CPU cost per unit of work
 * (cpuCost.ts): the server's, PostgreSQL's and the load processes' own.
 */

import { sampleCost, unitCost, type CostProbe, type CostSample, type UnitCost } from './cpuCost.js';
import { type BenchAgent, type BenchMission, type BenchWorld } from './benchWorld.js';
import { cpuByRole, cpuLine, residentBytes, startLoad, type ServeNode } from './loadDriver.js';

export const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** What every phase runs against: the world, its serve node, and where to read their CPU. */
export interface BenchTarget {
  readonly world: BenchWorld;
  readonly node: ServeNode;
  readonly probe: CostProbe;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function loadCpuSeconds(results: readonly Record<string, unknown>[]): number {
  return results.reduce((n, r) => n + Number(r['cpuSeconds'] ?? 0), 0);
}

/** The phase's cost, and its timed window for `profileTop --window` (cpuProfile.ts). */
function costLine(cost: UnitCost, unit: string, before: CostSample, after: CostSample): string {
  const us = (v: number | undefined) => (v === undefined ? '–' : v.toFixed(1));
  return `per ${unit}: server ${us(cost.serverUs)} µs, PostgreSQL ${us(cost.postgresUs)} µs, load ${us(cost.loadUs)} µs; window ${before.atUs ?? 0}-${after.atUs ?? 0}`;
}

export interface CommandRun {
  readonly perSec: number;
  readonly latencies: number[];
  readonly errors: number;
  /** Refused Commands by error code, summed over the load processes. */
  readonly errorsByCode: Readonly<Record<string, number>>;
  readonly serverCpuMs: number;
  readonly cost: UnitCost;
}

export async function commandRun(t: BenchTarget, agents: BenchAgent[], groupsOf: (i: number) => BenchMission[], perAgent: number, rate = 0): Promise<CommandRun> {
  const ca = t.world.home.path('tls', 'cert.pem');
  const halves = [agents.slice(0, agents.length / 2), agents.slice(agents.length / 2)];
  const loads = halves.map((part, h) => startLoad({
    mode: 'commands', url: t.node.url, caFile: ca, agentsFile: t.world.credentials(`writers-${h}.json`, part),
    groups: part.map((_, i) => groupsOf(h * halves[0]!.length + i)), perAgent, contentBytes: 900, window: 32, rate: rate / 2,
  }));
  await Promise.all(loads.map((l) => l.ready));
  const cpuBefore = await cpuByRole();
  const before = await sampleCost(t.probe);
  for (const l of loads) l.go();
  const results = await Promise.all(loads.map((l) => l.result));
  const after = await sampleCost(t.probe);
  const cpuAfter = await cpuByRole();
  const accepted = results.reduce((n, r) => n + Number(r['accepted']), 0);
  const elapsed = Math.max(...results.map((r) => Number(r['elapsedMs'])));
  const errorsByCode: Record<string, number> = {};
  for (const r of results) for (const [code, n] of Object.entries(r['errors'] as Record<string, number>)) errorsByCode[code] = (errorsByCode[code] ?? 0) + n;
  const errors = Object.values(errorsByCode).reduce((a, b) => a + b, 0);
  const cost = unitCost(before, after, accepted, loadCpuSeconds(results));
  const serverCpuMs = (cost.serverUs ?? 0) / 1000;
  log(`  ${accepted} accepted in ${Math.round(elapsed)} ms; ${results.reduce((n, r) => n + Number(r['received']), 0)} frames received; CPU: ${cpuLine(cpuBefore, cpuAfter)}, load ${loadCpuSeconds(results).toFixed(1)} s; ${costLine(cost, 'Command', before, after)}`);
  return { perSec: accepted / (elapsed / 1000), latencies: results.flatMap((r) => r['latencies'] as number[]).sort((a, b) => a - b), errors, errorsByCode, serverCpuMs, cost };
}

/**
 * Deliveries of `events` Events to every subscriber. The server's cost per delivery includes
 * committing the Commands that produce those Events (one writer), which the raw ws baseline
 * does not do.
 */
export async function deliveries(t: BenchTarget, writers: readonly BenchAgent[], mission: BenchMission, subscribers: BenchAgent[], events: number): Promise<{ perSec: number; cost: UnitCost }> {
  const ca = t.world.home.path('tls', 'cert.pem');
  const head = Number((await t.world.running.pool.query<{ s: string }>('select last_sequence as s from groups where group_id = $1', [mission.groupId])).rows[0]?.s ?? 0);
  const subscribe = startLoad({ mode: 'subscribe', url: t.node.url, caFile: ca, agentsFile: t.world.credentials('subscribers.json', subscribers), groups: [[mission]], expect: events, afterSequence: head });
  await subscribe.ready;
  subscribe.go();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  // The writers share the Events: each stays under the Cooperation Policy's message rate per
  // Agent per Group (600 a minute), which refuses the rest with RATE_LIMITED.
  if (events % writers.length !== 0) throw new Error(`${events} Events do not split over ${writers.length} writers`);
  const write = startLoad({ mode: 'commands', url: t.node.url, caFile: ca, agentsFile: t.world.credentials('delivery-writer.json', writers), groups: writers.map(() => [mission]), perAgent: events / writers.length, contentBytes: 900, window: 256 });
  await write.ready;
  const cpuBefore = await cpuByRole();
  const before = await sampleCost(t.probe);
  const start = Date.now();
  write.go();
  // A refused Command never reaches the subscribers, who would wait for it forever.
  const refused = write.result.then((result) => {
    const errors = result['errors'] as Record<string, number> | undefined;
    if (errors !== undefined && Object.keys(errors).length > 0) throw new Error(`delivery writers refused: ${JSON.stringify(errors)}`);
    return result;
  });
  const [received, written] = await Promise.all([subscribe.result, refused]);
  const after = await sampleCost(t.probe);
  const cpuAfter = await cpuByRole();
  const delivered = Number(received['deliveries']);
  const cost = unitCost(before, after, delivered, loadCpuSeconds([received, written]));
  log(`  ${delivered} deliveries in ${Number(received['lastAt']) - start} ms; CPU: ${cpuLine(cpuBefore, cpuAfter)}, load ${loadCpuSeconds([received, written]).toFixed(1)} s; ${costLine(cost, 'delivery', before, after)}`);
  return { perSec: delivered / ((Number(received['lastAt']) - start) / 1000), cost };
}

export async function replay(t: BenchTarget, reader: BenchAgent, mission: BenchMission, events: number): Promise<{ perSec: number; cost: UnitCost }> {
  const load = startLoad({ mode: 'subscribe', url: t.node.url, caFile: t.world.home.path('tls', 'cert.pem'), agentsFile: t.world.credentials('reader.json', [reader]), groups: [[mission]], expect: events, afterSequence: 0 });
  await load.ready;
  const cpuBefore = await cpuByRole();
  const before = await sampleCost(t.probe);
  const start = Date.now();
  load.go();
  const result = await load.result;
  const after = await sampleCost(t.probe);
  const cpuAfter = await cpuByRole();
  const cost = unitCost(before, after, events, loadCpuSeconds([result]));
  log(`  ${events} Events replayed in ${Number(result['lastAt']) - start} ms; CPU: ${cpuLine(cpuBefore, cpuAfter)}, load ${loadCpuSeconds([result]).toFixed(1)} s; ${costLine(cost, 'Event', before, after)}`);
  return { perSec: events / ((Number(result['lastAt']) - start) / 1000), cost };
}

/**
 * Idle sessions: the server's resident bytes per open session, and what opening them cost —
 * the TLS handshake, HELLO's challenge and signature, the Session Epoch's transaction — per
 * session, while the load processes open them as fast as the server answers.
 */
export async function idleSessions(t: BenchTarget, agents: BenchAgent[]): Promise<{ bytesPerSession: number; openedPerSec: number; openCost: UnitCost }> {
  const pid = t.node.child.pid as number;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const resident = await residentBytes(pid);
  const parts = [agents.slice(0, agents.length / 2), agents.slice(agents.length / 2)];
  const loads = parts.map((part, i) => startLoad({ mode: 'idle', url: t.node.url, caFile: t.world.home.path('tls', 'cert.pem'), agentsFile: t.world.credentials(`idle-${i}.json`, part), groups: [] }));
  const before = await sampleCost(t.probe);
  const start = Date.now();
  await Promise.all(loads.map((l) => l.ready));
  const elapsed = Date.now() - start;
  const after = await sampleCost(t.probe);
  // The load processes report their CPU only when they end; an idle one never does.
  const openCost: UnitCost = { ...unitCost(before, after, agents.length, 0), loadUs: undefined };
  log(`  ${agents.length} sessions opened in ${elapsed} ms; ${costLine(openCost, 'session', before, after)}`);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const afterBytes = await residentBytes(pid);
  for (const l of loads) l.kill();
  return { bytesPerSession: (afterBytes - resident) / agents.length, openedPerSec: agents.length / (elapsed / 1000), openCost };
}
