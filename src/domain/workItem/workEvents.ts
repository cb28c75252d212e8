/**
 * Payloads of the WorkItem Events (§15.2) and the one evolve most of them share. Every WorkItem
 * Event carries the WorkItem document as it stands after the transition, so that a reader (and
 * replay) needs no other Event to know its state, plus the members the reference runtime's Events
 * carry (`workItemId`, `ownershipEpoch`, the lease, …) so that its agents read them unchanged.
 */

import type { Budget, Lease, SelectionBasis } from '../documents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import { defineEvent, type GroupEventType } from '../kinds/kindTypes.js';
import type { ExecutionApproval } from './executionApprovals.js';
import type { DelegationGrant, WorkProposal } from './workItemDocuments.js';
import type { WorkCheckpoint } from './workLeases.js';
import { workAddressees } from './workAddressees.js';
import type { CleanupDue, CleanupReason } from './workCleanup.js';
import { workRecordOf, type WorkItemDocument } from './workRecord.js';

export type { CleanupDue, CleanupReason, DelegationGrant, WorkProposal };

/** Every WorkItem Event payload names its WorkItem and carries it whole, as a document. */
export interface WorkItemEventPayload {
  readonly workItemId: string;
  readonly workItem: WorkItemDocument;
}

/** Folds a WorkItem Event: the WorkItem becomes the record of the document the Event carries. */
export function withWorkItem(state: GroupState, workItem: WorkItemDocument): GroupState {
  return { ...state, workItems: withEntry(state.workItems, workItem.workItemId, workRecordOf(workItem)) };
}

/** An Event type whose only effect is the WorkItem it carries, addressed to its owner and lease holders. */
export function workItemEvent<P extends WorkItemEventPayload>() {
  return <const K extends string>(kind: K): GroupEventType<K, P> =>
    defineEvent<P>()({ kind, evolve: (state, payload) => withWorkItem(state, payload.workItem), addressees: workAddressees }) as GroupEventType<K, P>;
}

export interface WorkProposedPayload {
  readonly proposal: WorkProposal;
}

export interface DelegationGrantedPayload {
  readonly delegationGrant: DelegationGrant;
}

export interface WorkOfferCreatedPayload extends WorkItemEventPayload {
  readonly candidateAgentIds: readonly string[];
  readonly offerExpiresAt: string;
  readonly selectionBasis: SelectionBasis;
  readonly delegationGrantId?: string;
  /** The owner fenced first when its ownership had expired (§10.2). */
  readonly fencedOwnershipLease?: Lease;
}

export interface WorkOfferAcceptedPayload extends WorkItemEventPayload {
  readonly assigneeId: string;
  readonly ownershipEpoch: number;
  readonly ownershipLeaseExpiresAt: string;
  readonly agentCardVersion: number;
  readonly ownershipLease: Lease;
}

export interface WorkStartedPayload extends WorkItemEventPayload {
  readonly ownershipEpoch: number;
  readonly executionLease: Lease;
  readonly executionLeaseExpiresAt: string;
}

/** `work.progressed`: an Execution Lease renewal (§11.3) or reconciled offline progress (§11.5). */
export interface WorkProgressedPayload extends WorkItemEventPayload {
  readonly ownershipEpoch: number;
  readonly executionLease: Lease;
  readonly executionLeaseExpiresAt: string;
}

export interface WorkCheckpointedPayload extends WorkItemEventPayload {
  readonly checkpoint: WorkCheckpoint;
  readonly ownershipLeaseExpiresAt: string;
  readonly releasedExecutionLease: Lease;
}

export interface WorkBlockedPayload extends WorkItemEventPayload {
  readonly reason: string;
  readonly checkpoint: WorkCheckpoint;
  readonly blockedLeaseExpiresAt: string;
  /** The same instant under the reference runtime's member name, which its agents read. */
  readonly ownershipLeaseExpiresAt: string;
  /** Absent when no execution was running: the Authority records a child Mission's end (§14). */
  readonly releasedExecutionLease?: Lease;
}

export interface WorkUnblockedPayload extends WorkItemEventPayload {
  /** `queued` while the owner's lease holds, `open` after its ownership expired (§10.2). */
  readonly state: 'queued' | 'open';
  /** The same state under the reference runtime's member name, which its agents read. */
  readonly status: 'queued' | 'open';
  /** The lapsed owner's blocked lease, closed as the WorkItem reopens (its only record). */
  readonly fencedOwnershipLease?: Lease;
}

export interface WorkSubmittedPayload extends WorkItemEventPayload {
  readonly ownershipEpoch: number;
  readonly artifactHashes: readonly string[];
  readonly evidence: readonly unknown[];
  readonly releasedExecutionLease: Lease;
}

export interface WorkResultAcceptedPayload extends WorkItemEventPayload {
  readonly evidence: readonly unknown[];
}

export interface WorkFailedPayload extends WorkItemEventPayload {
  readonly reason: string;
  readonly evidence: readonly unknown[];
  readonly revokedLeases: readonly Lease[];
}

export interface WorkCancelledPayload extends WorkItemEventPayload {
  readonly reason: string;
  readonly revokedLeases: readonly Lease[];
  /** Present when cleanup or compensation is due (§12, `workCleanup.ts`). */
  readonly cleanup?: CleanupDue;
}

/**
 * `work.contract.revised` (§10.1, §10.4): the contract's new `contractVersion` (an integer, as the
 * contract schema types it), the dependency added (the reference runtime's `dependencyId`), and the
 * leases of the owner fenced because the revision needs renewed acceptance.
 */
export interface WorkContractRevisedPayload extends WorkItemEventPayload {
  readonly contractVersion: number;
  /** The dependency a `work_dependency_add` added; absent for a budget revision. */
  readonly dependencyId?: string;
  readonly revokedLeases: readonly Lease[];
  /** A budget revision (`ext.missionweave.core.budget_revise`, §12): the budget before it, and why. */
  readonly previousBudget?: Budget;
  readonly reason?: string;
}

/**
 * `approval.execution.granted` (§10.2, §12): the Execution Approval as the reference runtime's
 * Event carries it (`approval`), plus the WorkItem holding it, still `queued`.
 */
export interface ExecutionApprovalGrantedPayload extends WorkItemEventPayload {
  readonly ownershipEpoch: number;
  readonly approval: ExecutionApproval;
}
