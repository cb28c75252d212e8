/**
 * Given/when/then for the runtime's Scheduler: a state is given as the Events that built it,
 * a Command is decided against it, and the test names the Events (or the refusal) it expects.
 */

import { decide, evolve, initialSchedulerState } from '../../src/client/runtime/scheduler.js';
import type {
  GroupPolicy,
  SchedulerCommand,
  SchedulerDecision,
  SchedulerEvent,
  SchedulerState,
  WorkRequest,
} from '../../src/client/runtime/schedulerTypes.js';

export const T0 = Date.UTC(2026, 11, 4, 12, 0, 0);
export const MINUTE = 60_000;

export function request(workItemId: string, groupId: string, extra: Partial<WorkRequest> = {}): WorkRequest {
  return { workItemId, groupId, urgency: 'normal', deadlineMs: null, effort: 'm', preemptible: true, ...extra };
}

export function policy(extra: Partial<GroupPolicy> = {}): GroupPolicy {
  return { weight: 1, priorityClass: 'normal', maxConcurrent: 1, maxQueued: 10, admitting: true, ...extra };
}

export function admitted(work: WorkRequest, atMs = T0): SchedulerEvent {
  return { type: 'work.admitted', atMs, work };
}

export function policySet(groupId: string, extra: Partial<GroupPolicy> = {}): SchedulerEvent {
  return { type: 'group.policy.set', groupId, policy: policy(extra) };
}

/** The state the Events build on a runtime of `slots` slots. */
export function given(events: readonly SchedulerEvent[], slots = 1): SchedulerState {
  return events.reduce(evolve, initialSchedulerState(slots));
}

export function when(state: SchedulerState, command: SchedulerCommand): SchedulerDecision {
  return decide(state, command);
}

/** Decides and applies, failing loudly on a refusal: for building states step by step. */
export function step(state: SchedulerState, command: SchedulerCommand): { state: SchedulerState; events: readonly SchedulerEvent[] } {
  const decision = decide(state, command);
  if (!decision.ok) throw new Error(`refused: ${decision.refusal.code}`);
  return { state: decision.events.reduce(evolve, state), events: decision.events };
}
