/**
 * Scheduler snapshots: the state as one JSON text for the local projection to store, and the
 * check that a stored text is a state this Scheduler can continue from. A snapshot read back from
 * disk is untrusted input (a torn write, an older version, a hand edit): restore checks every
 * field and the cross-references (each running WorkItem in the slot it names, each slot's
 * WorkItem running there, each WorkItem's Group present) and answers a problem, never a state
 * that decide or evolve could trip over.
 */

import { validPolicy, validRequest } from './schedulerAdmission.js';
import { MAX_GROUPS, MAX_HELD_WORK, MAX_SLOTS, MAX_SNAPSHOT_BYTES } from './schedulerLimits.js';
import type { GroupState, HeldWork, SchedulerState } from './schedulerTypes.js';

export type RestoreResult = { readonly ok: true; readonly state: SchedulerState } | { readonly ok: false; readonly problem: string };

/** The state as JSON text. Key order is the state's own, so equal histories give equal texts. */
export function snapshotScheduler(state: SchedulerState): string {
  return JSON.stringify(state);
}

/** The state a snapshot text holds, or what is wrong with it. */
export function restoreScheduler(text: string): RestoreResult {
  if (Buffer.byteLength(text, 'utf8') > MAX_SNAPSHOT_BYTES) return { ok: false, problem: `snapshot exceeds ${MAX_SNAPSHOT_BYTES} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'snapshot is not JSON' };
  }
  const problem = problemOf(value);
  return problem === null ? { ok: true, state: value as SchedulerState } : { ok: false, problem };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const isTimeOrNull = (n: unknown): boolean => n === null || Number.isFinite(n);

function problemOf(value: unknown): string | null {
  if (!isRecord(value)) return 'snapshot is not an object';
  if (value.version !== 1) return `unsupported snapshot version ${JSON.stringify(value.version)}`;
  const { slots, groups, work, nextSeq } = value;
  if (!Array.isArray(slots) || slots.length < 1 || slots.length > MAX_SLOTS) return 'slots is not a list of 1..MAX_SLOTS';
  if (!slots.every((s) => s === null || typeof s === 'string')) return 'a slot is neither null nor a WorkItem ID';
  if (!isCount(nextSeq)) return 'nextSeq is not a count';
  if (!isRecord(groups) || Object.keys(groups).length > MAX_GROUPS) return 'groups is not a record of at most MAX_GROUPS';
  for (const [groupId, group] of Object.entries(groups)) {
    const problem = groupProblem(groupId, group, slots.length);
    if (problem !== null) return problem;
  }
  if (!isRecord(work) || Object.keys(work).length > MAX_HELD_WORK) return 'work is not a record of at most MAX_HELD_WORK';
  for (const [workItemId, held] of Object.entries(work)) {
    const problem = workProblem(workItemId, held, slots, groups, nextSeq);
    if (problem !== null) return problem;
  }
  for (const [slot, workItemId] of slots.entries()) {
    if (workItemId === null) continue;
    const held = work[workItemId as string] as HeldWork | undefined;
    if (held?.status !== 'running' || held.slot !== slot) return `slot ${slot} names ${workItemId}, which is not running there`;
  }
  return null;
}

function groupProblem(groupId: string, group: unknown, slots: number): string | null {
  if (!isRecord(group) || group.groupId !== groupId) return `group ${groupId} is malformed`;
  const { policy, credit, policySet } = group as unknown as GroupState;
  if (!isRecord(policy) || !validPolicy(policy, slots)) return `group ${groupId} has an invalid policy`;
  if (!Number.isSafeInteger(credit)) return `group ${groupId} has a credit that is not an integer`;
  if (typeof policySet !== 'boolean') return `group ${groupId} does not say whether its policy was set`;
  return null;
}

function workProblem(
  workItemId: string,
  held: unknown,
  slots: readonly unknown[],
  groups: Record<string, unknown>,
  nextSeq: number,
): string | null {
  if (!isRecord(held) || held.workItemId !== workItemId) return `WorkItem ${workItemId} is malformed`;
  const w = held as unknown as HeldWork;
  if (!validRequest(w)) return `WorkItem ${workItemId} has an invalid request`;
  if (groups[w.groupId] === undefined) return `WorkItem ${workItemId} names a Group the snapshot lacks`;
  if (!isCount(w.seq) || w.seq >= nextSeq || !isCount(w.runs)) return `WorkItem ${workItemId} has a bad seq or run count`;
  if (!Number.isFinite(w.admittedAtMs) || !Number.isFinite(w.readySinceMs)) return `WorkItem ${workItemId} has a bad time`;
  if (!isTimeOrNull(w.preemptRequestedAtMs) || !isTimeOrNull(w.lastSafeCheckpointAtMs)) return `WorkItem ${workItemId} has a bad time`;
  if (w.status === 'running') {
    if (!Number.isInteger(w.slot) || slots[w.slot as number] !== workItemId) return `WorkItem ${workItemId} runs in a slot that does not name it`;
    if (!Number.isFinite(w.runStartedAtMs)) return `WorkItem ${workItemId} runs without a start time`;
    if (w.preemptFor !== null && typeof w.preemptFor !== 'string') return `WorkItem ${workItemId} yields for no WorkItem ID`;
    return null;
  }
  if (w.status !== 'ready' && w.status !== 'blocked') return `WorkItem ${workItemId} has an unknown status`;
  if (w.slot !== null || w.runStartedAtMs !== null || w.preemptRequestedAtMs !== null || w.preemptFor !== null) return `WorkItem ${workItemId} is not running but holds a run`;
  return null;
}
