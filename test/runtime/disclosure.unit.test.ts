/**
 * Scheduling disclosure (§11.2): the estimates a Coordinator gets for its own Group's WorkItems,
 * and nothing of another Group — no ID, title, assignment, count or position. The property test
 * builds random runtimes of three Groups and checks that Group A's disclosure is the same when
 * every other Group's work is taken away (only which slots are busy is kept, the capacity bit
 * §11.2 allows), and that no other Group's ID appears in it.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discloseSchedule, materialChanges } from '../../src/client/runtime/disclosure.js';
import { decide, evolve } from '../../src/client/runtime/scheduler.js';
import type { EffortBand, HeldWork, SchedulerCommand, SchedulerState, Urgency } from '../../src/client/runtime/schedulerTypes.js';
import { admitted, given, MINUTE, policySet, request, step, T0 } from './schedulerFixtures.js';

const at = (ms: number) => new Date(ms).toISOString();

describe('what a Coordinator is told', () => {
  const base = given(
    [
      policySet('A', { maxConcurrent: 1 }),
      admitted(request('a-run', 'A', { effort: 'm' })),
      { type: 'run.started', atMs: T0, workItemId: 'a-run', groupId: 'A', slot: 0, earners: ['A'] },
      admitted(request('a-next', 'A', { effort: 's', urgency: 'high' })),
      admitted(request('a-later', 'A', { effort: 'unknown' })),
      admitted(request('b-secret', 'B')),
    ],
    2,
  );

  it("plans the Group's queue on its own lanes, in its own order", () => {
    const now = T0 + 10 * MINUTE;
    expect(discloseSchedule(base, 'A', now)).toEqual({
      groupId: 'A',
      items: [
        { workItemId: 'a-run', scheduleEstimate: { estimatedStart: at(T0), estimatedCompletion: at(T0 + 60 * MINUTE), confidence: 0.8, capacityStatus: 'available', lastCalculatedAt: at(now) } },
        { workItemId: 'a-next', scheduleEstimate: { estimatedStart: at(T0 + 60 * MINUTE), estimatedCompletion: at(T0 + 75 * MINUTE), confidence: 0.8, capacityStatus: 'queued', lastCalculatedAt: at(now) } },
        { workItemId: 'a-later', scheduleEstimate: { estimatedStart: at(T0 + 75 * MINUTE), estimatedCompletion: at(T0 + 135 * MINUTE), confidence: 0.36, capacityStatus: 'queued', lastCalculatedAt: at(now) } },
      ],
    });
  });

  it('says constrained when the Group has room but every slot is busy, available when one is free', () => {
    const roomy = evolve(base, policySet('A', { maxConcurrent: 2 }));
    expect(discloseSchedule(roomy, 'A', T0).items[1]?.scheduleEstimate.capacityStatus).toBe('available');
    const busy = evolve(roomy, { type: 'run.started', atMs: T0, workItemId: 'b-secret', groupId: 'B', slot: 1, earners: ['B'] });
    expect(discloseSchedule(busy, 'A', T0).items[1]?.scheduleEstimate).toMatchObject({ capacityStatus: 'constrained', confidence: 0.4 });
    expect(discloseSchedule(busy, 'A', T0).items[2]?.scheduleEstimate.capacityStatus).toBe('queued');
  });

  it('marks blocked work blocked, planned after the ready queue', () => {
    const blocked = step(base, { type: 'endRun', nowMs: T0 + MINUTE, workItemId: 'a-run', outcome: 'blocked' }).state;
    const items = discloseSchedule(blocked, 'A', T0 + MINUTE).items;
    expect(items.at(-1)).toMatchObject({ workItemId: 'a-run', scheduleEstimate: { capacityStatus: 'blocked', confidence: 0.1 } });
  });

  it('tells a Group the runtime does not serve nothing', () => {
    expect(discloseSchedule(base, 'Z', T0)).toEqual({ groupId: 'Z', items: [] });
  });

  it('re-publishes only material changes', () => {
    const before = discloseSchedule(base, 'A', T0);
    expect(materialChanges(null, before)).toEqual(['a-run', 'a-next', 'a-later']);
    expect(materialChanges(before, discloseSchedule(base, 'A', T0 + MINUTE))).toEqual([]);
    const ended = step(base, { type: 'endRun', nowMs: T0 + 5 * MINUTE, workItemId: 'a-run', outcome: 'submitted' }).state;
    expect(materialChanges(before, discloseSchedule(ended, 'A', T0 + 5 * MINUTE))).toEqual(['a-next', 'a-later']);
  });
});

const GROUPS = ['group-A', 'group-B', 'group-C'] as const;
const URGENCIES: Urgency[] = ['routine', 'normal', 'high', 'critical'];
const EFFORTS: EffortBand[] = ['xs', 's', 'm', 'l', 'xl', 'unknown'];

const commandArb = fc.record({
  kind: fc.constantFrom('admit', 'admit', 'admit', 'schedule', 'end', 'block', 'unblock', 'checkpoint'),
  group: fc.constantFrom(...GROUPS),
  urgency: fc.constantFrom(...URGENCIES),
  effort: fc.constantFrom(...EFFORTS),
  pick: fc.nat(),
  minutes: fc.integer({ min: 0, max: 30 }),
});

type RandomCommand = typeof commandArb extends fc.Arbitrary<infer T> ? T : never;

/** A runtime built by random Commands; refusals are skipped, as a runtime would decline. */
function build(commands: readonly RandomCommand[], slots: number): { state: SchedulerState; now: number } {
  let state = given(GROUPS.map((g, i) => policySet(g, { weight: i + 1, maxConcurrent: Math.min(2, slots), maxQueued: 20 })), slots);
  let now = T0;
  commands.forEach((c, n) => {
    now += c.minutes * MINUTE;
    const held = Object.values(state.work);
    const some = (status: HeldWork['status']) => held.filter((w) => w.status === status)[c.pick % Math.max(1, held.length)]?.workItemId ?? 'none';
    const command: SchedulerCommand =
      c.kind === 'admit' ? { type: 'admit', nowMs: now, work: request(`${c.group}:work-${n}`, c.group, { urgency: c.urgency, effort: c.effort }) }
      : c.kind === 'schedule' ? { type: 'schedule', nowMs: now }
      : c.kind === 'end' ? { type: 'endRun', nowMs: now, workItemId: some('running'), outcome: 'submitted' }
      : c.kind === 'block' ? { type: 'endRun', nowMs: now, workItemId: some('running'), outcome: 'blocked' }
      : c.kind === 'unblock' ? { type: 'unblock', nowMs: now, workItemId: some('blocked') }
      : { type: 'reportCheckpoint', nowMs: now, workItemId: some('running'), safe: true, durable: true };
    const decision = decide(state, command);
    if (decision.ok) state = decision.events.reduce(evolve, state);
  });
  return { state, now };
}

