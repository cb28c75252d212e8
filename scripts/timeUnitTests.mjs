#!/usr/bin/env node
/**
 * `npm run test:unit:time`: runs the unit tests (`npm run test:unit`; arguments go to vitest)
 * and prints what they cost — wall time, and the CPU time of vitest and its workers (user and
 * system) — with the load average and the cores, since a busy machine stretches the wall time
 * but hardly the CPU time. The goal (issue 30): at most 30 s of wall time on 2 free cores, which
 * needs the CPU time (user + system) well under 60 s. Figures belong in docs/testing.md and
 * BENCHMARKS.md, not in a timed test. Linux (reads /proc/self/stat for the children's CPU time).
 */

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';

/** User and system seconds of this process's waited-for children (vitest and its workers). */
function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3, state.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = 100; // USER_HZ, 100 on every Linux ABI in use
    return { user: Number(fields[13]) / ticks, system: Number(fields[14]) / ticks };
  } catch {
    return undefined;
  }
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
const loadBefore = load();
const started = performance.now();
const vitest = resolve('node_modules', '.bin', 'vitest');
const run = spawnSync(vitest, ['run', '--project', 'unit', '--project', 'unit-mocked', ...process.argv.slice(2)], { stdio: 'inherit' });
const wall = (performance.now() - started) / 1000;
const cpu = childrenCpu();

const lines = [
  `unit tests: ${run.status === 0 ? 'passed' : 'FAILED'}`,
  `wall     ${wall.toFixed(1)} s`,
  cpu === undefined
    ? 'cpu      (no /proc/self/stat here)'
    : `cpu      ${(cpu.user + cpu.system).toFixed(1)} s (user ${cpu.user.toFixed(1)} s, sys ${cpu.system.toFixed(1)} s)`,
  `cores    ${availableParallelism()}`,
  `load     ${loadBefore} before, ${load()} after (1, 5, 15 min)`,
];
console.log(`\n${lines.join('\n')}`);
process.exit(run.status ?? 1);
