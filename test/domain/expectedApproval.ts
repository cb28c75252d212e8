/**
 * `approval.execution.granted` as the tests expect it (§10.2, §12): the Execution Approval stated
 * member by member from the Command and the state before, never by the decider's own builders,
 * and the WorkItem holding it in our approvals extension.
 */

import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { Principal } from '../../src/protocol/principal.js';
import type { ExpectedEvent } from '../support/specification.js';
import { after, nextWorkItem } from './expectedOwnership.js';
import { GROUP, MISSION, OWNER, T0, WORK } from './fixtures.js';
import { workItemIn } from './workDocuments.js';

/** Our approvals extension, as the tests expect it named. */
export const EXECUTION_APPROVALS = 'urn:missionweave:extension:execution-approvals';

type Loose = Record<string, unknown>;

export interface ApprovalSpec {
  readonly approvalId: string;
  readonly ownershipEpoch?: number;
  readonly requirement?: 'policy_required' | 'human_required';
  readonly operations?: readonly string[];
  readonly resources?: readonly string[];
  readonly budget?: object;
  readonly seconds?: number;
  readonly comments?: string;
  readonly approver?: Principal;
  readonly now?: string;
}

/** The approvals extension data of `from`'s w1. */
export function approvalsIn(from: GroupState): Loose[] {
  const extensions = (workItemIn(from, WORK).extensions ?? {}) as unknown as Record<string, { data: { approvals: Loose[] } }>;
  return extensions[EXECUTION_APPROVALS]?.data.approvals ?? [];
}

/** The Execution Approval a grant of `spec` records (the test Commands' signature envelope). */
export function executionApproval(spec: ApprovalSpec): Loose {
  const approver = spec.approver ?? OWNER;
  const now = spec.now ?? T0;
  return {
    approvalId: spec.approvalId,
    missionId: MISSION,
    groupId: GROUP,
    workItemId: WORK,
    ownershipEpoch: spec.ownershipEpoch ?? 1,
    requirement: spec.requirement ?? 'policy_required',
    operations: [...(spec.operations ?? ['db.migrate'])].sort(),
    resources: [...(spec.resources ?? [])].sort(),
    ...(spec.budget === undefined ? {} : { budget: spec.budget }),
    approver,
    approvedAt: now,
    expiresAt: after(spec.seconds ?? 300, now),
    ...(spec.comments === undefined ? {} : { comments: spec.comments }),
    signature: { algorithm: 'Ed25519', keyId: `urn:test:key:${approver.id}`, createdAt: T0, value: 'A'.repeat(86) },
  };
}

/** `approval.execution.granted` of `spec` in `from`: w1 stays `queued`, one revision later. */
export function expectedApprovalGranted(from: GroupState, spec: ApprovalSpec): ExpectedEvent {
  const approval = executionApproval(spec);
  const item = workItemIn(from);
  const extension = { version: '0.1.0', critical: false, data: { approvals: [...approvalsIn(from), approval] } };
  const workItem = nextWorkItem(from, { extensions: { ...item.extensions, [EXECUTION_APPROVALS]: extension } }, spec.now ?? T0);
  return {
    kind: 'approval.execution.granted',
    payload: { workItemId: WORK, workItem, ownershipEpoch: approval['ownershipEpoch'], approval },
    aggregate: { type: 'work-item', id: WORK, revision: workItem['revision'] as number },
    workItemId: WORK,
  };
}