/** Only Group `groupId`'s part of a state: other Groups' work gone, their busy slots kept as anonymous runs. */
function onlyGroup(state: SchedulerState, groupId: string): SchedulerState {
  const group = state.groups[groupId];
  const work = Object.fromEntries(Object.entries(state.work).filter(([, w]) => w.groupId === groupId));
  const slots = state.slots.map((id) => (id !== null && state.work[id]?.groupId !== groupId ? 'anonymous' : id));
  return { ...state, groups: group === undefined ? {} : { [groupId]: group }, work, slots };
}

describe('nothing of another Group (property)', () => {
  it("gives Group A the same disclosure whatever the other Groups hold, and none of their IDs", () => {
    fc.assert(
      fc.property(fc.array(commandArb, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 4 }), (commands, slots) => {
        const { state, now } = build(commands, slots);
        const disclosure = discloseSchedule(state, 'group-A', now);
        expect(disclosure).toEqual(discloseSchedule(onlyGroup(state, 'group-A'), 'group-A', now));
        const text = JSON.stringify(disclosure);
        for (const other of ['group-B', 'group-C']) expect(text).not.toContain(other);
        const own = Object.values(state.work).filter((w) => w.groupId === 'group-A');
        expect(disclosure.items.map((i) => i.workItemId).sort()).toEqual(own.map((w) => w.workItemId).sort());
        for (const item of disclosure.items) {
          expect(Object.keys(item.scheduleEstimate).sort()).toEqual(['capacityStatus', 'confidence', 'estimatedCompletion', 'estimatedStart', 'lastCalculatedAt']);
        }
      }),
      { numRuns: 200, seed: 1131 },
    );
  });
});
