/**
 * `npm run bench:curves` end to end at tiny sizes, so the command cannot rot: its own
 * PostgreSQL, a seeded history replayed by a real `serve` node, one table and the JSON line.
 * The heavy sizes (BENCHMARKS.md) stay out of `npm test`. Runs the built `dist/`.
 */

import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

it('measures the replay curve at two sizes and prints it as JSON', () => {
  const run = spawnSync(process.execPath, ['dist-tools/bench/curves.js', '--curve', 'replay', '--sizes', '40,90', '--json'], { encoding: 'utf8', timeout: 540_000 });
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

it('measures the registry curve: a copy caught up by one card holds it, and each point counts the bindings it reloaded', () => {
  const run = spawnSync(process.execPath, ['dist-tools/bench/curves.js', '--curve', 'registry', '--sizes', '10,30', '--json'], { encoding: 'utf8', timeout: 300_000 });
  expect(run.status, run.stderr).toBe(0);
  const json = JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as { registry: { size: number; bindings: number; fullReloadMs: number; catchUpOneCardMs: number; extendOneBindingUs: number }[] };
  expect(json.registry.map((p) => p.size)).toEqual([10, 30]);
  const [small, large] = json.registry as [(typeof json.registry)[0], (typeof json.registry)[0]];
  // Each point holds its Agents' bindings (and the ones registered by earlier rounds): 30 more than 10.
  expect(large.bindings - small.bindings).toBeGreaterThanOrEqual(20);
  for (const point of json.registry) {
    expect(point.fullReloadMs).toBeGreaterThan(0);
    expect(point.catchUpOneCardMs).toBeGreaterThan(0);
    expect(point.extendOneBindingUs).toBeGreaterThan(0);
  }
}, 360_000);
