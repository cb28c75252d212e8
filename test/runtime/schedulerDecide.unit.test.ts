/**
 * The Scheduler as a decider (§11.1, §11.3): given the Events that built a state, when a Command,
 * then these Events or this typed refusal.
 */

import { describe, expect, it } from 'vitest';
import { evolve } from '../../src/client/runtime/scheduler.js';
import { declineReasonOf, SCHEDULER_REFUSALS } from '../../src/client/runtime/schedulerRefusals.js';
import { MAX_GROUPS, MAX_HELD_WORK, MIN_RUN_BEFORE_PREEMPT_MS } from '../../src/client/runtime/schedulerLimits.js';
import type { GroupState, HeldWork, SchedulerState } from '../../src/client/runtime/schedulerTypes.js';
import { admitted, given, MINUTE, policy, policySet, request, step, T0, when } from './schedulerFixtures.js';

const started = (workItemId: string, groupId: string, slot: number, earners: string[], atMs = T0) =>
  ({ type: 'run.started', atMs, workItemId, groupId, slot, earners }) as const;

describe('admission', () => {
  it('admits a WorkItem into its Group queue, creating the Group', () => {
    const state = given([]);
    const work = request('w1', 'g1');
    expect(when(state, { type: 'admit', nowMs: T0, work })).toEqual({ ok: true, events: [admitted(work)] });
    const after = step(state, { type: 'admit', nowMs: T0, work }).state;
    expect(after.groups.g1?.policy.weight).toBe(1);
    expect(after.work.w1?.status).toBe('ready');
  });

  it('refuses a WorkItem it already holds', () => {
    const state = given([admitted(request('w1', 'g1'))]);
    expect(when(state, { type: 'admit', nowMs: T0, work: request('w1', 'g2') })).toEqual({
      ok: false,
      refusal: { code: 'duplicate-work-item', workItemId: 'w1', groupId: 'g2' },
    });
  });

  it('refuses a deadline that is not after the admission', () => {
    const decision = when(given([]), { type: 'admit', nowMs: T0, work: request('w1', 'g1', { deadlineMs: T0 }) });
    expect(decision).toEqual({ ok: false, refusal: { code: 'deadline-passed', workItemId: 'w1', groupId: 'g1' } });
  });

  it('refuses while the Group policy has admissions closed', () => {
    const decision = when(given([policySet('g1', { admitting: false })]), { type: 'admit', nowMs: T0, work: request('w1', 'g1') });
    expect(decision).toEqual({ ok: false, refusal: { code: 'group-closed', workItemId: 'w1', groupId: 'g1' } });
  });

  it("refuses past the Group's queue quota, counting blocked work, while other Groups still admit", () => {
    const state = given([policySet('g1', { maxQueued: 1 }), admitted(request('w1', 'g1'))]);
    expect(when(state, { type: 'admit', nowMs: T0, work: request('w2', 'g1') })).toEqual({
      ok: false,
      refusal: { code: 'group-queue-full', workItemId: 'w2', groupId: 'g1' },
    });
    expect(when(state, { type: 'admit', nowMs: T0, work: request('w2', 'g2') }).ok).toBe(true);
  });

  it('refuses a new Group past MAX_GROUPS and any WorkItem past MAX_HELD_WORK, both as capacity declines', () => {
    const base = given([]);
    const groups: Record<string, GroupState> = {};
    for (let i = 0; i < MAX_GROUPS; i += 1) groups[`g${i}`] = { groupId: `g${i}`, policy: policy({ maxQueued: 100 }), credit: 0, policySet: true };
    const crowded: SchedulerState = { ...base, groups };
    expect(when(crowded, { type: 'admit', nowMs: T0, work: request('w', 'new') })).toMatchObject({ ok: false, refusal: { code: 'too-many-groups' } });
    expect(when(crowded, { type: 'admit', nowMs: T0, work: request('w', 'g0') }).ok).toBe(true);
    const work: Record<string, HeldWork> = {};
    const one = step(base, { type: 'admit', nowMs: T0, work: request('w0', 'g0') }).state.work.w0 as HeldWork;
    for (let i = 0; i < MAX_HELD_WORK; i += 1) work[`w${i}`] = { ...one, workItemId: `w${i}`, groupId: `g${i % MAX_GROUPS}`, seq: i };
    const full: SchedulerState = { ...crowded, work, nextSeq: MAX_HELD_WORK };
    expect(when(full, { type: 'admit', nowMs: T0, work: request('w-next', 'g1') })).toMatchObject({ ok: false, refusal: { code: 'runtime-full' } });
    expect(declineReasonOf('too-many-groups')).toBe('capacity');
    expect(declineReasonOf('runtime-full')).toBe('capacity');
  });

  it('names a wire decline reason for every admission refusal, and deadline for the deadline', () => {
    const admission = Object.entries(SCHEDULER_REFUSALS).filter(([, entry]) => entry.admission);
    expect(admission.map(([code]) => code).sort()).toEqual(
      ['deadline-passed', 'duplicate-work-item', 'group-closed', 'group-queue-full', 'invalid-request', 'runtime-full', 'too-many-groups'],
    );
    expect(declineReasonOf('deadline-passed')).toBe('deadline');
    expect(declineReasonOf('group-queue-full')).toBe('capacity');
  });

  it('refuses an empty ID or a time that is not finite', () => {
    expect(when(given([]), { type: 'admit', nowMs: T0, work: request('', 'g1') })).toMatchObject({ ok: false, refusal: { code: 'invalid-request' } });
    const decision = when(given([]), { type: 'admit', nowMs: T0, work: request('w1', 'g1', { deadlineMs: Number.NaN }) });
    expect(decision).toMatchObject({ ok: false, refusal: { code: 'invalid-request' } });
  });

  it('refuses a Group policy out of range', () => {
    const state = given([], 2);
    expect(when(state, { type: 'setGroupPolicy', nowMs: T0, groupId: 'g1', policy: { weight: 0, priorityClass: 'normal', maxConcurrent: 1, maxQueued: 1, admitting: true } }))
      .toEqual({ ok: false, refusal: { code: 'invalid-policy', groupId: 'g1' } });
    expect(when(state, { type: 'setGroupPolicy', nowMs: T0, groupId: 'g1', policy: { weight: 1, priorityClass: 'normal', maxConcurrent: 3, maxQueued: 1, admitting: true } }).ok)
      .toBe(false);
  });
});

