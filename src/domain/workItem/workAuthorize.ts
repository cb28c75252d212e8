/**
 * `work.authorize` (§10.2, §9.1): the Coordinator, or a delegate under its Delegation Grant, turns
 * a Work Contract (possibly an open Work Proposal's) into an `open` WorkItem.
 */

import type { WorkAuthorizedPayload } from '../groupEvents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import type { WorkItem } from '../documents.js';
import { decideWorkAuthorize } from './authorizeWork.js';
import { recordGrantUse } from './delegation.js';
import { linksOf } from './workItemDocuments.js';

/** The proposal the WorkItem was authorized from, now `authorized` (§10.2). */
function withProposalAuthorized(state: GroupState, proposalId: string | null, workItem: WorkItem): GroupState {
  const proposal = proposalId === null ? undefined : state.proposals.get(proposalId);
  if (proposal === undefined) return state;
  const authorized = { ...proposal, state: 'authorized' as const, authorizedWorkItemId: workItem.workItemId, revision: proposal.revision + 1 };
  return { ...state, proposals: withEntry(state.proposals, proposal.proposalId, authorized) };
}

export const workAuthorized = defineEvent<WorkAuthorizedPayload>()({
  kind: 'work.authorized',
  evolve: (state, { workItem, conversation, proposalId }) => {
    const grantId = linksOf(workItem).delegationGrantId;
    const withWork: GroupState = {
      ...state,
      workItems: withEntry(state.workItems, workItem.workItemId, workItem),
      conversations: withEntry(state.conversations, conversation.conversationId, conversation),
    };
    const withProposal = withProposalAuthorized(withWork, proposalId, workItem);
    return grantId === undefined ? withProposal : recordGrantUse(withProposal, grantId, workItem.workItemId);
  },
});

export const workAuthorize = defineKind({
  kind: 'work.authorize',
  scope: 'group',
  authority: ['coordinator', 'delegate'],
  // A replacement Coordinator's assignment waits for its Context Package (§7.2).
  assigns: true,
  missionStates: ['active'],
  events: [workAuthorized],
  // A WorkItem is held to every ancestor WorkItem, in the parent Missions' Groups too (§4.11, §14).
  ancestry: true,
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision ?? 0,
  workItemOf: (_state, command) => command.payload.workItemId,
  conversationOf: (_state, command) => command.payload.conversationId,
  decide: decideWorkAuthorize,
});
