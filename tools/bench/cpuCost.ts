/**
 * CPU cost per unit of work (issue 16 part 1), read from Linux /proc: the server node and the
 * PostgreSQL cluster the bench started, each as a process tree, sampled before and after a
 * phase. Per-unit cost swings far less than throughput on a shared machine, because another
 * tenant's load slows a phase down but does not add CPU to our processes.
 *
 * Only our own trees are summed, never every process whose command line says `postgres`: on a
 * machine shared with other test runs, those would count another cluster's work as ours.
 */

import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Clock ticks per second of /proc's utime and stime (USER_HZ). The kernel's ABI fixes it at 100
 * on every architecture the bench runs on, whatever the scheduler's HZ.
 */
export const USER_HZ = 100;

/** The fields of `/proc/<pid>/stat` the cost needs, in clock ticks. */
export interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  /** utime + stime: this process and all its threads (crypto workers included). */
  readonly ticks: number;
  /** cutime + cstime: its children that have ended and been waited for (closed backends). */
  readonly childTicks: number;
}

/**
 * Parses one `/proc/<pid>/stat` line (proc(5)). The command name in parentheses may hold spaces
 * and parentheses, so fields are counted from the last `)`: state, ppid, … utime is field 14.
 */
export function parseProcStat(text: string): ProcStat {
  const pid = Number(text.slice(0, text.indexOf(' ')));
  const fields = text.slice(text.lastIndexOf(')') + 2).trim().split(' ');
  const field = (i: number) => Number(fields[i] ?? Number.NaN);
  const stat = { pid, ppid: field(1), ticks: field(11) + field(12), childTicks: field(13) + field(14) };
  if (!Object.values(stat).every(Number.isFinite)) throw new Error(`not a /proc stat line: ${text.slice(0, 80)}`);
  return stat;
}

/**
 * CPU ticks of the tree rooted at `rootPid`: every live process's own ticks plus those of its
 * ended children. A backend that closed during the phase is in its postmaster's childTicks once
 * reaped, and a live one is counted only by itself, so nothing is counted twice.
 */
export function treeTicks(stats: readonly ProcStat[], rootPid: number): number {
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const root = stats.find((s) => s.pid === rootPid);
  if (root === undefined) return 0;
  let total = 0;
  const pending = [root];
  for (let s = pending.pop(); s !== undefined; s = pending.pop()) {
    total += s.ticks + s.childTicks;
    pending.push(...(children.get(s.pid) ?? []));
  }
  return total;
}

/** Microseconds of CPU per unit of work between two tick readings; undefined for no work. */
export function usPerUnit(beforeTicks: number, afterTicks: number, units: number, hz = USER_HZ): number | undefined {
  if (!(units > 0)) return undefined;
  return ((afterTicks - beforeTicks) * 1e6) / hz / units;
}

/** Every process's stat on this machine; a process that ends meanwhile is left out. */
export async function readProcStats(): Promise<ProcStat[]> {
  const stats: ProcStat[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      stats.push(parseProcStat(await readFile(join('/proc', entry, 'stat'), 'utf8')));
    } catch {
      // the process ended meanwhile
    }
  }
  return stats;
}

/** The postmaster's PID, from line 1 of `postmaster.pid` (PostgreSQL's documented layout). */
export function postmasterPid(dataDirectory: string): number {
  return Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** CPU ticks of the server node and of the PostgreSQL cluster at one instant. */
export interface CostSample {
  readonly server: number;
  readonly postgres: number;
  /** When, on the monotonic clock in µs (the clock of `--cpu-prof` profiles). */
  readonly atUs?: number;
}

/** Where the bench's own server and PostgreSQL live, to sample their trees. */
export interface CostProbe {
  readonly serverPid: number;
  readonly postmasterPid: number;
  /** A cluster's other nodes on this machine (a Citus cluster's workers): summed into `postgres`. */
  readonly morePostmasterPids?: readonly number[];
}

export async function sampleCost(probe: CostProbe): Promise<CostSample> {
  const stats = await readProcStats();
  const postgres = [probe.postmasterPid, ...(probe.morePostmasterPids ?? [])].reduce((sum, pid) => sum + treeTicks(stats, pid), 0);
  return { server: treeTicks(stats, probe.serverPid), postgres, atUs: Number(process.hrtime.bigint() / 1000n) };
}

/** Server and PostgreSQL CPU per unit between two samples, and the load processes' own. */
export interface UnitCost {
  readonly serverUs: number | undefined;
  readonly postgresUs: number | undefined;
  readonly loadUs: number | undefined;
}

/** `loadCpuSeconds` is what the load processes report of themselves (process.cpuUsage). */
export function unitCost(before: CostSample, after: CostSample, units: number, loadCpuSeconds: number): UnitCost {
  return {
    serverUs: usPerUnit(before.server, after.server, units),
    postgresUs: usPerUnit(before.postgres, after.postgres, units),
    loadUs: units > 0 ? (loadCpuSeconds * 1e6) / units : undefined,
  };
}

/**
 * The paced run for `latencyAtHalfLoadP99Ms`: half of the many-Groups throughput measured in
 * the same run, spread over `agents` writers for about `seconds`; at least one Command each.
 */
export function halfLoad(manyGroupsPerSec: number, agents: number, seconds: number): { rate: number; perAgent: number } {
  const rate = Math.max(1, Math.round(manyGroupsPerSec / 2));
  return { rate, perAgent: Math.max(1, Math.round((rate * seconds) / agents)) };
}
