/** `approval.grant_execution` (§10.2, §12): a queued WorkItem gains the Execution Approval its contract requires. */

import { defineKind } from '../kinds/kindTypes.js';
import { decideGrantExecutionApproval } from './grantExecutionApproval.js';
import { workItemEvent, type ExecutionApprovalGrantedPayload } from './workEvents.js';

export const executionApprovalGranted = workItemEvent<ExecutionApprovalGrantedPayload>()('approval.execution.granted');

export const approvalGrantExecution = defineKind({
  kind: 'approval.grant_execution',
  scope: 'group',
  // `organization-authority` only for a `policy_required` contract: the decider judges which.
  authority: ['mission-owner', 'organization-authority'],
  missionStates: ['active'],
  events: [executionApprovalGranted],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideGrantExecutionApproval,
});
