/**
 * The short fault suite, as CI runs it: real nodes and a real PostgreSQL, SIGKILLs (one right
 * after a commit), a PostgreSQL restart, storms, disconnects and stale-epoch probes, and the
 * Worker faults (a Worker paused past its leases and resumed, one SIGKILLed mid-execution, two
 * racing for each offer) — and not a single violation in the checked history.
 */

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('survives the short fault run with no violation', () => {
  const run = spawnSync(process.execPath, [join(process.cwd(), 'dist-tools', 'faults', 'faults.js'), '--short', '--json'], { encoding: 'utf8', timeout: 240_000 });
  const lines = run.stdout.trim().split('\n');
  if (run.status !== 0) console.error(run.stdout, run.stderr.slice(-4_000));
  const figures = JSON.parse(lines.at(-1) ?? '{}') as Record<string, number> & {
    workerFaults: Record<string, number>;
    work: Record<string, number>;
    workInvariants: { completedByFencedOwner: number; offerWonTwice: number; judged: Record<string, number> };
  };
  expect(run.status).toBe(0);
  expect(figures['violations']).toBe(0);
  expect(figures['nodeKills']! + figures['nodeKillsAfterCommit']!).toBeGreaterThanOrEqual(2);
  expect(figures['nodeKillsAfterCommit']).toBeGreaterThanOrEqual(1);
  expect(figures['databaseRestarts']).toBe(1);
  expect(figures['storms']).toBeGreaterThan(0);
  expect(figures['resumes']).toBeGreaterThan(0);
  expect(figures['staleProbes']).toBeGreaterThan(0);
  expect(figures['commands']).toBeGreaterThan(500);
  // Its UNRESOLVED lines (kind, Action ID, Group, when, last answer) say which Commands, when not 0.
  expect(figures['unresolved'], lines.filter((line) => line.startsWith('UNRESOLVED ')).join('\n')).toBe(0);
  // The Worker faults happened, WorkItems were completed around them, and the invariants judged them.
  expect(figures.workerFaults['paused']).toBeGreaterThanOrEqual(1);
  expect(figures.workerFaults['killed']).toBeGreaterThanOrEqual(1);
  expect(figures.workerFaults['races']).toBeGreaterThanOrEqual(2);
  expect(figures.work['completed']).toBeGreaterThanOrEqual(1);
  expect(figures.workInvariants).toMatchObject({ completedByFencedOwner: 0, offerWonTwice: 0 });
  expect(figures.workInvariants.judged['submissions']).toBeGreaterThanOrEqual(1);
  // Every submitted result was published first (§13.1), and each publication was judged for fencing.
  expect(figures.workInvariants.judged['publications']).toBeGreaterThanOrEqual(figures.workInvariants.judged['submissions']!);
  expect(figures.workInvariants.judged['acceptances']).toBeGreaterThanOrEqual(2);
}, 300_000);
