/**
 * Fencing of Worker Commands (§11.3, §11.5). A Worker acts on a WorkItem only as its current
 * owner, under the current Ownership Epoch and a live ownership lease, and, where the kind cites
 * one, under the current Execution Lease of its current Session. The checks are ordered so that
 * each stale part gets its own answer even when the other still matches: an older Ownership Epoch
 * is `WORK_STALE_OWNERSHIP`; the current epoch with an older or closed Lease ID is
 * `WORK_LEASE_EXPIRED` (§11.3: "A delayed Command carrying an older Lease ID MUST be rejected even
 * when its Ownership Epoch is unchanged").
 */

import type { Lease } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { membershipOf } from '../stateQueries.js';
import { refuse, type CommandEnvelope, type DecisionContext, type Refusal } from '../model.js';
import { capabilityPins } from './capabilityMatch.js';
import { linksOf } from './workItemDocuments.js';
import { isLive, leasesOf } from './workLeases.js';
import { WORK_REASONS } from './workReasons.js';
import type { WorkRecord } from './workRecord.js';

/**
 * What the fencing checks read of a Command: who sends it and in which Session. Narrower than
 * `CommandEnvelope` so that a kind's typed Command (`CommandOf<K>`, whose payload is its own
 * interface, not a `JsonObject`) passes as it is.
 */
export type FencedCommand = Pick<CommandEnvelope, 'actor' | 'sessionEpoch'>;

/** The WorkItem a Command names, or the refusal for one this Group does not have. */
export function workItemNamed(state: GroupState, workItemId: string): WorkRecord | Refusal {
  const workItem = state.workItems.get(workItemId);
  return workItem ?? refuse('INVALID_COMMAND', WORK_REASONS.workItemUnknown, 'the WorkItem is not in this Group', { workItemId });
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'ok' in value && (value as { ok: unknown }).ok === false;
}

/** The owner whose ownership lease is still in force, if any (§10.2 "live owner"). */
export function liveOwnerOf(workItem: WorkRecord, ctx: DecisionContext): string | undefined {
  const { ownership } = leasesOf(workItem);
  return workItem.owner !== undefined && isLive(ownership, ctx) ? workItem.owner.agentId : undefined;
}

/** Workers act through an active `worker` Membership (§8). */
export function checkWorker(state: GroupState, command: FencedCommand): Refusal | null {
  if (command.actor.type !== 'agent') return refuse('AUTH_FORBIDDEN', WORK_REASONS.workerNotAgent, 'only a Worker Agent may do this');
  const membership = membershipOf(state, command.actor);
  if (membership?.role !== 'worker') return refuse('AUTH_FORBIDDEN', WORK_REASONS.notAWorker, 'a worker Membership is required');
  return null;
}

export interface OwnerClaim {
  readonly ownershipEpoch: number;
  /** Present for the kinds that must cite the current Execution Lease (§11.3). */
  readonly executionLeaseId?: string;
}

/**
 * The current owner acting under `claim`, or the refusal. The actor must be the recorded owner
 * (anyone else: `AUTH_FORBIDDEN`, or `WORK_STALE_OWNERSHIP` for a former owner citing its old
 * epoch); the epoch must be current; the ownership lease live.
 */
export function checkOwner(workItem: WorkRecord, command: FencedCommand, claim: OwnerClaim, ctx: DecisionContext): Refusal | null {
  const owner = workItem.owner;
  if (owner === undefined || claim.ownershipEpoch !== owner.ownershipEpoch) {
    return refuse('WORK_STALE_OWNERSHIP', WORK_REASONS.ownershipEpochStale, 'the Ownership Epoch is not the current one', {
      workItemId: workItem.workItemId,
      ...(owner === undefined ? {} : { currentOwnershipEpoch: owner.ownershipEpoch }),
    });
  }
  if (command.actor.type !== 'agent' || command.actor.id !== owner.agentId) {
    return refuse('AUTH_FORBIDDEN', WORK_REASONS.notTheOwner, 'only the current owner may do this', { workItemId: workItem.workItemId });
  }
  const { ownership } = leasesOf(workItem);
  if (!isLive(ownership, ctx)) {
    return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.ownershipLeaseExpired, 'the ownership lease is no longer valid', { workItemId: workItem.workItemId });
  }
  return null;
}

