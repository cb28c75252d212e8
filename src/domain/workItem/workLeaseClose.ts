/**
 * `ext.missionweave.core.work_lease_close` (our own kind, docs/reference-differences.md): the
 * Group Authority closes an expired lease, or the Execution Lease of a replaced Session (§11.3),
 * through the ordinary pipeline. Only the Group Authority service sends it (its reactor,
 * src/app/reactor/); its rules follow below.
 */

import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { workItemEvent, type WorkItemEventPayload } from './workEvents.js';
import type { Lease } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { isAfterNow } from '../rules.js';
import { isOwnerCardIncompatible, isRefusal, workItemNamed } from './fencing.js';
import { closeLease, leasesOf, withAllClosed, withExecutionClosed, withLeases, type WorkLeases } from './workLeases.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXECUTION_EXAMPLES } from './workExecutionExamples.js';
import { workItemDocument, type WorkRecord } from './workRecord.js';

/**
 * `ext.missionweave.core.work_lease_close`: the Group Authority closes a WorkItem lease that no
 * longer holds (§11.3). Its reactor sends the Command on every node, maybe twice, maybe after
 * another node already did: so the decider accepts only while the named lease is still the
 * WorkItem's current one under the current Ownership Epoch and its cause holds at the acceptance
 * time, and refuses everything else as not applying (the reactor logs that and moves on).
 *
 * Effects (docs/transitions.md):
 * - An Execution Lease closed (expired, or revoked because its holder opened a replacement
 *   Session): the WorkItem leaves `active` for `queued`, ownership intact, so the owner may start
 *   it again under a new lease while its ownership lease lives (§11.3: "return affected WorkItems
 *   to `queued` before the new runtime may start them under new leases").
 * - An ownership or blocked lease expired: the owner is fenced — every lease closed, the recorded
 *   owner and epoch kept (the next `work.accept_offer` takes a higher epoch, and the fenced owner
 *   hears `WORK_LEASE_EXPIRED`). The state stays where §10.2 lets the Coordinator re-offer it
 *   (`work.offer` from a state with no live owner); only `active` becomes `queued`, since an
 *   `active` WorkItem has an Execution Lease and that one is closed with the ownership.
 * - Session replacement does not close ownership: the same Agent's new Session resumes its work.
 * - An owner whose Agent Card changed incompatibly (§6.1, `isOwnerCardIncompatible`): fenced like
 *   an expired owner, its ownership lease named and every lease closed (`revoked`), so that
 *   execution continues only after renewed acceptance of a new offer, by a Card that meets the
 *   contract. The state stays re-offerable; `active` becomes `queued`.
 */

export const WORK_LEASE_CLOSE = 'ext.missionweave.core.work_lease_close';
export const WORK_LEASE_CLOSED = 'ext.missionweave.core.work_lease_closed';

export type LeaseCloseCause = 'expired' | 'session_replaced' | 'card_incompatible';

export interface WorkLeaseClosedPayload extends WorkItemEventPayload {
  readonly ownershipEpoch: number;
  readonly cause: LeaseCloseCause;
  /** The lease the Command named, as closed. */
  readonly closedLease: Lease;
  /** Every lease the closure ended, the named one first (an owner fenced loses its Execution Lease too). */
  readonly closedLeases: readonly Lease[];
}

type Close = CommandOf<typeof WORK_LEASE_CLOSE>;

/** Which of the WorkItem's current leases the Command names, or the refusal. */
function namedLease(workItem: WorkRecord, payload: Close['payload']): { which: 'execution' | 'ownership'; lease: Lease } | Refusal {
  const owner = workItem.owner;
  if (owner === undefined || owner.ownershipEpoch !== payload.ownershipEpoch) {
    return refuse('WORK_STALE_OWNERSHIP', WORK_REASONS.ownershipEpochNotCurrent, 'the lease was granted under an Ownership Epoch that is no longer current', {
      workItemId: workItem.workItemId,
    });
  }
  const { execution, ownership } = leasesOf(workItem);
  const found = execution?.leaseId === payload.leaseId ? { which: 'execution' as const, lease: execution } : ownership?.leaseId === payload.leaseId ? { which: 'ownership' as const, lease: ownership } : undefined;
  if (found === undefined || found.lease.state !== 'active') {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.leaseNotCurrent, 'the lease is not a current lease of the WorkItem', { workItemId: workItem.workItemId, leaseId: payload.leaseId });
  }
  if (found.lease.holderAgentId !== payload.holderAgentId) {
    return refuse('INVALID_COMMAND', WORK_REASONS.leaseHolderMismatch, 'the lease has another holder', { workItemId: workItem.workItemId, leaseId: payload.leaseId });
  }
  return found;
}

