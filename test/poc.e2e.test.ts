/**
 * The §22 proof of concept at reduced size, as `npm run poc -- --reduced` runs it: real
 * processes (a node, two root Coordinators, a replacement, a child Mission's Coordinator, three
 * Workers with their SQLite projections), wss through per-Agent relays, the human at the HTTPS
 * API, and every injection of the failure suite. Every named check must pass, and the checks
 * must be the ones §22 names.
 */

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const PROPERTIES = [
  'two-concurrent-missions-shared-worker', 'mission-graph-stages', 'child-security-mission', 'per-group-queues', 'weighted-fair-scheduling',
  'several-execution-slots', 'safe-checkpoint-preemption', 'context-isolation', 'credential-isolation', 'coordinator-review', 'human-approval-https',
  'replay-verify', 'no-stale-or-duplicate-side-effect',
];
const INJECTIONS = [
  'duplicate-event-delivery', 'worker-restart-and-queue-rebuild', 'coordinator-failure-and-epoch-replacement', 'temporary-group-disconnection',
  'lease-expiry-and-reassignment', 'high-priority-arrival', 'human-change-request',
];

// In `npm test` again since 2026-12-05 (docs/poc.md, "The reduced size in `npm test`"): the
// `.ci/run` failure of 02:20 UTC (worker-restart-and-queue-rebuild) was the check's counting — a
// resumable WorkItem whose job had submitted before the SIGKILL has nothing left to resume
// (test/pocRestartCheck.unit.test.ts) — and after that fix 12 of 12 runs of poc.js passed in a row
// at load averages 19-30 on the shared 2-core machine (130-224 s). Skip it with MW_POC_TEST=0.
// Its bounds are limits, not pace: the scenario gives up at 360 s, poc.js is killed at 560 s, the
// test at 590 s. It runs the built tools (dist-tools/, which `npm test` builds first).
const OPTED_OUT = process.env['MW_POC_TEST'] === '0';

it.skipIf(OPTED_OUT)(`passes every named check of the reduced proof of concept${OPTED_OUT ? ' (skipped: MW_POC_TEST=0)' : ''}`, () => {
  const run = spawnSync(process.execPath, [join(process.cwd(), 'dist-tools', 'poc', 'poc.js'), '--reduced', '--seed', '11', '--json'], { encoding: 'utf8', timeout: 560_000 });
  const lines = run.stdout.trim().split('\n');
  if (run.status !== 0) console.error(run.stdout, run.stderr.slice(-6_000));
  const result = JSON.parse(lines.at(-1) ?? '{}') as { checks: { name: string; pass: boolean; detail: string }[]; trace: string[] };
  const names = result.checks.map((c) => c.name);
  expect([...names].sort()).toEqual([...PROPERTIES, ...INJECTIONS.map((i) => `injection: ${i}`)].sort());
  expect(result.checks.filter((c) => !c.pass)).toEqual([]);
  expect(run.status).toBe(0);
  // The trace names every stage of both Missions and the child's.
  expect(result.trace.some((t) => t.startsWith('S/security-audit: '))).toBe(true);
  expect(result.trace.some((t) => t.startsWith('A/rework-1: '))).toBe(true);
}, 590_000);
