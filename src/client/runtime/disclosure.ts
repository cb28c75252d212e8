/**
 * Scheduling disclosure (§11.2): what the runtime tells one Coordinator about its queue. On
 * acceptance and on material schedule changes a Worker SHOULD publish, per WorkItem, an estimated
 * start, estimated completion, confidence, capacity status and calculation time, in the shape of
 * the WorkItem's `scheduleEstimate`; it MUST NOT expose names, content, assignments or exact
 * global queue positions from another Group.
 *
 * The choices, each made so that the disclosure to Group G is a function of G's own data alone,
 * plus one bit that §11.2 names as disclosable (capacity status):
 *
 * - Only G's own WorkItems are listed, by their own IDs. No other Group's ID, WorkItem ID, count,
 *   weight, credit or position appears, and none is an input: two runtimes that hold the same
 *   work for G, under the same policy for G, with the same answer to "is a slot free?", give G
 *   the same disclosure whatever they hold for other Groups (test/runtime/disclosure.unit.test.ts
 *   checks this as a property).
 * - Estimates plan G's queue on G's own lanes: its concurrency quota, not a share of the global
 *   queue. Other Groups' work can delay G's start beyond the estimate; rather than folding their
 *   load in (which would let G read other Missions' activity from its estimates), the confidence
 *   says how firm the estimate is, and the capacity status says when the runtime is full.
 * - Durations come from effort bands (EFFORT_BAND_MS), not measured times, and disclosed times
 *   are rounded up to DISCLOSURE_GRANULARITY_MS.
 * - Capacity status, per WorkItem: `available` when it runs, or could start now (G under its
 *   quota with room for it and a slot free); `queued` when it waits behind G's own runs (G's quota
 *   is what holds it); `constrained` when G has room but every slot of the runtime is busy — the
 *   one fact about other Groups disclosed, as a single bit, never which Group or how many;
 *   `blocked` when its run reported a blocker (§11.4).
 * - Blocked WorkItems are planned after G's ready queue, as they must be unblocked first.
 */

import { formatTimestamp } from '../../protocol/timestamp.js';
import type { MissionWeaveWorkItem } from '../../protocol/schemas/wireTypes.js';
import { DISCLOSURE_GRANULARITY_MS, EFFORT_BAND_MS, MATERIAL_SHIFT_MS } from './schedulerLimits.js';
import { readyQueue } from './schedulerRanking.js';
import type { HeldWork, SchedulerState } from './schedulerTypes.js';

export type ScheduleEstimate = NonNullable<MissionWeaveWorkItem['scheduleEstimate']>;

export interface DisclosedWork {
  readonly workItemId: string;
  readonly scheduleEstimate: ScheduleEstimate;
}

export interface ScheduleDisclosure {
  readonly groupId: string;
  readonly items: readonly DisclosedWork[];
}

function roundUp(ms: number): number {
  return Math.ceil(ms / DISCLOSURE_GRANULARITY_MS) * DISCLOSURE_GRANULARITY_MS;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** How firm a plan for an item of this effort is: an unknown band is a guess. */
function baseConfidence(work: HeldWork): number {
  return work.effort === 'unknown' ? 0.4 : 0.8;
}

/** The disclosure to the Coordinator of `groupId`: its WorkItems' estimates, best first. */
export function discloseSchedule(state: SchedulerState, groupId: string, nowMs: number): ScheduleDisclosure {
  const group = state.groups[groupId];
  if (group === undefined) return { groupId, items: [] };
  const calculatedAt = formatTimestamp(nowMs);
  const slotFree = state.slots.includes(null);
  const own = Object.values(state.work).filter((w) => w.groupId === groupId);
  const runs = own.filter((w) => w.status === 'running').sort((a, b) => a.seq - b.seq);
  const items: DisclosedWork[] = [];
  const estimate = (start: number, end: number, confidence: number, capacityStatus: ScheduleEstimate['capacityStatus']): ScheduleEstimate => ({
    estimatedStart: formatTimestamp(roundUp(start)),
    estimatedCompletion: formatTimestamp(roundUp(Math.max(end, start))),
    confidence: round2(confidence),
    capacityStatus,
    lastCalculatedAt: calculatedAt,
  });

  // Each lane frees when its run is planned to end; G has as many lanes as its quota.
  const lanes: number[] = [];
  for (const run of runs) {
    const started = run.runStartedAtMs as number;
    const end = Math.max(nowMs, started + EFFORT_BAND_MS[run.effort]);
    lanes.push(end);
    items.push({ workItemId: run.workItemId, scheduleEstimate: estimate(started, end, baseConfidence(run), 'available') });
  }
  while (lanes.length < group.policy.maxConcurrent) lanes.push(nowMs);

  const plan = (work: HeldWork, position: number, status: ScheduleEstimate['capacityStatus'], confidence: number): void => {
    lanes.sort((a, b) => a - b);
    const start = lanes[0] as number;
    const end = start + EFFORT_BAND_MS[work.effort];
    lanes[0] = end;
    items.push({ workItemId: work.workItemId, scheduleEstimate: estimate(start, end, confidence * 0.9 ** position, status) });
  };
  readyQueue(state, groupId, nowMs).forEach((work, position) => {
    const hasRoom = runs.length + position < group.policy.maxConcurrent;
    const status = !hasRoom ? 'queued' : slotFree ? 'available' : 'constrained';
    plan(work, position, status, status === 'constrained' ? baseConfidence(work) / 2 : baseConfidence(work));
  });
  own
    .filter((w) => w.status === 'blocked')
    .sort((a, b) => a.seq - b.seq)
    .forEach((work) => plan(work, 0, 'blocked', 0.1));
  return { groupId, items };
}

/**
 * The WorkItems whose estimate changed materially since `previous` (a new WorkItem, another
 * capacity status, or a start or completion moved by MATERIAL_SHIFT_MS or more): those a Worker
 * re-publishes (§11.2). A WorkItem no longer held is not listed; its own Event says why.
 */
export function materialChanges(previous: ScheduleDisclosure | null, next: ScheduleDisclosure): string[] {
  const before = new Map((previous?.items ?? []).map((item) => [item.workItemId, item.scheduleEstimate]));
  const shifted = (a: string, b: string): boolean => Math.abs(Date.parse(a) - Date.parse(b)) >= MATERIAL_SHIFT_MS;
  return next.items
    .filter(({ workItemId, scheduleEstimate: now }) => {
      const was = before.get(workItemId);
      return (
        was === undefined ||
        was.capacityStatus !== now.capacityStatus ||
        shifted(was.estimatedStart, now.estimatedStart) ||
        shifted(was.estimatedCompletion, now.estimatedCompletion)
      );
    })
    .map((item) => item.workItemId);
}
