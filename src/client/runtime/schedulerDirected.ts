/**
 * Runs the runtime's user directs (§11.1, §11.3): `missionweave mcp` lets a model choose which
 * WorkItem it works on and when it stops, so its runtime is driven by these two Commands instead
 * of `schedule`'s fair picks.
 *
 * - `startRun`: a ready WorkItem goes into a free slot, if its Group is under its concurrency
 *   quota. It is paid like any pick (every eligible Group earns its weight, the picked one pays
 *   their sum), so the credits stay what a mixed use with `schedule` expects.
 * - `yieldRun`: a run leaves its slot back to its Group's ready queue, only at a safe durable
 *   checkpoint reported during this run (the same rule as a preemption's yield).
 *
 * Both refuse with a typed reason from schedulerRefusals.ts, and change nothing when they do.
 */

import { candidates } from './schedulerRanking.js';
import type { SchedulerDecision, SchedulerState } from './schedulerTypes.js';

export function startRun(state: SchedulerState, workItemId: string, nowMs: number): SchedulerDecision {
  const work = state.work[workItemId];
  if (work === undefined) return { ok: false, refusal: { code: 'unknown-work-item', workItemId } };
  if (work.status !== 'ready') return { ok: false, refusal: { code: 'not-ready', workItemId, groupId: work.groupId } };
  const slot = state.slots.indexOf(null);
  if (slot < 0) return { ok: false, refusal: { code: 'no-free-slot', workItemId, groupId: work.groupId } };
  const { ranked } = candidates(state, nowMs);
  if (!ranked.some((c) => c.group.groupId === work.groupId)) return { ok: false, refusal: { code: 'group-at-quota', workItemId, groupId: work.groupId } };
  const earners = ranked.map((c) => c.group.groupId).sort();
  return { ok: true, events: [{ type: 'run.started', atMs: nowMs, workItemId, groupId: work.groupId, slot, earners }] };
}

export function yieldRun(state: SchedulerState, workItemId: string, nowMs: number): SchedulerDecision {
  const work = state.work[workItemId];
  if (work === undefined) return { ok: false, refusal: { code: 'unknown-work-item', workItemId } };
  if (work.status !== 'running' || work.slot === null || work.runStartedAtMs === null) return { ok: false, refusal: { code: 'not-running', workItemId } };
  if (work.lastSafeCheckpointAtMs === null || work.lastSafeCheckpointAtMs < work.runStartedAtMs) {
    return { ok: false, refusal: { code: 'no-safe-checkpoint', workItemId, groupId: work.groupId } };
  }
  return { ok: true, events: [{ type: 'run.yielded', atMs: nowMs, workItemId, slot: work.slot }] };
}
