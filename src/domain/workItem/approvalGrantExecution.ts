/** `approval.grant_execution` (§10.2, §12): a queued WorkItem gains the Execution Approval its contract requires. */

import { defineKind } from '../kinds/kindTypes.js';
import { decideGrantExecutionApproval } from './grantExecutionApproval.js';
import { workItemEvent, type ExecutionApprovalGrantedPayload } from './workEvents.js';

export const executionApprovalGranted = workItemEvent<ExecutionApprovalGrantedPayload>()('approval.execution.granted');

export const approvalGrantExecution = defineKind({
  kind: 'approval.grant_execution',
  scope: 'group',
  // `organization-authority` only for a `policy_required` contract: the decider judges which. A
  // human owner of an ancestor Mission approves in a descendant (§14), so a human's Command loads
  // the ancestor Groups (none for a root Mission).
  authority: ['mission-owner', 'ancestor-owner', 'organization-authority'],
  ancestry: (command) => command.actor.type === 'human',
  missionStates: ['active'],
  events: [executionApprovalGranted],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideGrantExecutionApproval,
});
