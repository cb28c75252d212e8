/** `work.offer` (§10.2, §10.3): durable expiring offers of a WorkItem with no live owner. */

import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { recordGrantUse, checkDelegatedUse } from './delegation.js';
import { withWorkItem, type WorkOfferCreatedPayload } from './workEvents.js';
import type { Lease, SelectionBasis, WorkOffer } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { activeAgent, holdsCoordinatorLease, membershipOf } from '../stateQueries.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { isAfterNow, isNoLaterThan, nowPlusSeconds } from '../rules.js';
import { capabilityPins } from './capabilityMatch.js';
import { checkWorkState, isRefusal, liveOwnerOf, workItemNamed } from './fencing.js';
import { DEFAULT_OFFER_SECONDS, MAX_OFFER_CANDIDATES, MAX_OFFER_ENTRIES } from './workLimits.js';
import { linksOf, waitsForChild } from './workItemDocuments.js';
import { closeLease, leasesOf, withAllClosed, withLeases } from './workLeases.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXAMPLES } from './workExamples.js';
import { workAddressees } from './workAddressees.js';
import { workItemDocument, type WorkRecord } from './workRecord.js';

/**
 * `work.offer` (§10.2, §10.3): creates, replaces or extends the durable, expiring offers of a
 * WorkItem nobody owns under a live lease. An offer reserves no ownership; the first valid
 * `work.accept_offer` wins. The candidates named are the whole candidate set: pending offers to
 * anyone left out are withdrawn, and a candidate's still-pending offer is extended under its own
 * offer ID.
 */

type OfferCommand = CommandOf<'work.offer'>;

/** §10.2: the states a WorkItem may be (re-)offered from, given no live owner. */
const OFFERABLE: readonly WorkRecord['state'][] = ['open', 'offered', 'queued', 'active', 'blocked', 'failed'];

/** A WorkItem promoted to a child Mission is fenced while that Mission runs (§14). */
function checkNoRunningChild(workItem: WorkRecord): Refusal | null {
  const child = linksOf(workItem).childMission;
  // A settled link records the child's end (ext.missionweave.core.child_mission_settle), a released
  // one the WorkItem's own end (`work.fail`); until then the child runs, as `work.unblock` judges it too.
  if (!waitsForChild(child)) return null;
  return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.childMissionRunning, 'the WorkItem is being done by a child Mission', {
    workItemId: workItem.workItemId,
    childMissionId: child.missionId,
  });
}

/** Each candidate is an active Worker of this Group whose active Agent Card meets the contract. */
function checkCandidates(state: GroupState, workItem: WorkRecord, candidateIds: readonly string[], ctx: DecisionContext): Refusal | Map<string, number> {
  if (candidateIds.length > MAX_OFFER_CANDIDATES) {
    return refuse('INVALID_COMMAND', WORK_REASONS.tooManyCandidates, `at most ${MAX_OFFER_CANDIDATES} candidates per offer`, { limit: MAX_OFFER_CANDIDATES });
  }
  const cardVersions = new Map<string, number>();
  for (const agentId of candidateIds) {
    const membership = membershipOf(state, { type: 'agent', id: agentId });
    if (membership?.state !== 'active' || membership.role !== 'worker') {
      return refuse('AUTH_FORBIDDEN', WORK_REASONS.candidateNotWorker, 'a candidate is not an active Worker of this Group', { agentId });
    }
    const agent = activeAgent(ctx, agentId);
    if (agent === undefined) return refuse('AUTH_FORBIDDEN', WORK_REASONS.candidateCardInactive, 'a candidate has no active Agent Card', { agentId });
    if (capabilityPins(agent, workItem.contract.requiredCapabilities) === undefined) {
      return refuse('AUTH_FORBIDDEN', WORK_REASONS.candidateLacksCapability, 'a candidate Agent Card does not meet the required capabilities', { agentId });
    }
    cardVersions.set(agentId, agent.cardVersion);
  }
  return cardVersions;
}

/**
 * The offers after this one: earlier pending offers to candidates are extended, the rest of the
 * pending ones withdrawn (or recorded as expired), new candidates get a new offer; closed
 * entries beyond `MAX_OFFER_ENTRIES` are pruned, oldest first.
 */
function nextOffers(previous: readonly WorkOffer[], cardVersions: ReadonlyMap<string, number>, expiresAt: string, ctx: DecisionContext): WorkOffer[] {
  const closed: WorkOffer[] = [];
  const extended = new Map<string, WorkOffer>();
  for (const offer of previous) {
    if (offer.status !== 'pending') closed.push(offer);
    else if (!isAfterNow(offer.expiresAt, ctx)) closed.push({ ...offer, status: 'expired' });
    else if (cardVersions.has(offer.agentId)) extended.set(offer.agentId, offer);
    else closed.push({ ...offer, status: 'withdrawn' });
  }
  const pending = [...cardVersions].map(([agentId, agentCardVersion]): WorkOffer => {
    const offerId = extended.get(agentId)?.offerId ?? ctx.newId();
    return { offerId, agentId, agentCardVersion, expiresAt, status: 'pending' };
  });
  return [...closed.slice(Math.max(0, closed.length + pending.length - MAX_OFFER_ENTRIES)), ...pending];
}