describe('dispatch', () => {
  it('fills every free slot; each pick is paid by the picked Group, so credits sum to zero and debt stays', () => {
    const state = given([admitted(request('a1', 'A')), admitted(request('b1', 'B')), admitted(request('c1', 'C'))], 2);
    const decision = when(state, { type: 'schedule', nowMs: T0 });
    expect(decision).toEqual({ ok: true, events: [started('a1', 'A', 0, ['A', 'B', 'C']), started('b1', 'B', 1, ['B', 'C'])] });
    const after = step(state, { type: 'schedule', nowMs: T0 }).state;
    expect([after.groups.A?.credit, after.groups.B?.credit, after.groups.C?.credit]).toEqual([-2, 0, 2]);
  });

  it("holds a Group to its concurrency quota and gives the other slot to another Group", () => {
    const state = given([policySet('A', { maxConcurrent: 1 }), admitted(request('a1', 'A')), admitted(request('a2', 'A')), admitted(request('b1', 'B'))], 2);
    expect(when(state, { type: 'schedule', nowMs: T0 })).toEqual({ ok: true, events: [started('a1', 'A', 0, ['A', 'B']), started('b1', 'B', 1, ['B'])] });
  });

  it('orders a Group queue by urgency, and lets aging lift routine work past a fresh critical one', () => {
    const routine = admitted(request('r', 'A', { urgency: 'routine' }));
    const critical = (atMs: number) => admitted(request('c', 'A', { urgency: 'critical' }), atMs);
    expect(when(given([routine, critical(T0)]), { type: 'schedule', nowMs: T0 })).toMatchObject({ ok: true, events: [{ workItemId: 'c' }] });
    const late = T0 + 40 * MINUTE;
    expect(when(given([routine, critical(late)]), { type: 'schedule', nowMs: late })).toMatchObject({ ok: true, events: [{ workItemId: 'r' }] });
  });

  it("does not let a Coordinator's urgency force its Mission ahead of another Group", () => {
    const state = given([admitted(request('b1', 'B', { urgency: 'routine' })), admitted(request('a1', 'A', { urgency: 'critical' }))]);
    expect(when(state, { type: 'schedule', nowMs: T0 })).toMatchObject({ ok: true, events: [{ workItemId: 'b1' }] });
  });

  it('lets a near deadline and the priority class of the Group count across Groups', () => {
    const deadline = given([admitted(request('b1', 'B')), admitted(request('a1', 'A', { deadlineMs: T0 + 10 * MINUTE }))]);
    expect(when(deadline, { type: 'schedule', nowMs: T0 })).toMatchObject({ ok: true, events: [{ workItemId: 'a1' }] });
    const classed = given([policySet('A', { priorityClass: 'high' }), admitted(request('b1', 'B')), admitted(request('a1', 'A'))]);
    expect(when(classed, { type: 'schedule', nowMs: T0 })).toMatchObject({ ok: true, events: [{ workItemId: 'a1' }] });
  });

  it('starts nothing when no slot is free or nothing is ready', () => {
    expect(when(given([]), { type: 'schedule', nowMs: T0 })).toEqual({ ok: true, events: [] });
    const full = given([admitted(request('a1', 'A')), started('a1', 'A', 0, ['A']), admitted(request('a2', 'A'))]);
    expect(when(full, { type: 'schedule', nowMs: T0 + MINUTE })).toEqual({ ok: true, events: [] });
  });
});

