/**
 * `work.authorize` (§10.2): the Coordinator turns a Work Contract into an `open` WorkItem with
 * its own Conversation (§9). Delegated authorization and Work Proposals arrive with their own
 * Commands; until then nothing here can be cited, so citing it is refused.
 */

import type { WorkAuthorizedPayload } from '../group/events.js';
import type { CommandOf } from '../kinds/kindTypes.js';
import { newConversation } from '../conversation/conversationDocuments.js';
import type { GroupState } from '../group/groupState.js';
import { groupRef } from '../group/stateQueries.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { budgetOverrun, isAfterNow, isNoLaterThan, sameSet } from '../rules.js';
import { newWorkItem } from './workItemDocuments.js';

type AuthorizePayload = CommandOf<'work.authorize'>['payload'];

/** Refuses a contract that does not fit inside its Mission (§10.1, §12). */
function checkContract(state: GroupState, payload: AuthorizePayload, ctx: DecisionContext): Refusal | null {
  const { contract } = payload;
  if (payload.dependencyIds !== undefined && !sameSet(payload.dependencyIds, contract.dependencyWorkItemIds)) {
    return refuse('INVALID_COMMAND', 'dependencies-disagree', 'dependencyIds and the contract name different dependencies');
  }
  const unknown = contract.dependencyWorkItemIds.find((id) => !state.workItems.has(id));
  if (unknown !== undefined) {
    return refuse('INVALID_COMMAND', 'dependency-unknown', 'a dependency is not a WorkItem of this Group', { workItemId: unknown });
  }
  if (!isAfterNow(contract.deadline, ctx) || !isNoLaterThan(contract.deadline, state.mission.deadline)) {
    return refuse('INVALID_COMMAND', 'deadline-outside-mission', 'the contract deadline must lie between now and the Mission deadline');
  }
  const overrun = budgetOverrun(contract.budget, state.mission.budget);
  if (overrun !== undefined) {
    return refuse('INVALID_COMMAND', 'budget-exceeds-mission', 'the contract budget exceeds the Mission budget', { limit: overrun });
  }
  return null;
}

export function decideWorkAuthorize(
  state: GroupState,
  command: CommandOf<'work.authorize'>,
  ctx: DecisionContext,
): Decision<EventDraft<'work.authorized', WorkAuthorizedPayload>> {
  const { payload } = command;
  if (payload.delegationGrantId !== undefined) {
    return refuse('INVALID_COMMAND', 'coordinator-cites-grant', 'the Coordinator authorizes under its lease, not a Delegation Grant');
  }
  if (payload.proposalId !== undefined) {
    return refuse('INVALID_COMMAND', 'proposal-unknown', 'the Work Proposal does not exist in this Group');
  }
  if (state.workItems.has(payload.workItemId)) {
    return refuse('INVALID_STATE_TRANSITION', 'work-item-id-taken', 'the WorkItem ID is already in use');
  }
  if (payload.conversationId !== undefined && state.conversations.has(payload.conversationId)) {
    return refuse('INVALID_STATE_TRANSITION', 'conversation-id-taken', 'the Conversation ID is already in use');
  }
  if (payload.parentWorkItemId !== undefined && !state.workItems.has(payload.parentWorkItemId)) {
    return refuse('INVALID_COMMAND', 'parent-work-item-unknown', 'the parent WorkItem is not in this Group');
  }
  const refused = checkContract(state, payload, ctx);
  if (refused !== null) return refused;

  const ref = groupRef(state);
  const conversationId = payload.conversationId ?? ctx.newId();
  const workItem = newWorkItem(
    {
      ...ref,
      workItemId: payload.workItemId,
      conversationId,
      contract: payload.contract,
      exclusive: payload.exclusive ?? true,
      ...(payload.parentWorkItemId === undefined ? {} : { parentWorkItemId: payload.parentWorkItemId }),
    },
    command.actor,
    ctx,
  );
  const conversation = newConversation(
    ref,
    conversationId,
    { type: 'work_item', workItemId: workItem.workItemId },
    payload.contract.goal,
    command.actor,
    ctx,
  );
  return accept({
    kind: 'work.authorized',
    payload: { workItem, conversation, proposalId: null },
    aggregate: { type: 'work-item', id: workItem.workItemId, revision: workItem.revision },
    workItemId: workItem.workItemId,
    conversationId,
  });
}