/**
 * The current Execution Lease, cited by its ID, live, and held in the Command's own Session: an
 * older Lease ID, a closed or expired lease, or a lease of a replaced Session is refused.
 */
export function checkExecutionLease(workItem: WorkRecord, command: FencedCommand, leaseId: string, ctx: DecisionContext): Lease | Refusal {
  const { execution } = leasesOf(workItem);
  const details = { workItemId: workItem.workItemId, executionLeaseId: leaseId };
  if (execution === undefined || execution.leaseId !== leaseId) {
    return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.executionLeaseNotCurrent, 'the Execution Lease is not the current one', details);
  }
  if (!isLive(execution, ctx)) {
    return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.executionLeaseExpired, 'the Execution Lease has expired', details);
  }
  if (command.sessionEpoch !== execution.sessionEpoch) {
    return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.executionLeaseOtherSession, 'the Execution Lease belongs to another Session', details);
  }
  return execution;
}

/**
 * Whether the owner's Agent Card no longer meets the contract (§6.1): an upgrade that left no
 * declared version satisfying a required capability (a new major version, a capability dropped)
 * is incompatible, and the acceptance made under the older Card no longer binds. A compatible
 * in-place upgrade (the same major version, at least the minimum) continues. The Parent
 * Coordinator holding a WorkItem for a running child Mission (§14) holds it as the child's
 * MissionOwner, not under its Card's capabilities.
 */
export function isOwnerCardIncompatible(workItem: WorkRecord, ctx: DecisionContext): boolean {
  const owner = workItem.owner;
  if (owner === undefined) return false;
  const child = linksOf(workItem).childMission;
  if (child !== undefined && child.outcome === undefined) return false;
  const card = ctx.agent(owner.agentId);
  return card === undefined || capabilityPins(card, workItem.contract.requiredCapabilities) === undefined;
}

/**
 * The owner's leases stop holding from the Card change on, like an expiry, whether or not the
 * Authority has closed them yet (`ext.missionweave.core.work_lease_close`, cause
 * `card_incompatible`): execution continues only after renewed acceptance (§6.1).
 */
export function checkOwnerCard(workItem: WorkRecord, ctx: DecisionContext): Refusal | null {
  if (!isOwnerCardIncompatible(workItem, ctx)) return null;
  return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.agentCardIncompatible, 'the owner’s Agent Card no longer meets the Work Contract; execution needs renewed acceptance', {
    workItemId: workItem.workItemId,
    agentId: workItem.owner?.agentId ?? '',
    agentCardVersion: ctx.agent(workItem.owner?.agentId ?? '')?.cardVersion ?? 0,
  });
}

/** Owner, epoch, ownership lease and (when cited) Execution Lease, in that order. */
export function checkFenced(workItem: WorkRecord, command: FencedCommand, claim: OwnerClaim, ctx: DecisionContext): Refusal | null {
  const owner = checkOwner(workItem, command, claim, ctx);
  if (owner !== null) return owner;
  if (claim.executionLeaseId === undefined) return null;
  const lease = checkExecutionLease(workItem, command, claim.executionLeaseId, ctx);
  return isRefusal(lease) ? lease : null;
}

/** Refuses a transition the §10.2 table does not allow from the WorkItem's state. */
export function checkWorkState(workItem: WorkRecord, allowed: readonly WorkRecord['state'][], transition: string): Refusal | null {
  if (allowed.includes(workItem.state)) return null;
  return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState, `a ${workItem.state} WorkItem cannot ${transition}`, {
    workItemId: workItem.workItemId,
    state: workItem.state,
  });
}