describe('run lifecycle', () => {
  const running = given([admitted(request('a1', 'A')), started('a1', 'A', 0, ['A'])]);

  it('records a safe durable checkpoint without a preemption request and keeps running', () => {
    const decision = when(running, { type: 'reportCheckpoint', nowMs: T0 + MINUTE, workItemId: 'a1', safe: true, durable: true });
    expect(decision).toEqual({ ok: true, events: [{ type: 'checkpoint.recorded', atMs: T0 + MINUTE, workItemId: 'a1', safe: true, durable: true }] });
    const after = step(running, { type: 'reportCheckpoint', nowMs: T0 + MINUTE, workItemId: 'a1', safe: true, durable: true }).state;
    expect(after.work.a1).toMatchObject({ status: 'running', lastSafeCheckpointAtMs: T0 + MINUTE });
  });

  it('blocks a run out of its slot and unblocks it into its Group queue', () => {
    const blocked = step(running, { type: 'endRun', nowMs: T0 + MINUTE, workItemId: 'a1', outcome: 'blocked' }).state;
    expect(blocked.slots).toEqual([null]);
    expect(blocked.work.a1?.status).toBe('blocked');
    expect(when(blocked, { type: 'unblock', nowMs: T0 + 2 * MINUTE, workItemId: 'a1' })).toEqual({
      ok: true,
      events: [{ type: 'work.unblocked', atMs: T0 + 2 * MINUTE, workItemId: 'a1' }],
    });
    expect(when(running, { type: 'unblock', nowMs: T0, workItemId: 'a1' })).toEqual({ ok: false, refusal: { code: 'not-blocked', workItemId: 'a1' } });
  });

  it('ends a submitted run, freeing its slot and forgetting the WorkItem', () => {
    const after = step(running, { type: 'endRun', nowMs: T0 + MINUTE, workItemId: 'a1', outcome: 'submitted' }).state;
    expect(after.slots).toEqual([null]);
    expect(after.work.a1).toBeUndefined();
  });

  it('withdraws running work (a revoked lease) and frees its slot', () => {
    const after = step(running, { type: 'withdraw', nowMs: T0 + MINUTE, workItemId: 'a1' }).state;
    expect(after.slots).toEqual([null]);
    expect(after.work).toEqual({});
  });

  it('refuses to checkpoint or end what does not run', () => {
    const ready = given([admitted(request('a1', 'A'))]);
    expect(when(ready, { type: 'endRun', nowMs: T0, workItemId: 'a1', outcome: 'failed' })).toEqual({ ok: false, refusal: { code: 'not-running', workItemId: 'a1' } });
    expect(when(ready, { type: 'reportCheckpoint', nowMs: T0, workItemId: 'zz', safe: true, durable: true })).toEqual({
      ok: false,
      refusal: { code: 'unknown-work-item', workItemId: 'zz' },
    });
    expect(when(ready, { type: 'withdraw', nowMs: T0, workItemId: 'zz' })).toMatchObject({ ok: false, refusal: { code: 'unknown-work-item' } });
  });
});

