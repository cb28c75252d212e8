/**
 * The Scheduler's state, Commands and Events (§11.1), as plain JSON data: the state is what a
 * snapshot stores (schedulerSnapshot.ts), so it holds no Map, class or function, and times are
 * milliseconds since the epoch passed in with each Command.
 *
 * Only scheduling metadata enters here: a WorkItem's ID, its Group, requested urgency, deadline,
 * an effort band and whether it may be preempted. Contract text, context and credentials stay in
 * their Group-scoped stores (§11.1: each slot isolates Mission context).
 */

import type { MissionWeaveWorkContract } from '../../protocol/schemas/wireTypes.js';
import type { SchedulerRefusalCode } from './schedulerRefusals.js';

/** The Coordinator's requested urgency (Work Contract): it orders work inside its own Group only. */
export type Urgency = MissionWeaveWorkContract['requestedUrgency'];

/** A coarse effort estimate: enough to prefer short work and to plan, no exact private measure. */
export type EffortBand = 'xs' | 's' | 'm' | 'l' | 'xl' | 'unknown';

/** The organization's priority class of a Group: policy, not the Coordinator's request (§11.1). */
export type PriorityClass = 'low' | 'normal' | 'high';

/** The operator's policy for one Group on this runtime. */
export interface GroupPolicy {
  /** Share of picks the Group earns, relative to the other eligible Groups (1..MAX_GROUP_WEIGHT). */
  readonly weight: number;
  readonly priorityClass: PriorityClass;
  /** Slots the Group may hold at once (1..slots). */
  readonly maxConcurrent: number;
  /** Ready and blocked WorkItems the Group may hold (1..MAX_GROUP_MAX_QUEUED). */
  readonly maxQueued: number;
  /** False while the Group's admissions are closed (paused by policy); held work still runs. */
  readonly admitting: boolean;
}

export interface GroupState {
  readonly groupId: string;
  readonly policy: GroupPolicy;
  /** Weighted-fair credit: earned by weight at each pick the Group waits through, paid when picked. */
  readonly credit: number;
  /** True once `setGroupPolicy` named the Group: it then stays while empty, with its policy. */
  readonly policySet: boolean;
}

/** What admission needs to know of a WorkItem. */
export interface WorkRequest {
  readonly workItemId: string;
  readonly groupId: string;
  readonly urgency: Urgency;
  /** The Work Contract's deadline, or null. */
  readonly deadlineMs: number | null;
  readonly effort: EffortBand;
  /** False for work that has no safe checkpoint: it is never asked to yield. */
  readonly preemptible: boolean;
}

export type WorkStatus = 'ready' | 'running' | 'blocked';

export interface HeldWork extends WorkRequest {
  readonly status: WorkStatus;
  /** Admission order: the last tie-break, so equal ranks run first come, first served. */
  readonly seq: number;
  readonly admittedAtMs: number;
  /** When the WorkItem last entered its Group's ready queue (aging counts from here). */
  readonly readySinceMs: number;
  /** Runs started so far; the current run's number while running. */
  readonly runs: number;
  readonly slot: number | null;
  readonly runStartedAtMs: number | null;
  /** Set when the Scheduler asked the current run to yield at its next safe durable checkpoint. */
  readonly preemptRequestedAtMs: number | null;
  /** The WorkItem the requested yield is for: the slot passes to it (its Group's head) when the run yields. */
  readonly preemptFor: string | null;
  /** The last checkpoint reported safe and durable, which a resume or recovery starts from. */
  readonly lastSafeCheckpointAtMs: number | null;
}

export interface SchedulerState {
  readonly version: 1;
  readonly groups: Readonly<Record<string, GroupState>>;
  readonly work: Readonly<Record<string, HeldWork>>;
  /** One entry per execution slot: the WorkItem running in it, or null. */
  readonly slots: readonly (string | null)[];
  readonly nextSeq: number;
}

export type RunOutcome = 'submitted' | 'failed' | 'cancelled' | 'blocked';

export type SchedulerCommand =
  | { readonly type: 'admit'; readonly nowMs: number; readonly work: WorkRequest }
  | { readonly type: 'setGroupPolicy'; readonly nowMs: number; readonly groupId: string; readonly policy: GroupPolicy }
  | { readonly type: 'schedule'; readonly nowMs: number }
  | { readonly type: 'reportCheckpoint'; readonly nowMs: number; readonly workItemId: string; readonly safe: boolean; readonly durable: boolean }
  | { readonly type: 'endRun'; readonly nowMs: number; readonly workItemId: string; readonly outcome: RunOutcome }
  | { readonly type: 'unblock'; readonly nowMs: number; readonly workItemId: string }
  | { readonly type: 'withdraw'; readonly nowMs: number; readonly workItemId: string }
  /** After a restart: no run survived the process, so every slot is emptied (§11.5). */
  | { readonly type: 'recoverRuns'; readonly nowMs: number }
  /** A directed pick: the runtime's user (an MCP model) starts this ready WorkItem in a free slot (schedulerDirected.ts). */
  | { readonly type: 'startRun'; readonly nowMs: number; readonly workItemId: string }
  /** A voluntary yield: the run leaves its slot at its last safe durable checkpoint, back to its Group's ready queue. */
  | { readonly type: 'yieldRun'; readonly nowMs: number; readonly workItemId: string };

export type SchedulerEvent =
  | { readonly type: 'work.admitted'; readonly atMs: number; readonly work: WorkRequest }
  | { readonly type: 'group.policy.set'; readonly groupId: string; readonly policy: GroupPolicy }
  /** `earners`: the Groups eligible at this pick, which earn their weight; the picked one pays their sum. */
  | { readonly type: 'run.started'; readonly atMs: number; readonly workItemId: string; readonly groupId: string; readonly slot: number; readonly earners: readonly string[] }
  | { readonly type: 'preemption.requested'; readonly atMs: number; readonly workItemId: string; readonly forWorkItemId: string }
  | { readonly type: 'checkpoint.recorded'; readonly atMs: number; readonly workItemId: string; readonly safe: boolean; readonly durable: boolean }
  | { readonly type: 'run.yielded'; readonly atMs: number; readonly workItemId: string; readonly slot: number }
  | { readonly type: 'run.ended'; readonly atMs: number; readonly workItemId: string; readonly slot: number; readonly outcome: RunOutcome }
  | { readonly type: 'work.unblocked'; readonly atMs: number; readonly workItemId: string }
  | { readonly type: 'work.withdrawn'; readonly atMs: number; readonly workItemId: string }
  /** `resumable`: it has a safe durable checkpoint and is ready again; otherwise it is blocked. */
  | { readonly type: 'run.interrupted'; readonly atMs: number; readonly workItemId: string; readonly slot: number; readonly resumable: boolean };

export interface SchedulerRefusal {
  readonly code: SchedulerRefusalCode;
  readonly workItemId?: string;
  readonly groupId?: string;
}

export type SchedulerDecision =
  | { readonly ok: true; readonly events: readonly SchedulerEvent[] }
  | { readonly ok: false; readonly refusal: SchedulerRefusal };