/** Refuses a cause that does not hold at the acceptance time (the Authority's clock only). */
function checkCause(workItem: WorkRecord, which: 'execution' | 'ownership', lease: Lease, cause: LeaseCloseCause, ctx: DecisionContext): Refusal | null {
  const details = { leaseId: lease.leaseId };
  switch (cause) {
    case 'expired':
      return isAfterNow(lease.expiresAt, ctx) ? refuse('INVALID_STATE_TRANSITION', WORK_REASONS.leaseNotExpired, 'the lease has not expired', details) : null;
    case 'session_replaced': {
      if (which !== 'execution') {
        return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.ownershipSurvivesSession, 'Session replacement closes Execution Leases only; ownership stays with the Agent', details);
      }
      const current = ctx.agent(lease.holderAgentId)?.sessionEpoch;
      return current !== undefined && current > lease.sessionEpoch
        ? null
        : refuse('INVALID_STATE_TRANSITION', WORK_REASONS.sessionNotReplaced, 'the holder has opened no Session since the lease was granted', details);
    }
    case 'card_incompatible':
      if (which !== 'ownership') {
        return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.cardFencesOwnership, 'an incompatible Agent Card fences the owner: name its ownership lease', details);
      }
      return isOwnerCardIncompatible(workItem, ctx) ? null : refuse('INVALID_STATE_TRANSITION', WORK_REASONS.cardCompatible, 'the owner’s Agent Card still meets the Work Contract', details);
    default: {
      const _exhaustive: never = cause;
      return _exhaustive;
    }
  }
}

/** The leases after the closure, and the closed ones (the named one first). */
function closing(which: 'execution' | 'ownership', leases: WorkLeases, cause: LeaseCloseCause, ctx: DecisionContext): { after: WorkLeases; closed: Lease[] } {
  const state = cause === 'expired' ? 'expired' : 'revoked';
  if (which === 'execution') {
    const after = withExecutionClosed(leases, state, cause, ctx);
    return { after, closed: [after.closed?.at(-1) as Lease] };
  }
  const after = withAllClosed(leases, state, cause, ctx);
  const ownership = closeLease(leases.ownership as Lease, state, cause, ctx);
  return { after, closed: leases.execution === undefined ? [ownership] : [ownership, after.closed?.at(-1) as Lease] };
}

export function decideWorkLeaseClose(state: GroupState, command: Close, ctx: DecisionContext): Decision<EventDraft<typeof WORK_LEASE_CLOSED, WorkLeaseClosedPayload>> {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const named = namedLease(workItem, payload);
  if (isRefusal(named)) return named;
  const refused = checkCause(workItem, named.which, named.lease, payload.cause, ctx);
  if (refused !== null) return refused;

  const leases = leasesOf(workItem);
  const { after, closed } = closing(named.which, leases, payload.cause, ctx);
  const next: WorkRecord = {
    ...withLeases(workItem, after),
    state: workItem.state === 'active' ? 'queued' : workItem.state,
    revision: workItem.revision + 1,
    updatedAt: ctx.now,
  };
  return accept({
    kind: WORK_LEASE_CLOSED,
    payload: { workItemId: next.workItemId, workItem: workItemDocument(next), ownershipEpoch: payload.ownershipEpoch, cause: payload.cause, closedLease: closed[0] as Lease, closedLeases: closed },
    aggregate: { type: 'work-item', id: next.workItemId, revision: next.revision },
    workItemId: next.workItemId,
    conversationId: next.conversationId,
  });
}

export const workLeaseClosed = workItemEvent<WorkLeaseClosedPayload>()(WORK_LEASE_CLOSED);

export const workLeaseClose = defineKind({
  kind: WORK_LEASE_CLOSE,
  examples: WORK_EXECUTION_EXAMPLES['ext.missionweave.core.work_lease_close'],
  scope: 'group',
  authority: ['organization-authority'],
  events: [workLeaseClosed],
  // The holder's current Session Epoch decides `session_replaced`.
  preload: { agents: (command) => [command.payload.holderAgentId] },
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideWorkLeaseClose,
});
