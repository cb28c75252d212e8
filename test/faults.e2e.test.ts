/**
 * The short fault suite, as CI runs it: real nodes and a real PostgreSQL, SIGKILLs (one right
 * after a commit), a PostgreSQL restart, storms, disconnects and stale-epoch probes — and not a
 * single violation in the checked history.
 */

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('survives the short fault run with no violation', () => {
  const run = spawnSync(process.execPath, [join(process.cwd(), 'dist', 'faults', 'faults.js'), '--short', '--json'], { encoding: 'utf8', timeout: 240_000 });
  const lines = run.stdout.trim().split('\n');
  if (run.status !== 0) console.error(run.stdout, run.stderr.slice(-4_000));
  const figures = JSON.parse(lines.at(-1) ?? '{}') as Record<string, number>;
  expect(run.status).toBe(0);
  expect(figures['violations']).toBe(0);
  expect(figures['nodeKills']! + figures['nodeKillsAfterCommit']!).toBeGreaterThanOrEqual(2);
  expect(figures['nodeKillsAfterCommit']).toBeGreaterThanOrEqual(1);
  expect(figures['databaseRestarts']).toBe(1);
  expect(figures['storms']).toBeGreaterThan(0);
  expect(figures['resumes']).toBeGreaterThan(0);
  expect(figures['staleProbes']).toBeGreaterThan(0);
  expect(figures['commands']).toBeGreaterThan(500);
  expect(figures['unresolved']).toBe(0);
}, 300_000);
