/** `work.accept_offer` (§10.2, §10.3): the first valid acceptance wins a new Ownership Epoch. */

import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { workItemEvent, type WorkOfferAcceptedPayload } from './workEvents.js';
import type { WorkOffer, WorkOwner } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { activeAgent } from '../stateQueries.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { isAfterNow, nowPlusSeconds } from '../rules.js';
import { capabilityPins } from './capabilityMatch.js';
import { checkWorker, checkWorkState, isRefusal, workItemNamed } from './fencing.js';
import { DEFAULT_OWNERSHIP_LEASE_SECONDS } from './workLimits.js';
import { leasesOf, newWorkLease, withLeases } from './workLeases.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXAMPLES } from './workExamples.js';
import { workItemDocument, type WorkRecord } from './workRecord.js';

/**
 * `work.accept_offer` (§10.2, §10.3): the first valid acceptance of a pending, unexpired offer
 * atomically wins a new Ownership Epoch, an ownership lease whose expiry is the start-by
 * deadline (§11.3), and the owner record pinning the Agent Card and capability versions (§6.1).
 * Every other pending offer is marked `lost_race` in the same Event, so no loser can act on it:
 * the Group's single writer orders concurrent acceptances, and the second one finds the WorkItem
 * owned (`WORK_ALREADY_OWNED`).
 */

type AcceptCommand = CommandOf<'work.accept_offer'>;

/** The actor's latest offer entry (a re-offer appends a new one). */
function latestOfferTo(workItem: WorkRecord, agentId: string): WorkOffer | undefined {
  return [...(workItem.offers ?? [])].reverse().find((offer) => offer.agentId === agentId);
}

/** The actor's pending, unexpired offer, or why it has none. */
function checkOffer(workItem: WorkRecord, agentId: string, ctx: DecisionContext): WorkOffer | Refusal {
  const offer = latestOfferTo(workItem, agentId);
  const details = { workItemId: workItem.workItemId };
  if (offer === undefined) return refuse('AUTH_FORBIDDEN', WORK_REASONS.notOffered, 'the WorkItem is not offered to this Agent', details);
  // Someone won first: a candidate hears that, not merely that its offer is gone (§10.3).
  if (offer.status === 'lost_race' || (workItem.owner !== undefined && workItem.owner.agentId !== agentId && workItem.state !== 'offered')) {
    return refuse('WORK_ALREADY_OWNED', WORK_REASONS.alreadyOwned, 'another candidate accepted the WorkItem first', details);
  }
  const refused = checkWorkState(workItem, ['offered'], 'accept an offer');
  if (refused !== null) return refused;
  if (offer.status === 'withdrawn' || offer.status === 'declined' || offer.status === 'accepted') {
    return refuse('AUTH_FORBIDDEN', WORK_REASONS.offerWithdrawn, 'the offer to this Agent is no longer open', details);
  }
  if (offer.status === 'expired' || !isAfterNow(offer.expiresAt, ctx)) {
    return refuse('WORK_OFFER_EXPIRED', WORK_REASONS.offerExpired, 'the offer has expired', { ...details, offerId: offer.offerId });
  }
  return offer;
}

/** One higher than any epoch the WorkItem ever had, whether or not its owner is still recorded. */
function nextOwnershipEpoch(workItem: WorkRecord): number {
  const leases = leasesOf(workItem);
  return Math.max(leases.lastOwnershipEpoch ?? 0, workItem.owner?.ownershipEpoch ?? 0, leases.ownership?.ownershipEpoch ?? 0) + 1;
}

export function decideAcceptOffer(state: GroupState, command: AcceptCommand, ctx: DecisionContext): Decision<EventDraft<'work.offer.accepted', WorkOfferAcceptedPayload>> {
  const refusedWorker = checkWorker(state, command);
  if (refusedWorker !== null) return refusedWorker;
  const workItem = workItemNamed(state, command.payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const agentId = command.actor.id;
  const offer = checkOffer(workItem, agentId, ctx);
  if (isRefusal(offer)) return offer;
  // The card is judged again at acceptance: it may have been revoked or changed since the offer.
  const agent = activeAgent(ctx, agentId);
  if (agent === undefined) return refuse('AUTH_FORBIDDEN', WORK_REASONS.cardInactive, 'the Agent has no active Agent Card');
  const pins = capabilityPins(agent, workItem.contract.requiredCapabilities);
  if (pins === undefined) return refuse('AUTH_FORBIDDEN', WORK_REASONS.capabilityNotSatisfied, 'the Agent Card no longer meets the required capabilities');
  if (command.sessionEpoch === undefined) return refuse('INVALID_COMMAND', WORK_REASONS.sessionEpochRequired, 'an ownership lease binds a Session Epoch');

  const ownershipEpoch = nextOwnershipEpoch(workItem);
  const seconds = command.payload.ownershipLeaseSeconds ?? DEFAULT_OWNERSHIP_LEASE_SECONDS;
  const startBy = nowPlusSeconds(ctx, seconds);
  const ownershipLease = newWorkLease(
    { leaseId: ctx.newId(), leaseType: 'ownership', workItem, holderAgentId: agentId, sessionEpoch: command.sessionEpoch, ownershipEpoch, seconds, startBy },
    ctx,
  );
  const owner: WorkOwner = {
    agentId,
    agentCardVersion: agent.cardVersion,
    capabilityPins: pins,
    ownershipEpoch,
    ownershipLeaseId: ownershipLease.leaseId,
    acceptedAt: ctx.now,
  };
  const offers = (workItem.offers ?? []).map((o): WorkOffer => {
    if (o.offerId === offer.offerId) return { ...o, status: 'accepted' };
    return o.status === 'pending' ? { ...o, status: 'lost_race' } : o;
  });
  const queued = withLeases<WorkRecord>(
    { ...workItem, revision: workItem.revision + 1, state: 'queued', offers, owner, updatedAt: ctx.now },
    { ...leasesOf(workItem), ownership: ownershipLease, lastOwnershipEpoch: ownershipEpoch },
  );
  return accept({
    kind: 'work.offer.accepted',
    payload: {
      workItemId: workItem.workItemId,
      workItem: workItemDocument(queued),
      assigneeId: agentId,
      ownershipEpoch,
      ownershipLeaseExpiresAt: ownershipLease.expiresAt,
      agentCardVersion: agent.cardVersion,
      ownershipLease,
    },
    aggregate: { type: 'work-item', id: workItem.workItemId, revision: queued.revision },
    workItemId: workItem.workItemId,
  });
}

export const workOfferAccepted = workItemEvent<WorkOfferAcceptedPayload>()('work.offer.accepted');

export const workAcceptOffer = defineKind({
  kind: 'work.accept_offer',
  examples: WORK_EXAMPLES['work.accept_offer'],
  scope: 'group',
  authority: ['member'],
  missionStates: ['active'],
  events: [workOfferAccepted],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideAcceptOffer,
});
