/**
 * `work.authorize` (§10.2, §9.1): the Coordinator, or a delegate under its Delegation Grant, turns
 * a Work Contract (possibly an open Work Proposal's) into an `open` WorkItem.
 */

import type { WorkAuthorizedPayload } from '../groupEvents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { recordGrantUse, checkDelegatedUse } from './delegation.js';
import { linksOf, type WorkProposal } from './workItemDocuments.js';
import { canonicalize } from '../../protocol/jcs.js';
import { newConversation } from '../conversations.js';
import { groupRef, holdsCoordinatorLease } from '../stateQueries.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { sameSet } from '../rules.js';
import { checkContract } from './workContractChecks.js';
import { checkAllocation, sourceOf } from './allocation.js';
import { ancestorsOf } from './ledger.js';
import { checkWithinAncestors } from './authorityScope.js';
import { isRefusal } from './fencing.js';
import { ancestorWorkItems } from './workAncestry.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXAMPLES } from './workExamples.js';
import { workAddressees } from './workAddressees.js';
import { newWorkItem, workItemDocument, workRecordOf } from './workRecord.js';

/**
 * `work.authorize` (§10.2 "none or open Work Proposal → open", §9.1): the current Coordinator, or
 * an Agent citing a Delegation Grant, turns a Work Contract into an `open` WorkItem with its own
 * Conversation (§9).
 *
 * Taking up a Work Proposal (`proposalId`): the proposal must be open, and the Command must carry
 * the proposal's own contract, dependencies and parent. The Coordinator may not amend what it
 * authorizes under the proposer's name; to change it, it authorizes its own WorkItem (and the
 * proposal stays open) — the reference runtime decides the same. The WorkItem's `createdBy` is
 * the proposer, its `authorizedBy` the authorizer, and the proposal becomes `authorized` in the
 * same Event (its evolve).
 *
 * A WorkItem never widens authority (§4.11, §14): its resources, operations and data
 * classification lie within every ancestor WorkItem's — its parent here, and for a child Mission
 * the parent WorkItem it was promoted from and everything above (`authorityScope.ts`).
 */

type AuthorizeCommand = CommandOf<'work.authorize'>;

/** The open proposal the Command takes up unchanged, or the refusal. */
function proposalTakenUp(state: GroupState, command: AuthorizeCommand): WorkProposal | Refusal | undefined {
  const { payload } = command;
  if (payload.proposalId === undefined) return undefined;
  const proposal = state.proposals.get(payload.proposalId);
  if (proposal === undefined) return refuse('INVALID_COMMAND', WORK_REASONS.proposalUnknown, 'the Work Proposal does not exist in this Group');
  if (proposal.state !== 'open') {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.proposalNotOpen, 'the Work Proposal was already authorized', { proposalId: proposal.proposalId });
  }
  const unchanged =
    canonicalize(proposal.contract) === canonicalize(payload.contract) &&
    sameSet(proposal.dependencyIds, payload.contract.dependencyWorkItemIds) &&
    proposal.parentWorkItemId === payload.parentWorkItemId;
  if (!unchanged) {
    return refuse('INVALID_COMMAND', WORK_REASONS.proposalAmended, 'authorize the proposal with its own contract, dependencies and parent', { proposalId: proposal.proposalId });
  }
  return proposal;
}

/** Who authorizes: the Coordinator under its lease (common checks), or a delegate under its Grant. */
function checkAuthorizer(state: GroupState, command: AuthorizeCommand, ctx: DecisionContext): Refusal | null {
  const { payload } = command;
  const coordinator = holdsCoordinatorLease(state, command.actor);
  if (coordinator && payload.delegationGrantId !== undefined) {
    return refuse('INVALID_COMMAND', WORK_REASONS.coordinatorCitesGrant, 'the Coordinator authorizes under its lease, not a Delegation Grant');
  }
  if (coordinator || payload.delegationGrantId === undefined) return null;
  const use = { kind: 'authorize', workItemId: payload.workItemId, parentWorkItemId: payload.parentWorkItemId, contract: payload.contract } as const;
  return checkDelegatedUse(state, command, payload.delegationGrantId, use, ctx);
}

export function decideWorkAuthorize(
  state: GroupState,
  command: AuthorizeCommand,
  ctx: DecisionContext,
): Decision<EventDraft<'work.authorized', WorkAuthorizedPayload>> {
  const { payload } = command;
  if (state.workItems.has(payload.workItemId)) {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.workItemIdTaken, 'the WorkItem ID is already in use');
  }
  if (payload.conversationId !== undefined && state.conversations.has(payload.conversationId)) {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.conversationIdTaken, 'the Conversation ID is already in use');
  }
  // Authority first: a delegate learns nothing about proposals or the plan it may not act on.
  const unauthorized = checkAuthorizer(state, command, ctx);
  if (unauthorized !== null) return unauthorized;
  const proposal = proposalTakenUp(state, command);
  if (proposal !== undefined && 'ok' in proposal) return proposal;
  // The allocation must fit beside everything its Mission or parent WorkItem already allocated (§12).
  const refused = checkContract(state, payload.workItemId, payload, ctx) ?? checkAllocation(state, sourceOf(state, payload.parentWorkItemId), payload.contract.budget);
  if (refused !== null) return refused;
  // What it may touch lies within every ancestor WorkItem's, across parent Missions (§4.11, §14).
  const ancestors = ancestorWorkItems(state, payload.parentWorkItemId, ancestorsOf(ctx));
  if (isRefusal(ancestors)) return ancestors;
  const wider = checkWithinAncestors(payload.contract, ancestors);
  if (wider !== null) return wider;

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
      ...(payload.delegationGrantId === undefined ? {} : { delegationGrantId: payload.delegationGrantId }),
      ...(proposal === undefined ? {} : { createdBy: proposal.proposer }),
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
    payload: { workItem: workItemDocument(workItem), conversation, proposalId: proposal?.proposalId ?? null },
    aggregate: { type: 'work-item', id: workItem.workItemId, revision: workItem.revision },
    workItemId: workItem.workItemId,
    conversationId,
  });
}

/** The proposal the WorkItem was authorized from, now `authorized` (§10.2). */
function withProposalAuthorized(state: GroupState, proposalId: string | null, workItem: { readonly workItemId: string }): GroupState {
  const proposal = proposalId === null ? undefined : state.proposals.get(proposalId);
  if (proposal === undefined) return state;
  const authorized = { ...proposal, state: 'authorized' as const, authorizedWorkItemId: workItem.workItemId, revision: proposal.revision + 1 };
  return { ...state, proposals: withEntry(state.proposals, proposal.proposalId, authorized) };
}

export const workAuthorized = defineEvent<WorkAuthorizedPayload>()({
  kind: 'work.authorized',
  addressees: workAddressees,
  evolve: (state, { workItem, conversation, proposalId }) => {
    const record = workRecordOf(workItem);
    const grantId = linksOf(record).delegationGrantId;
    const withWork: GroupState = {
      ...state,
      workItems: withEntry(state.workItems, workItem.workItemId, record),
      conversations: withEntry(state.conversations, conversation.conversationId, conversation),
    };
    const withProposal = withProposalAuthorized(withWork, proposalId, workItem);
    return grantId === undefined ? withProposal : recordGrantUse(withProposal, grantId, workItem.workItemId);
  },
});

export const workAuthorize = defineKind({
  kind: 'work.authorize',
  examples: WORK_EXAMPLES['work.authorize'],
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
