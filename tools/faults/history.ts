/**
 * What the fault suite records and what it reads back afterwards — the input of the checker.
 *
 * An Operation is one signed Command an Agent (or the MissionOwner) invoked; each copy sent
 * (first send, retries after a reconnect, storm copies) gets its own Completion. A Delivery is
 * one Event a reader received on one connection ("segment"), which subscribed after a known
 * sequence. The final logs are read from the database and replayed over wss after the faults.
 */

import type { Answer } from './agentLink.js';

/**
 * Commands sent on purpose with an epoch that was already replaced: all must be refused. A
 * `fenced-owner` probe is a resumed Worker's renewal or submission under the lease it held before
 * its pause: it must not complete the WorkItem (§11.5 lets the Authority keep a late result as
 * non-authoritative Evidence, so acceptance alone is not the violation; workChecker.ts judges it).
 */
export type ProbeKind = 'stale-session' | 'stale-membership' | 'stale-coordinator' | 'fenced-owner';

export interface Operation {
  readonly id: number;
  readonly actionId: string;
  readonly actorId: string;
  readonly groupId: string;
  readonly kind: string;
  readonly invokedAt: number;
  readonly probe?: ProbeKind;
}

export interface Completion {
  readonly op: number;
  readonly at: number;
  readonly answer: Answer;
}

export interface Segment {
  readonly reader: string;
  readonly groupId: string;
  readonly afterSequence: number;
  readonly received: { sequence: number; text: string }[];
}

/** A span during which PostgreSQL was down (killed, not yet restarted). */
export interface Downtime {
  readonly from: number;
  readonly to: number;
}

export interface LoggedEvent {
  readonly sequence: number;
  readonly text: string;
}

export interface GroupLog {
  readonly groupId: string;
  readonly events: readonly LoggedEvent[];
  /** The accepted Commands of the Group, by Action ID: their canonical text (receipts). */
  readonly commands: ReadonlyMap<string, string>;
}

/** An independent read of a Group's Events (a wss replay through one node). */
export interface Replay {
  readonly via: string;
  readonly groupId: string;
  readonly events: readonly LoggedEvent[];
}

export interface History {
  readonly operations: readonly Operation[];
  readonly completions: readonly Completion[];
  readonly segments: readonly Segment[];
  readonly downtimes: readonly Downtime[];
}

/** Refusals that say the Command was not, and will never be, applied. */
export const DEFINITE_REFUSALS: ReadonlySet<string> = new Set([
  'AUTH_STALE_SESSION',
  'AUTH_STALE_COORDINATOR',
  'AUTH_FORBIDDEN',
  'AUTH_INVALID_SIGNATURE',
  'MEMBERSHIP_STALE',
  'MEMBERSHIP_REQUIRED',
  'INVALID_COMMAND',
  'INVALID_STATE_TRANSITION',
  'SCHEMA_VALIDATION_FAILED',
  'PROTOCOL_VIOLATION',
  'GROUP_NOT_FOUND',
  'ACTION_ID_COLLISION',
  // Decided by the WorkItem's state, like INVALID_STATE_TRANSITION: the suite never resends such a
  // Command after one of these, so for it they are final.
  'WORK_CONTRACT_INCOMPLETE',
  'WORK_OFFER_EXPIRED',
  'WORK_ALREADY_OWNED',
  'WORK_LEASE_EXPIRED',
  'WORK_STALE_OWNERSHIP',
]);

/** The outcome an Operation's answers establish, if any. */
export function outcomeOf(answers: readonly Answer[]): 'applied' | 'refused' | 'unknown' {
  if (answers.some((a) => a.type === 'event')) return 'applied';
  if (answers.some((a) => a.type === 'error' && DEFINITE_REFUSALS.has(a.code))) return 'refused';
  return 'unknown';
}