describe('Groups come and go', () => {
  it('forgets a Group without a set policy once it holds nothing, and keeps one with a policy', () => {
    const state = given([policySet('P'), admitted(request('p1', 'P')), admitted(request('g1', 'G'))], 2);
    const ran = step(state, { type: 'schedule', nowMs: T0 }).state;
    let after = step(ran, { type: 'endRun', nowMs: T0 + MINUTE, workItemId: 'g1', outcome: 'submitted' }).state;
    after = step(after, { type: 'endRun', nowMs: T0 + MINUTE, workItemId: 'p1', outcome: 'failed' }).state;
    expect(Object.keys(after.groups)).toEqual(['P']);
    expect(after.groups.P).toMatchObject({ credit: -1, policySet: true }); // picked first, its debt stays
  });
});

describe('recovery after a restart (§11.5)', () => {
  it('empties every slot: a run with a safe durable checkpoint is ready again, one without is blocked', () => {
    let state = given([admitted(request('a', 'A')), admitted(request('b', 'B')), admitted(request('c', 'C'))], 2);
    state = step(state, { type: 'schedule', nowMs: T0 }).state;
    expect(state.slots).toEqual(['a', 'b']);
    state = step(state, { type: 'reportCheckpoint', nowMs: T0 + MINUTE, workItemId: 'b', safe: true, durable: true }).state;
    const restart = T0 + 5 * MINUTE;
    const { state: after, events } = step(state, { type: 'recoverRuns', nowMs: restart });
    expect(events).toEqual([
      { type: 'run.interrupted', atMs: restart, workItemId: 'a', slot: 0, resumable: false },
      { type: 'run.interrupted', atMs: restart, workItemId: 'b', slot: 1, resumable: true },
    ]);
    expect(after.slots).toEqual([null, null]);
    expect([after.work.a?.status, after.work.b?.status, after.work.c?.status]).toEqual(['blocked', 'ready', 'ready']);
    expect(when(after, { type: 'recoverRuns', nowMs: restart })).toEqual({ ok: true, events: [] });
  });
});

