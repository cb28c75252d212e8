/**
 * Scheduler snapshots: a state survives a JSON round trip unchanged and decides the same after
 * it; a snapshot that is not one this Scheduler wrote is refused with what is wrong, never
 * restored into a state that decide or evolve could trip over.
 */

import { describe, expect, it } from 'vitest';
import { decide } from '../../src/client/runtime/scheduler.js';
import { MAX_SNAPSHOT_BYTES } from '../../src/client/runtime/schedulerLimits.js';
import { restoreScheduler, snapshotScheduler } from '../../src/client/runtime/schedulerSnapshot.js';
import type { SchedulerState } from '../../src/client/runtime/schedulerTypes.js';
import { admitted, given, MINUTE, policySet, request, step, T0 } from './schedulerFixtures.js';

function busyState(): SchedulerState {
  let state = given([policySet('A', { weight: 2, maxConcurrent: 2 }), policySet('B', { priorityClass: 'high' })], 2);
  for (const work of [request('a1', 'A'), request('a2', 'A', { urgency: 'critical' }), request('b1', 'B', { deadlineMs: T0 + 30 * MINUTE }), request('b2', 'B')]) {
    state = step(state, { type: 'admit', nowMs: T0, work }).state;
  }
  state = step(state, { type: 'schedule', nowMs: T0 }).state;
  state = step(state, { type: 'reportCheckpoint', nowMs: T0 + MINUTE, workItemId: 'a2', safe: true, durable: true }).state;
  return state;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test edits parsed JSON freely
type Edited = Record<string, any>;

function corrupt(edit: (value: Edited) => void): string {
  const value = JSON.parse(snapshotScheduler(busyState())) as Edited;
  edit(value);
  return JSON.stringify(value);
}

describe('scheduler snapshots', () => {
  it('round-trips a state with running, ready and checkpointed work as plain JSON', () => {
    const state = busyState();
    const text = snapshotScheduler(state);
    expect(JSON.parse(text)).toEqual(state);
    const restored = restoreScheduler(text);
    expect(restored).toEqual({ ok: true, state });
    if (!restored.ok) return;
    const command = { type: 'schedule', nowMs: T0 + 2 * MINUTE } as const;
    expect(decide(restored.state, command)).toEqual(decide(state, command));
    expect(snapshotScheduler(restored.state)).toBe(text);
  });

  it('keeps a snapshot taken earlier unchanged by later Events (copy-on-write)', () => {
    const state = busyState();
    const text = snapshotScheduler(state);
    step(state, { type: 'endRun', nowMs: T0 + 2 * MINUTE, workItemId: 'a2', outcome: 'submitted' });
    expect(snapshotScheduler(state)).toBe(text);
  });

  const cases: [string, string, RegExp][] = [
    ['text that is not JSON', '{"version":1,', /not JSON/],
    ['another version', corrupt((v) => (v.version = 2)), /unsupported snapshot version 2/],
    ['no slots', corrupt((v) => (v.slots = [])), /slots/],
    ['a slot naming ready work', corrupt((v) => v.slots.push('b2')), /slot 2 names b2, which is not running there/],
    ['a running WorkItem moved out of its slot', corrupt((v) => (v.slots[0] = 'b2')), /b1 runs in a slot that does not name it/],
    ['a run in a slot that does not name it', corrupt((v) => (v.slots = [null, null])), /runs in a slot that does not name it/],
    ['a policy out of range', corrupt((v) => (v.groups.A.policy.weight = 0)), /group A has an invalid policy/],
    ['a Group without its policySet flag', corrupt((v) => delete v.groups.A.policySet), /does not say whether its policy was set/],
    ['a fractional credit', corrupt((v) => (v.groups.A.credit = 0.5)), /credit/],
    ['work of an absent Group', corrupt((v) => delete v.groups.B), /names a Group the snapshot lacks/],
    ['an unknown status', corrupt((v) => (v.work.b2.status = 'paused')), /unknown status/],
    ['ready work holding a run', corrupt((v) => (v.work.b2.runStartedAtMs = T0)), /not running but holds a run/],
    ['a seq not below nextSeq', corrupt((v) => (v.nextSeq = 0)), /bad seq/],
    ['an invalid urgency', corrupt((v) => (v.work.b2.urgency = 'urgent')), /invalid request/],
    ['a key that disagrees with its ID', corrupt((v) => (v.work.b2.workItemId = 'zz')), /WorkItem b2 is malformed/],
  ];
  for (const [name, text, problem] of cases) {
    it(`refuses ${name}`, () => {
      const result = restoreScheduler(text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problem).toMatch(problem);
    });
  }

  it('refuses a snapshot over MAX_SNAPSHOT_BYTES before parsing it', () => {
    expect(restoreScheduler(' '.repeat(MAX_SNAPSHOT_BYTES + 1))).toEqual({ ok: false, problem: `snapshot exceeds ${MAX_SNAPSHOT_BYTES} bytes` });
  });

  it('restores an empty runtime', () => {
    const empty = given([admitted(request('x', 'G'))]);
    expect(restoreScheduler(snapshotScheduler(empty))).toEqual({ ok: true, state: empty });
  });
});
