/**
 * The Execution Approvals a WorkItem holds (§10.2 start gate, §12 "signed approval gate") and the
 * one check `work.start` makes of them. An approval is bound to the Ownership Epoch it was
 * granted under, so a new owner (always a higher epoch, §10.3) needs a new approval; it is not
 * consumed by a start, so an owner that checkpoints and starts again within its expiry needs none.
 *
 * They are the typed `approvals` field of the work slice's WorkItem record (`workRecord.ts`),
 * kept like the leases in one non-critical extension of the WorkItem, so that the WorkItem row
 * alone answers the gate; a reader that does not know the extension loses nothing
 * the WorkItem schema promises. Every approval also lives on in its `approval.execution.granted`
 * Event.
 */

import type { Budget, Principal, WorkItem } from '../documents.js';
import { refuse, type CommandSignature, type DecisionContext, type Refusal } from '../model.js';
import { isAfterNow } from '../rules.js';
import { requiredExecutionApproval } from './executionPolicy.js';
import { WORK_REASONS } from './workReasons.js';

export const EXECUTION_APPROVALS_EXTENSION = 'urn:missionweave:extension:execution-approvals';
export const EXECUTION_APPROVALS_VERSION = '0.1.0';

/**
 * How many Execution Approvals a WorkItem remembers, newest last; the oldest go first. One owner
 * needs one live approval to start, a few when it asks again after a checkpoint or for narrower
 * operations; 16 keeps every approval a legitimate epoch uses while the MissionOwner's repeated
 * grants cannot grow the WorkItem row without bound. Approval IDs are checked for reuse against
 * the approvals the Group still remembers (docs/reference-differences.md).
 */
export const EXECUTION_APPROVALS_KEPT = 16;

/**
 * One granted Execution Approval, member names as the reference runtime's Event carries them
 * except `approvalId` (its `id`), as our payload and Approval document spell it.
 */
export interface ExecutionApproval {
  readonly approvalId: string;
  readonly missionId: string;
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  /** What the Work Contract required: whose approval satisfied the gate. */
  readonly requirement: 'policy_required' | 'human_required';
  readonly operations: readonly string[];
  readonly resources: readonly string[];
  readonly budget?: Budget;
  readonly approver: Principal;
  readonly approvedAt: string;
  readonly expiresAt: string;
  readonly comments?: string;
  /** The granting Command's signature: the approval is that signed Command (§12). */
  readonly signature?: CommandSignature;
}

/** The part of a WorkItem record (`workRecord.ts`) that holds its Execution Approvals. */
export interface WithApprovals {
  readonly approvals: readonly ExecutionApproval[] | undefined;
}

export function approvalsOf(record: WithApprovals): readonly ExecutionApproval[] {
  return record.approvals ?? [];
}

/** `record` holding `approval` too, at most `EXECUTION_APPROVALS_KEPT` of them. */
export function withApproval<R extends WithApprovals>(record: R, approval: ExecutionApproval): R {
  return { ...record, approvals: [...approvalsOf(record), approval].slice(-EXECUTION_APPROVALS_KEPT) };
}

/** An approval of the WorkItem's current Ownership Epoch that has not expired (Authority clock). */
export function liveApproval(workItem: WorkItem & WithApprovals, ctx: DecisionContext): ExecutionApproval | undefined {
  const epoch = workItem.owner?.ownershipEpoch;
  return approvalsOf(workItem).find((a) => a.ownershipEpoch === epoch && isAfterNow(a.expiresAt, ctx));
}

/**
 * The start gate of §10.2 (`queued` → `approval.grant_execution` when required → `queued`): a
 * WorkItem whose contract or Organization policy requires an Execution Approval starts only under
 * a live approval of the current Ownership Epoch, a human's where a human's is required.
 */
export function checkExecutionApproval(workItem: WorkItem & WithApprovals, ctx: DecisionContext): Refusal | null {
  // Organization policy may require more than the contract says (§12, executionPolicy.ts).
  const requirement = requiredExecutionApproval(workItem.contract);
  if (requirement === 'not_required') return null;
  const approval = liveApproval(workItem, ctx);
  if (approval !== undefined && (requirement !== 'human_required' || approval.approver.type === 'human')) return null;
  return refuse('APPROVAL_REQUIRED', WORK_REASONS.executionApprovalRequired, 'a live Execution Approval for the current Ownership Epoch is required before start', {
    workItemId: workItem.workItemId,
    executionApproval: requirement,
  });
}