describe('preemption only at a safe durable checkpoint (§11.3)', () => {
  const arrival = T0 + MIN_RUN_BEFORE_PREEMPT_MS;
  const busy = given([
    admitted(request('r', 'A', { urgency: 'routine' })),
    started('r', 'A', 0, ['A']),
    admitted(request('c', 'A', { urgency: 'critical' }), arrival),
  ]);
  const requested = step(busy, { type: 'schedule', nowMs: arrival }).state;

  it('asks the outranked run to yield, and keeps it in its slot', () => {
    expect(when(busy, { type: 'schedule', nowMs: arrival })).toEqual({
      ok: true,
      events: [{ type: 'preemption.requested', atMs: arrival, workItemId: 'r', forWorkItemId: 'c' }],
    });
    expect(requested.slots).toEqual(['r']);
    expect(requested.work.r?.preemptRequestedAtMs).toBe(arrival);
  });

  it('does not ask twice while a request is open', () => {
    expect(when(requested, { type: 'schedule', nowMs: arrival + MINUTE })).toEqual({ ok: true, events: [] });
  });

  it('does not yield at an unsafe or not yet durable checkpoint', () => {
    for (const [safe, durable] of [[false, true], [true, false], [false, false]] as const) {
      const decision = when(requested, { type: 'reportCheckpoint', nowMs: arrival + MINUTE, workItemId: 'r', safe, durable });
      expect(decision).toEqual({ ok: true, events: [{ type: 'checkpoint.recorded', atMs: arrival + MINUTE, workItemId: 'r', safe, durable }] });
    }
  });

  it('yields at a safe durable checkpoint, back to its Group queue, and the slot passes to the arrival', () => {
    const at = arrival + MINUTE;
    const { state, events } = step(requested, { type: 'reportCheckpoint', nowMs: at, workItemId: 'r', safe: true, durable: true });
    expect(events).toEqual([
      { type: 'checkpoint.recorded', atMs: at, workItemId: 'r', safe: true, durable: true },
      { type: 'run.yielded', atMs: at, workItemId: 'r', slot: 0 },
      started('c', 'A', 0, ['A'], at),
    ]);
    expect(state.work.r).toMatchObject({ status: 'ready', slot: null, preemptRequestedAtMs: null, preemptFor: null, lastSafeCheckpointAtMs: at, runs: 1 });
    expect(state.slots).toEqual(['c']);
  });

  it('gives the yielded slot to the Group it was freed for, not to a third Group with more credit', () => {
    const later = T0 + 10 * MINUTE;
    let state = given([
      policySet('A', { priorityClass: 'high' }),
      policySet('B', { priorityClass: 'low' }),
      policySet('C', { priorityClass: 'low', weight: 5 }),
      admitted(request('b', 'B', { effort: 'xl' })),
      started('b', 'B', 0, ['B']),
      admitted(request('c', 'C')),
      admitted(request('a', 'A', { deadlineMs: later + MINUTE }), later),
    ]);
    state = step(state, { type: 'schedule', nowMs: later }).state;
    expect(state.work.b).toMatchObject({ preemptFor: 'a' });
    // Before the run reaches its checkpoint, C gains credit enough to win an ordinary pick.
    state = { ...state, groups: { ...state.groups, C: { ...(state.groups.C as GroupState), credit: 500 } } };
    const { events } = step(state, { type: 'reportCheckpoint', nowMs: later + MINUTE, workItemId: 'b', safe: true, durable: true });
    expect(events.at(-1)).toEqual(started('a', 'A', 0, ['A', 'B', 'C'], later + MINUTE));
    const withoutHandOff = events.slice(0, 2).reduce(evolve, state);
    expect(when(withoutHandOff, { type: 'schedule', nowMs: later + MINUTE })).toMatchObject({ ok: true, events: [{ workItemId: 'c' }] });
  });

  it('leaves the slot free when the WorkItem it was freed for is gone', () => {
    const gone = step(requested, { type: 'withdraw', nowMs: arrival + MINUTE, workItemId: 'c' }).state;
    const { state, events } = step(gone, { type: 'reportCheckpoint', nowMs: arrival + 2 * MINUTE, workItemId: 'r', safe: true, durable: true });
    expect(events.map((e) => e.type)).toEqual(['checkpoint.recorded', 'run.yielded']);
    expect(state.slots).toEqual([null]);
  });

  it('leaves a young run, or one that cannot checkpoint, alone', () => {
    expect(when(busy, { type: 'schedule', nowMs: T0 + MIN_RUN_BEFORE_PREEMPT_MS - 1 })).toEqual({ ok: true, events: [] });
    const pinned = given([
      admitted(request('r', 'A', { urgency: 'routine', preemptible: false })),
      started('r', 'A', 0, ['A']),
      admitted(request('c', 'A', { urgency: 'critical' }), arrival),
    ]);
    expect(when(pinned, { type: 'schedule', nowMs: arrival })).toEqual({ ok: true, events: [] });
  });

  it("preempts across Groups for an imminent deadline in a higher class, not for urgency alone", () => {
    const later = T0 + 10 * MINUTE;
    const base = [policySet('A', { priorityClass: 'high' }), policySet('B', { priorityClass: 'low' }), admitted(request('b', 'B', { effort: 'xl' })), started('b', 'B', 0, ['B'])];
    const urgent = given([...base, admitted(request('a', 'A', { urgency: 'critical' }), later)]);
    expect(when(urgent, { type: 'schedule', nowMs: later })).toEqual({ ok: true, events: [] });
    const due = given([...base, admitted(request('a', 'A', { deadlineMs: later + MINUTE }), later)]);
    expect(when(due, { type: 'schedule', nowMs: later })).toEqual({
      ok: true,
      events: [{ type: 'preemption.requested', atMs: later, workItemId: 'b', forWorkItemId: 'a' }],
    });
  });
});
