/**
 * `work.propose` (§10.2 "none → open Work Proposal"): any active member suggests work. No
 * WorkItem exists until the Coordinator (or a delegate) authorizes it; a Worker without a Grant
 * proposes sub-work this way instead of creating obligations for others (§9.1). The contract is
 * checked as at authorization, so an open proposal is one the Coordinator can take up unchanged.
 */

import { withEntry } from '../kinds/groupState.js';
import { groupRef } from '../stateQueries.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import type { GroupState } from '../kinds/groupState.js';
import { checkContract } from './workContractChecks.js';
import type { WorkProposedPayload } from './workEvents.js';
import type { WorkProposal } from './workItemDocuments.js';
import { MAX_OPEN_PROPOSALS_PER_GROUP } from './workLimits.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXAMPLES } from './workExamples.js';

export const workProposed = defineEvent<WorkProposedPayload>()({
  kind: 'work.proposed',
  evolve: (state, { proposal }) => ({ ...state, proposals: withEntry(state.proposals, proposal.proposalId, proposal) }),
});

function openProposals(state: GroupState): number {
  let open = 0;
  for (const proposal of state.proposals.values()) if (proposal.state === 'open') open += 1;
  return open;
}

export function decideWorkPropose(
  state: GroupState,
  command: CommandOf<'work.propose'>,
  ctx: DecisionContext,
): Decision<EventDraft<'work.proposed', WorkProposedPayload>> {
  const { payload } = command;
  if (state.proposals.has(payload.proposalId)) {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.proposalIdTaken, 'the Work Proposal ID is already in use');
  }
  if (openProposals(state) >= MAX_OPEN_PROPOSALS_PER_GROUP) {
    return refuse('RATE_LIMITED', WORK_REASONS.openProposalsLimit, 'the Group holds as many open Work Proposals as it may', { limit: MAX_OPEN_PROPOSALS_PER_GROUP });
  }
  // A proposal is not a WorkItem: its ID is checked against the dependency graph only as a name.
  const refused = checkContract(state, payload.proposalId, payload, ctx);
  if (refused !== null) return refused;
  const proposal: WorkProposal = {
    proposalId: payload.proposalId,
    ...groupRef(state),
    proposer: command.actor,
    contract: payload.contract,
    dependencyIds: [...payload.contract.dependencyWorkItemIds],
    ...(payload.parentWorkItemId === undefined ? {} : { parentWorkItemId: payload.parentWorkItemId }),
    state: 'open',
    proposedAt: ctx.now,
    revision: 1,
  };
  return accept({ kind: 'work.proposed', payload: { proposal }, aggregate: { type: 'work-proposal', id: proposal.proposalId, revision: 1 } });
}

export const workPropose = defineKind({
  kind: 'work.propose',
  examples: WORK_EXAMPLES['work.propose'],
  scope: 'group',
  authority: ['member'],
  missionStates: ['active'],
  events: [workProposed],
  target: (state, command) => state.proposals.get(command.payload.proposalId)?.revision ?? 0,
  decide: decideWorkPropose,
});
