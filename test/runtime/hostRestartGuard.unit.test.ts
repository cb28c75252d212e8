/**
 * The runtime host's guard against restarting a WorkItem in a hot loop
 * (src/client/runtime/hostRestartGuard.ts): runs that end without progress back off, doubling
 * to a bound, and after NO_PROGRESS_RUNS of them in a row the WorkItem is to be reported blocked
 * with `runtime-no-progress` instead of being started again; progress clears the count.
 */

import { describe, expect, it } from 'vitest';
import { NO_PROGRESS_BACKOFF_MAX_MS, NO_PROGRESS_BACKOFF_MS, NO_PROGRESS_RUNS } from '../../src/client/runtime/hostLimits.js';
import { RestartGuard, RUNTIME_NO_PROGRESS } from '../../src/client/runtime/hostRestartGuard.js';

const W = 'urn:missionweave:work-item:impl-3';

describe('the restart guard', () => {
  it('starts work that has not failed to progress at once', () => {
    expect(new RestartGuard().verdict(W, 0)).toEqual({ kind: 'start' });
  });

  it('backs off after each run without progress, doubling from its base to its bound', () => {
    const guard = new RestartGuard({ baseMs: 1_000, maxMs: 3_000, runs: 10 });
    const waits: number[] = [];
    let now = 0;
    for (let run = 1; run <= 4; run++) {
      guard.ended(W, false, 'blocked', now);
      const verdict = guard.verdict(W, now);
      expect(verdict.kind).toBe('wait');
      waits.push(verdict.kind === 'wait' ? verdict.ms : -1);
      // Too early: still waiting, for what is left; once it has passed: start.
      expect(guard.verdict(W, now + waits[run - 1]! - 1)).toMatchObject({ kind: 'wait', ms: 1, runs: run });
      now += waits[run - 1]!;
      expect(guard.verdict(W, now)).toEqual({ kind: 'start' });
    }
    expect(waits).toEqual([1_000, 2_000, 3_000, 3_000]);
  });

  it(`reports the WorkItem after ${NO_PROGRESS_RUNS} runs in a row without progress, and a report starts a fresh round`, () => {
    const guard = new RestartGuard();
    let now = 0;
    for (let run = 1; run < NO_PROGRESS_RUNS; run++) {
      guard.ended(W, false, 'blocked', now);
      expect(guard.verdict(W, now).kind).toBe('wait');
      now += NO_PROGRESS_BACKOFF_MAX_MS;
    }
    guard.ended(W, false, 'lease-lost', now);
    // However long it waited: it is not started again on its own.
    expect(guard.verdict(W, now + 3_600_000)).toEqual({ kind: 'report', runs: NO_PROGRESS_RUNS, last: 'lease-lost' });
    guard.reported(W);
    expect(guard.verdict(W, now)).toEqual({ kind: 'start' });
    expect(RUNTIME_NO_PROGRESS).toBe('runtime-no-progress');
  });

  it('clears the count when a run progresses', () => {
    const guard = new RestartGuard();
    guard.ended(W, false, 'blocked', 0);
    guard.ended(W, false, 'blocked', 0);
    expect(guard.runsOf(W)).toBe(2);
    guard.ended(W, true, 'lease-lost', 0);
    expect(guard.runsOf(W)).toBe(0);
    expect(guard.verdict(W, 0)).toEqual({ kind: 'start' });
    guard.ended(W, false, 'blocked', 0);
    expect(guard.verdict(W, 0)).toEqual({ kind: 'wait', ms: NO_PROGRESS_BACKOFF_MS, runs: 1 });
  });

  it('keeps counts only for WorkItems still held (bounded by what the runtime holds)', () => {
    const guard = new RestartGuard();
    for (let i = 0; i < 100; i++) guard.ended(`w-${i}`, false, 'blocked', 0);
    expect(guard.size).toBe(100);
    guard.forget((id) => id === 'w-7');
    expect(guard.size).toBe(1);
    expect(guard.runsOf('w-7')).toBe(1);
  });
});
