/**
 * What the execution half of the WorkItem state machine (§10.2: checkpoint, block, unblock,
 * submit, accept a result, fail, cancel) shares: the fencing of the Worker kinds that cite the
 * current Execution Lease, the next revision of a WorkItem, and the drafts of its Events.
 */

import type { Lease, WorkOffer } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import type { DecisionContext, EventDraft, Refusal } from '../model.js';
import { checkExecutionLease, checkOwner, checkWorkState, type FencedCommand } from './fencing.js';
import type { WorkItemEventPayload } from './workEvents.js';
import { closeLease, leasesOf, withAllClosed, withLeases } from './workLeases.js';
import type { WorkRecord } from './workRecord.js';

/** The Ownership Epoch and Execution Lease a Worker kind cites (§11.3). */
export interface ExecutionClaim {
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
}

/**
 * The current owner acting on its `active` WorkItem under the current Execution Lease: the
 * lease, or the refusal. Owner and epoch come first (`WORK_STALE_OWNERSHIP`, `AUTH_FORBIDDEN`,
 * an expired ownership lease `WORK_LEASE_EXPIRED`), then the state, then the Lease ID: an older
 * or closed Lease ID is `WORK_LEASE_EXPIRED` even when the epoch still matches (§11.3).
 */
export function checkActiveOwner(workItem: WorkRecord, command: FencedCommand, claim: ExecutionClaim, ctx: DecisionContext, transition: string): Lease | Refusal {
  const refused = checkOwner(workItem, command, claim, ctx) ?? checkWorkState(workItem, ['active'], transition);
  if (refused !== null) return refused;
  return checkExecutionLease(workItem, command, claim.executionLeaseId, ctx);
}

/** The WorkItem a kind changes, for `target`: its revision, `undefined` when it is not in the Group. */
export function workItemRevision(state: GroupState, workItemId: string): number | undefined {
  return state.workItems.get(workItemId)?.revision;
}

/** The WorkItem's own Conversation, which an envelope `conversationId` must name (§9). */
export function workItemConversation(state: GroupState | null, workItemId: string): string | undefined {
  return state?.workItems.get(workItemId)?.conversationId;
}

/** `workItem` after one more transition at `ctx.now`. */
export function nextRevision(workItem: WorkRecord, change: Partial<WorkRecord>, ctx: DecisionContext): WorkRecord {
  return { ...workItem, ...change, revision: workItem.revision + 1, updatedAt: ctx.now };
}

/** Pending offers withdrawn: a WorkItem that leaves the offer cycle leaves none behind (§10.3). */
export function withdrawnOffers(workItem: WorkRecord): { offers?: readonly WorkOffer[] } {
  if (workItem.offers === undefined) return {};
  return { offers: workItem.offers.map((o) => (o.status === 'pending' ? { ...o, status: 'withdrawn' as const } : o)) };
}

/** The draft of a WorkItem Event: aggregate WorkItem, addressed to the WorkItem and its Conversation. */
export function workItemDraft<K extends string, P extends WorkItemEventPayload>(kind: K, payload: P): EventDraft<K, P> {
  const { workItem } = payload;
  return {
    kind,
    payload,
    aggregate: { type: 'work-item', id: workItem.workItemId, revision: workItem.revision },
    workItemId: workItem.workItemId,
    conversationId: workItem.conversationId,
  };
}

/**
 * `workItem` ended as `failed` or `cancelled` at `ctx.now`: every lease it runs under revoked
 * (§11.3: cancellation and failure revoke them), its pending offers withdrawn, its owner kept as
 * the record of whose work ended. Also the revoked leases, which the ending Event carries. A
 * terminal Mission ends its unfinished WorkItems the same way (§10.2, last row; §12).
 */
export function endWorkItem(workItem: WorkRecord, state: 'failed' | 'cancelled', reason: string, ctx: DecisionContext, change: Partial<WorkRecord> = {}): { workItem: WorkRecord; revokedLeases: Lease[] } {
  const leases = leasesOf(workItem);
  const revokedLeases = [leases.ownership, leases.execution]
    .filter((lease): lease is Lease => lease !== undefined)
    .map((lease) => closeLease(lease, 'revoked', reason, ctx));
  const ended = nextRevision(workItem, { state, ...withdrawnOffers(workItem), ...change }, ctx);
  // A WorkItem never owned has no lease record to close.
  const hasLeases = workItem.leases !== undefined;
  return { workItem: hasLeases ? withLeases(ended, withAllClosed(leases, 'revoked', reason, ctx)) : ended, revokedLeases };
}
