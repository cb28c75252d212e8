/**
 * The arithmetic of the bench's cost figures (issue 16 part 1): /proc stat lines parsed, a
 * process tree's CPU summed without counting a process twice or a stranger's at all, CPU per
 * unit of work from two samples, the half-load pacing, and the crypto floor. No timing
 * assertions: the floor is only checked to be a positive, consistent figure.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { halfLoad, parseProcStat, readProcStats, sampleCost, treeTicks, unitCost, usPerUnit, USER_HZ, type ProcStat } from '../tools/bench/cpuCost.js';
import { cryptoFloorUsPerCommand, floorFromRates } from '../tools/bench/cryptoFloor.js';

/** A stat line as proc(5) lays it out, with the fields the cost reads set. */
function statLine(pid: number, comm: string, ppid: number, utime: number, stime: number, cutime: number, cstime: number): string {
  const after = ['S', ppid, pid, pid, 0, -1, 4194560, 100, 0, 0, 0, utime, stime, cutime, cstime, 20, 0, 3, 0, 12345];
  return `${pid} (${comm}) ${after.join(' ')}\n`;
}

describe('parseProcStat', () => {
  it('reads ppid, utime + stime and cutime + cstime, whatever the command name holds', () => {
    expect(parseProcStat(statLine(4242, 'postgres: bench (x) idle', 4200, 70, 30, 9, 1))).toEqual({ pid: 4242, ppid: 4200, ticks: 100, childTicks: 10 });
  });

  it('refuses a line that is not a stat line', () => {
    expect(() => parseProcStat('4242 (node) S 1')).toThrow(/not a \/proc stat line/);
  });

  it('reads this process from the real /proc', async () => {
    const self = parseProcStat(readFileSync('/proc/self/stat', 'utf8'));
    expect(self.pid).toBe(process.pid);
    expect(self.ppid).toBe(process.ppid);
    expect((await readProcStats()).some((s) => s.pid === process.pid)).toBe(true);
  });

  it('samples a real tree with its instant on the monotonic clock of CPU profiles', async () => {
    const own = parseProcStat(readFileSync('/proc/self/stat', 'utf8'));
    const sample = await sampleCost({ serverPid: process.pid, postmasterPid: -1 });
    expect(sample.server).toBeGreaterThanOrEqual(own.ticks + own.childTicks);
    expect(sample.postgres).toBe(0);
    expect(Math.abs((sample.atUs ?? 0) - Number(process.hrtime.bigint() / 1000n))).toBeLessThan(60_000_000);
  });
});

describe('treeTicks', () => {
  const stats: ProcStat[] = [
    { pid: 100, ppid: 1, ticks: 50, childTicks: 30 }, // postmaster; 30 ticks of backends that ended
    { pid: 101, ppid: 100, ticks: 20, childTicks: 0 },
    { pid: 102, ppid: 100, ticks: 5, childTicks: 0 },
    { pid: 103, ppid: 101, ticks: 2, childTicks: 0 },
    { pid: 200, ppid: 1, ticks: 999, childTicks: 7 }, // another tenant's cluster
  ];

  it('sums the root, its ended children and every live descendant', () => {
    expect(treeTicks(stats, 100)).toBe(50 + 30 + 20 + 5 + 2);
  });

  it('counts a subtree alone, and nothing for a root that is gone', () => {
    expect(treeTicks(stats, 101)).toBe(22);
    expect(treeTicks(stats, 999)).toBe(0);
  });
});

describe('CPU per unit', () => {
  it('turns a tick difference into microseconds per unit', () => {
    expect(USER_HZ).toBe(100);
    expect(usPerUnit(150, 250, 1_000)).toBe(1_000); // 100 ticks = 1 s over 1,000 Commands
    expect(usPerUnit(0, 3, 200_000, 100)).toBeCloseTo(0.15, 10);
  });

  it('has no figure for a phase that did no work', () => {
    expect(usPerUnit(10, 20, 0)).toBeUndefined();
    expect(unitCost({ server: 1, postgres: 1 }, { server: 2, postgres: 2 }, 0, 1)).toEqual({ serverUs: undefined, postgresUs: undefined, loadUs: undefined });
  });

  it('gives server, PostgreSQL and load cost per unit from two samples', () => {
    const cost = unitCost({ server: 1_000, postgres: 400 }, { server: 1_900, postgres: 700 }, 15_000, 1.5);
    expect(cost.serverUs).toBeCloseTo(600, 10);
    expect(cost.postgresUs).toBeCloseTo(200, 10);
    expect(cost.loadUs).toBeCloseTo(100, 10);
  });
});

describe('halfLoad', () => {
  it('offers half the many-Groups rate for about the given seconds', () => {
    expect(halfLoad(2_200, 50, 10)).toEqual({ rate: 1_100, perAgent: 220 });
    expect(halfLoad(1_555.6, 50, 10)).toEqual({ rate: 778, perAgent: 156 });
  });

  it('never offers nothing', () => {
    expect(halfLoad(0, 50, 3)).toEqual({ rate: 1, perAgent: 1 });
  });
});

describe('crypto floor', () => {
  it('adds the time of one verify and one sign', () => {
    expect(floorFromRates(5_000, 20_000)).toEqual({ verifyUs: 200, signUs: 50, floorUs: 250 });
  });

  it('measures a positive floor with node:crypto in this thread', () => {
    const floor = cryptoFloorUsPerCommand(1, 20);
    expect(floor.verifyUs).toBeGreaterThan(0);
    expect(floor.signUs).toBeGreaterThan(0);
    expect(Number.isFinite(floor.floorUs)).toBe(true);
    expect(floor.floorUs).toBeCloseTo(floor.verifyUs + floor.signUs, 10);
  });
});
