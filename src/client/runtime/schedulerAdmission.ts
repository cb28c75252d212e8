/**
 * Admission (§11.1): whether the runtime takes a WorkItem into its Group's queue, or refuses it
 * with a typed reason (schedulerRefusals.ts). The checks run in a fixed order, so one request
 * always meets the same reason first: a malformed request, a duplicate, a deadline already
 * passed, then the bounds from the Group's own (closed, full) to the runtime's (Groups, work).
 */

import {
  DEFAULT_GROUP_MAX_QUEUED,
  MAX_GROUP_MAX_QUEUED,
  MAX_GROUP_WEIGHT,
  MAX_GROUPS,
  MAX_HELD_WORK,
} from './schedulerLimits.js';
import { queuedCount } from './schedulerRanking.js';
import type { GroupPolicy, SchedulerDecision, SchedulerState, WorkRequest } from './schedulerTypes.js';

const URGENCIES: readonly string[] = ['routine', 'normal', 'high', 'critical'];
const EFFORTS: readonly string[] = ['xs', 's', 'm', 'l', 'xl', 'unknown'];
const CLASSES: readonly string[] = ['low', 'normal', 'high'];

/** The policy of a Group that none was set for: weight 1, normal class, any slot, the default queue. */
export function defaultGroupPolicy(slots: number): GroupPolicy {
  return { weight: 1, priorityClass: 'normal', maxConcurrent: slots, maxQueued: DEFAULT_GROUP_MAX_QUEUED, admitting: true };
}

function inRange(n: number, low: number, high: number): boolean {
  return Number.isInteger(n) && n >= low && n <= high;
}

export function validPolicy(policy: GroupPolicy, slots: number): boolean {
  return (
    inRange(policy.weight, 1, MAX_GROUP_WEIGHT) &&
    CLASSES.includes(policy.priorityClass) &&
    inRange(policy.maxConcurrent, 1, slots) &&
    inRange(policy.maxQueued, 1, MAX_GROUP_MAX_QUEUED) &&
    typeof policy.admitting === 'boolean'
  );
}

export function validRequest(work: WorkRequest): boolean {
  return (
    typeof work.workItemId === 'string' &&
    work.workItemId !== '' &&
    typeof work.groupId === 'string' &&
    work.groupId !== '' &&
    URGENCIES.includes(work.urgency) &&
    EFFORTS.includes(work.effort) &&
    (work.deadlineMs === null || Number.isFinite(work.deadlineMs)) &&
    typeof work.preemptible === 'boolean'
  );
}

export function admit(state: SchedulerState, work: WorkRequest, nowMs: number): SchedulerDecision {
  const ids = { workItemId: work.workItemId, groupId: work.groupId };
  if (!validRequest(work) || !Number.isFinite(nowMs)) return { ok: false, refusal: { code: 'invalid-request', ...ids } };
  if (state.work[work.workItemId] !== undefined) return { ok: false, refusal: { code: 'duplicate-work-item', ...ids } };
  if (work.deadlineMs !== null && work.deadlineMs <= nowMs) return { ok: false, refusal: { code: 'deadline-passed', ...ids } };
  const group = state.groups[work.groupId];
  if (group !== undefined && !group.policy.admitting) return { ok: false, refusal: { code: 'group-closed', ...ids } };
  const maxQueued = group?.policy.maxQueued ?? DEFAULT_GROUP_MAX_QUEUED;
  if (queuedCount(state, work.groupId) >= maxQueued) return { ok: false, refusal: { code: 'group-queue-full', ...ids } };
  if (group === undefined && Object.keys(state.groups).length >= MAX_GROUPS) {
    return { ok: false, refusal: { code: 'too-many-groups', ...ids } };
  }
  if (Object.keys(state.work).length >= MAX_HELD_WORK) return { ok: false, refusal: { code: 'runtime-full', ...ids } };
  return { ok: true, events: [{ type: 'work.admitted', atMs: nowMs, work }] };
}
