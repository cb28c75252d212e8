/**
 * The lines of a Context Package (§13.3), each drawn from the Group's Events or its current
 * state: decisions (accepted transitions), constraints (the terms a recipient is bound by) and
 * unresolved questions. Only identifiers, states, numbers and a few quoted texts (an objective, a
 * goal, a block reason) are copied, each cut to `MAX_QUOTED_CHARS`; no Command, signature,
 * session token or credential is ever read here, so none can reach a package.
 */

import type { JsonObject, JsonValue } from '../../protocol/strictJson.js';
import type { Budget, WorkItem } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { MAX_QUOTED_CHARS } from './contextLimits.js';

/** What the builder reads of one Group Event. */
export interface SourceEvent {
  readonly sequence: number;
  readonly eventId: string;
  readonly kind: string;
  /** The WorkItem the Event concerns, if any. */
  readonly workItemId?: string;
  /** The state the Event moved its WorkItem, Mission or Membership to, when it says. */
  readonly state?: string;
  /** The reason it records (a block, a failure, a cancellation), when it has one. */
  readonly reason?: string;
}

function text(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function member(value: JsonValue | undefined, name: string): JsonValue | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value[name] : undefined;
}

/** The facts of a stored Event document (`document`: the signed Event). */
export function sourceEventOf(sequence: number, eventId: string, kind: string, document: JsonObject): SourceEvent {
  const payload = document['payload'];
  const workItemId = text(document['workItemId']) ?? text(member(payload, 'workItemId')) ?? text(member(member(payload, 'workItem'), 'workItemId'));
  const state =
    text(member(member(payload, 'workItem'), 'state')) ?? text(member(member(payload, 'mission'), 'state')) ?? text(member(member(payload, 'membership'), 'state'));
  const reason = text(member(payload, 'reason'));
  return {
    sequence,
    eventId,
    kind,
    ...(workItemId === undefined ? {} : { workItemId }),
    ...(state === undefined ? {} : { state }),
    ...(reason === undefined ? {} : { reason }),
  };
}

/** A quoted text cut to `MAX_QUOTED_CHARS`, marked when cut. */
export function quote(value: string): string {
  return value.length <= MAX_QUOTED_CHARS ? `"${value}"` : `"${value.slice(0, MAX_QUOTED_CHARS)}…" (cut)`;
}

/**
 * Whether an Event is a decision: an accepted transition of the Mission, a WorkItem, a Membership
 * or an Approval. Messages are conversation, not decisions (their Events are still in the
 * source range, for a recipient to read when authorized); renewals, progress and checkpoints
 * keep a lease or a report alive without deciding anything.
 */
export function isDecision(kind: string): boolean {
  if (kind.startsWith('message.')) return false;
  return !/renew|progress|checkpoint/.test(kind);
}

export function decisionText(event: SourceEvent): string {
  const subject = event.workItemId === undefined ? '' : ` on WorkItem ${event.workItemId}`;
  const outcome = event.state === undefined ? '' : `; now ${event.state}`;
  return `${event.kind}${subject}${outcome} (sequence ${event.sequence})`;
}

const BUDGET_DIMENSIONS: readonly (readonly [keyof Budget, string])[] = [
  ['financialLimit', 'financial'],
  ['modelTokenLimit', 'model tokens'],
  ['toolCallLimit', 'tool calls'],
  ['computeSecondsLimit', 'compute seconds'],
  ['wallClockSecondsLimit', 'wall-clock seconds'],
  ['externalSideEffectLimit', 'external side effects'],
];

/** A budget as one line; an ungranted dimension allows nothing (§12), so it is said too. */
export function budgetText(budget: Budget): string {
  const parts = BUDGET_DIMENSIONS.map(([key, name]) => {
    const limit = budget[key];
    if (limit === undefined) return `${name}: none granted`;
    return key === 'financialLimit' && budget.currency !== undefined ? `${name} ≤ ${limit} ${budget.currency}` : `${name} ≤ ${limit}`;
  });
  return parts.join(', ');
}

export function missionConstraints(state: GroupState): string[] {
  const { mission } = state;
  const policy = mission.approvalPolicy;
  return [
    `Mission deadline: ${mission.deadline}`,
    `Mission budget: ${budgetText(mission.budget)}`,
    `Approval policy: final human approval ${policy.finalHumanApproval ? 'required' : 'not required'}; high-risk execution approval ${policy.highRiskExecutionApproval ? 'required' : 'not required'}`,
  ];
}

export function workItemConstraint(workItem: WorkItem): string {
  const c = workItem.contract;
  return `WorkItem ${workItem.workItemId} (${workItem.state}): deadline ${c.deadline}; budget ${budgetText(c.budget)}; side-effect risk ${c.sideEffectRisk}; execution approval ${c.executionApproval}`;
}

/** The open question a WorkItem's state poses, if any (`blockReason`: the newest readable one). */
export function workItemQuestion(workItem: WorkItem, blockReason: string | undefined): string | undefined {
  const id = workItem.workItemId;
  switch (workItem.state) {
    case 'blocked':
      return `WorkItem ${id} is blocked${blockReason === undefined ? '' : `: ${quote(blockReason)}`}`;
    case 'offered':
      return `WorkItem ${id} is offered and awaits a candidate's acceptance`;
    case 'submitted':
      return `WorkItem ${id} has a submitted result awaiting review`;
    default:
      return undefined;
  }
}

export function missionQuestions(state: GroupState): string[] {
  const questions: string[] = [];
  const submission = state.missionNotes.submission;
  if (state.mission.state === 'awaiting_approval' && submission !== undefined) {
    questions.push(`Mission revision ${submission.missionRevision} awaits the MissionOwner's approval`);
  }
  for (const proposal of state.proposals.values()) {
    if (proposal.state === 'open') questions.push(`Work Proposal ${proposal.proposalId} awaits authorization: ${quote(proposal.contract.goal)}`);
  }
  return questions;
}