const FENCE_REASON = 'Ownership expired; fenced before a new offer';

/**
 * The WorkItem without its former owner. An expired owner is fenced first (§10.2): its leases
 * close and it is no longer the owner, so any Command it still sends meets WORK_STALE_OWNERSHIP;
 * the lease extension keeps the highest Ownership Epoch, so the next owner's is higher.
 */
function fenceFormerOwner(workItem: WorkRecord, ctx: DecisionContext): { unowned: WorkRecord; fencedOwnershipLease?: Lease } {
  const { owner, ...unowned } = workItem;
  const leases = leasesOf(workItem);
  if (owner === undefined && leases.ownership === undefined) return { unowned };
  const closed = withLeases(unowned, withAllClosed(leases, 'expired', FENCE_REASON, ctx));
  if (leases.ownership === undefined) return { unowned: closed };
  return { unowned: closed, fencedOwnershipLease: closeLease(leases.ownership, 'expired', FENCE_REASON, ctx) };
}

export function decideWorkOffer(state: GroupState, command: OfferCommand, ctx: DecisionContext): Decision<EventDraft<'work.offer.created', WorkOfferCreatedPayload>> {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const grantId = payload.delegationGrantId;
  if (grantId !== undefined) {
    if (holdsCoordinatorLease(state, command.actor)) {
      return refuse('INVALID_COMMAND', WORK_REASONS.coordinatorCitesGrant, 'the Coordinator offers under its lease, not a Delegation Grant');
    }
    const refused = checkDelegatedUse(state, command, grantId, { kind: 'offer', workItem }, ctx);
    if (refused !== null) return refused;
  }
  const refused = checkWorkState(workItem, OFFERABLE, 'be offered') ?? checkNoRunningChild(workItem);
  if (refused !== null) return refused;
  const liveOwner = liveOwnerOf(workItem, ctx);
  if (liveOwner !== undefined) {
    return refuse('WORK_ALREADY_OWNED', WORK_REASONS.liveOwner, 'the WorkItem has an owner under a live lease', { workItemId: workItem.workItemId, ownerId: liveOwner });
  }
  const cardVersions = checkCandidates(state, workItem, payload.candidateAgentIds, ctx);
  if (isRefusal(cardVersions)) return cardVersions;
  // An offer that outlives the contract deadline would let a Worker accept work it can no longer
  // deliver in time (§10.3 admission control); past the deadline nothing can be offered.
  const requested = nowPlusSeconds(ctx, payload.offerExpiresInSeconds ?? DEFAULT_OFFER_SECONDS);
  const deadline = workItem.contract.deadline;
  if (!isAfterNow(deadline, ctx)) {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.contractDeadlinePassed, 'the Work Contract deadline has passed', { workItemId: workItem.workItemId });
  }
  const offerExpiresAt = isNoLaterThan(requested, deadline) ? requested : deadline;

  const { unowned: fenced, fencedOwnershipLease } = fenceFormerOwner(workItem, ctx);
  const selectionBasis: SelectionBasis = payload.selectionBasis;
  const offered: WorkRecord = {
    ...fenced,
    revision: workItem.revision + 1,
    state: 'offered',
    offers: nextOffers(workItem.offers ?? [], cardVersions, offerExpiresAt, ctx),
    selectionBasis,
    updatedAt: ctx.now,
  };
  return accept({
    kind: 'work.offer.created',
    payload: {
      workItemId: workItem.workItemId,
      workItem: workItemDocument(offered),
      candidateAgentIds: payload.candidateAgentIds,
      offerExpiresAt,
      selectionBasis,
      ...(grantId === undefined ? {} : { delegationGrantId: grantId }),
      ...(fencedOwnershipLease === undefined ? {} : { fencedOwnershipLease }),
    },
    aggregate: { type: 'work-item', id: workItem.workItemId, revision: offered.revision },
    workItemId: workItem.workItemId,
  });
}

export const workOfferCreated = defineEvent<WorkOfferCreatedPayload>()({
  kind: 'work.offer.created',
  addressees: workAddressees,
  evolve: (state, payload) => {
    const next = withWorkItem(state, payload.workItem);
    // An offer under a Grant counts against its ceilings from now on (§9.1).
    return payload.delegationGrantId === undefined ? next : recordGrantUse(next, payload.delegationGrantId, payload.workItemId);
  },
});

export const workOffer = defineKind({
  kind: 'work.offer',
  examples: WORK_EXAMPLES['work.offer'],
  scope: 'group',
  authority: ['coordinator', 'delegate'],
  // A replacement Coordinator's assignment waits for its Context Package (§7.2).
  assigns: true,
  missionStates: ['active'],
  events: [workOfferCreated],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideWorkOffer,
});
