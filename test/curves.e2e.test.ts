/**
 * `npm run bench:curves` end to end at a tiny size, so the command cannot rot: its own
 * PostgreSQL, a seeded history replayed by a real `serve` node, one table and the JSON line.
 * The heavy sizes (BENCHMARKS.md) stay out of `npm test`. Runs the built `dist/`.
 */

import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

it('measures the replay curve at two sizes and prints it as JSON', () => {
  const run = spawnSync(process.execPath, ['dist/bench/curves.js', '--curve', 'replay', '--sizes', '40,90', '--json'], { encoding: 'utf8', timeout: 540_000 });
  expect(run.status, run.stderr).toBe(0);
  const lines = run.stdout.trim().split('\n');
  expect(lines[0]).toBe('replay:');
  const json = JSON.parse(lines.at(-1) as string) as { replay: { size: number; eventsPerSec: number; serverCpuUsPerReplayedEvent: number; seedEventsPerSec: number }[] };
  expect(json.replay.map((p) => p.size)).toEqual([40, 90]);
  for (const point of json.replay) {
    expect(point.eventsPerSec).toBeGreaterThan(0);
    expect(point.seedEventsPerSec).toBeGreaterThan(0);
    expect(point.serverCpuUsPerReplayedEvent).toBeGreaterThanOrEqual(0);
  }
  expect(run.stderr).toContain('verified: six stages per Event, sequences 1..90');
}, 600_000);
