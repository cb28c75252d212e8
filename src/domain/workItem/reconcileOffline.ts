/**
 * Reconciliation of buffered offline progress (§11.5), one hook the Group decider runs for every
 * Command carrying the bounded offline execution binding, after the checks every kind shares and
 * before the kind's own rules. The envelope (issuedAt, Session and Membership Epochs) is the
 * current session's and passed the usual checks; the binding says when and under what the
 * progress was made, and is judged here against the WorkItem's recorded leases:
 *
 * - the actor and Group are the binding's; its window is ordered (disconnect ≤ buffer < grace
 *   deadline ≤ lease expiry) and not in the future of the Authority's clock;
 * - the bound WorkItem still has the same owner under the same Ownership Epoch, and is `queued`
 *   or `active` — progress reconciles before submission or any other transition (§11.5 "MUST
 *   reconcile on reconnect before submission");
 * - the historical Execution Lease is the WorkItem's current or one of its last closed ones
 *   (`workLeases.closed`), held by that Agent in the original Session under that epoch; the
 *   progress was buffered after the lease started, before its expiry (by the Authority's record:
 *   the Worker cannot claim a longer lease) and not after its closure;
 * - a Message is posted in the bound WorkItem's Conversation; a checkpoint names the bound
 *   WorkItem and epoch and was taken inside the offline window.
 *
 * What each kind then does is its own rule, unchanged: a buffered Message is posted as history
 * (committed now, its buffer time on the binding the Event relays). A buffered checkpoint is
 * applied as an ordinary checkpoint of the Execution Lease its payload cites, which must be the
 * current live lease of the current session — so the Worker, whose reconnection replaced its
 * Session and so revoked the historical lease (§11.3), starts a new lease and rebases the
 * checkpoint onto it; the binding keeps the historical lease that bounds when the work was done.
 *
 * The charge is in the same decision: for a nonzero usage delta the
 * `resource_usage_recorded` Event comes first (and one `child_usage_recorded` per ancestor Group,
 * which the bufferable kinds lock through `ancestry: chargesOfflineUsage`) and the kind decides on
 * the state it leaves, so all commit together or, on BUDGET_EXCEEDED from any account of the
 * WorkItem/Mission ancestry, none does.
 */

import type { Lease } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import {
  accept,
  refuse,
  type CommandEnvelope,
  type Decision,
  type DecisionContext,
  type Refusal,
} from '../model.js';
import { isAfterNow, isNoLaterThan } from '../rules.js';
import { leasesOf } from './workLeases.js';
import { isZeroUsage, readBinding, type OfflineBinding, type OfflineTarget } from './offlineBinding.js';
import { chargeUsage, type Charged } from './ledger.js';
import { OFFLINE_EXECUTION_EXTENSION } from '../../protocol/offlineExecution.js';
import { WORK_REASONS } from './workReasons.js';
import type { WorkRecord } from './workRecord.js';

type KindDecide = (state: GroupState, command: CommandEnvelope, ctx: DecisionContext) => Decision;

/** `a` strictly before `b`. */
function isBefore(a: string, b: string): boolean {
  return !isNoLaterThan(b, a);
}

function checkEnvelope(binding: OfflineBinding, command: CommandEnvelope, ctx: DecisionContext): Refusal | null {
  if (command.actor.type !== 'agent' || command.actor.id !== binding.agentId) {
    return refuse('AUTH_FORBIDDEN', WORK_REASONS.offlineBindingActor, 'the offline binding names another Agent');
  }
  if (command.groupId !== binding.groupId) return refuse('INVALID_COMMAND', WORK_REASONS.offlineBindingGroup, 'the offline binding names another Group');
  const ordered =
    isNoLaterThan(binding.disconnectedAt, binding.bufferedAt) &&
    isBefore(binding.bufferedAt, binding.graceDeadline) &&
    isNoLaterThan(binding.graceDeadline, binding.executionLeaseExpiresAt) &&
    isNoLaterThan(binding.bufferedAt, command.issuedAt);
  if (!ordered) return refuse('INVALID_COMMAND', WORK_REASONS.offlineBindingWindow, 'the offline window is not ordered (disconnect ≤ buffer < grace deadline ≤ lease expiry, buffer ≤ issuedAt)');
  if (isAfterNow(binding.bufferedAt, ctx)) return refuse('INVALID_COMMAND', WORK_REASONS.offlineBindingFuture, 'the progress claims to be buffered in the future');
  return null;
}

function checkOwnerUnchanged(workItem: WorkRecord, binding: OfflineBinding): Refusal | null {
  const details = { workItemId: workItem.workItemId };
  if (workItem.state !== 'queued' && workItem.state !== 'active') {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.offlineWorkItemState, `offline progress cannot reconcile into a WorkItem in state ${workItem.state}`, { ...details, state: workItem.state });
  }
  const owner = workItem.owner;
  if (owner === undefined || owner.agentId !== binding.agentId || owner.ownershipEpoch !== binding.ownershipEpoch) {
    return refuse('WORK_STALE_OWNERSHIP', WORK_REASONS.offlineOwnerChanged, 'the WorkItem changed owner since the progress was buffered', details);
  }
  return null;
}

/** The historical lease, if the WorkItem still records it (current or among the last closed). */
function historicalLease(workItem: WorkRecord, leaseId: string): Lease | undefined {
  const leases = leasesOf(workItem);
  if (leases.execution?.leaseId === leaseId) return leases.execution;
  return leases.closed?.find((lease) => lease.leaseId === leaseId);
}

function checkLease(workItem: WorkRecord, binding: OfflineBinding): Lease | Refusal {
  const details = { workItemId: workItem.workItemId, executionLeaseId: binding.executionLeaseId };
  const lease = historicalLease(workItem, binding.executionLeaseId);
  if (lease === undefined) return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.offlineLeaseUnknown, 'the WorkItem records no such Execution Lease', details);
  if (lease.holderAgentId !== binding.agentId || lease.ownershipEpoch !== binding.ownershipEpoch || lease.sessionEpoch !== binding.sessionEpoch) {
    return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.offlineLeaseMismatch, 'the Execution Lease was not held in that Session under that Ownership Epoch', details);
  }
  if (!isNoLaterThan(binding.executionLeaseExpiresAt, lease.expiresAt)) {
    return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.offlineLeaseExpiryMismatch, 'the binding claims a later lease expiry than the Authority granted', details);
  }
  // Buffered before the lease's expiry follows: buffer < grace deadline ≤ claimed expiry ≤ granted expiry.
  if (!isNoLaterThan(lease.startsAt, binding.disconnectedAt)) {
    return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.offlineOutsideWindow, 'the progress was buffered outside the historical lease and grace window', details);
  }
  if (lease.closedAt !== undefined && isBefore(lease.closedAt, binding.bufferedAt)) {
    return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.offlineAfterLeaseClosure, 'the progress was buffered after the Execution Lease closed', details);
  }
  return lease;
}

function checkTarget(workItem: WorkRecord, binding: OfflineBinding, target: OfflineTarget): Refusal | null {
  if (target.conversationId !== undefined && target.conversationId !== workItem.conversationId) {
    return refuse('AUTH_FORBIDDEN', WORK_REASONS.offlineOutsideConversation, 'offline progress is posted only in the bound WorkItem Conversation');
  }
  if (target.workItemId !== undefined && (target.workItemId !== binding.workItemId || target.ownershipEpoch !== binding.ownershipEpoch)) {
    return refuse('AUTH_FORBIDDEN', WORK_REASONS.offlineOutsideWorkItem, 'the checkpoint is not of the bound WorkItem and Ownership Epoch');
  }
  if (target.checkpointAt !== undefined && (!isNoLaterThan(binding.disconnectedAt, target.checkpointAt) || !isNoLaterThan(target.checkpointAt, binding.bufferedAt))) {
    return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.offlineCheckpointOutsideWindow, 'the checkpoint was not taken between disconnection and buffering');
  }
  return null;
}

/** The charge of a nonzero delta, or the refusal of an overflow (nothing is applied then). */
function charge(state: GroupState, binding: OfflineBinding, command: CommandEnvelope, ctx: DecisionContext): Charged | Refusal {
  return chargeUsage(state, {
    workItemId: binding.workItemId,
    ownershipEpoch: binding.ownershipEpoch,
    executionLeaseId: binding.executionLeaseId,
    usageDelta: binding.resourceUsageDelta,
    annotations: {
      offlineReconciliation: {
        disconnectedAt: binding.disconnectedAt,
        bufferedAt: binding.bufferedAt,
        graceDeadline: binding.graceDeadline,
        executionSessionEpoch: binding.sessionEpoch,
        reconciliationSessionEpoch: command.sessionEpoch ?? 0,
        reconciledAt: ctx.now,
        progressActionId: command.actionId,
        progressKind: command.kind,
      },
    },
  }, ctx);
}

/**
 * Whether `command` charges buffered usage (§11.5): the `ancestry` of the kinds that may be
 * buffered, so that the charge reaches every ancestor Group (`ledger.ts`) while their other
 * Commands lock none. A binding that later fails its checks charges nothing; locking its
 * ancestry was merely unneeded.
 */
export function chargesOfflineUsage(command: Pick<CommandEnvelope, 'extensions'>): boolean {
  const data = command.extensions?.[OFFLINE_EXECUTION_EXTENSION]?.data;
  const delta = typeof data === 'object' && data !== null && !Array.isArray(data) ? data['resourceUsageDelta'] : undefined;
  // The binding passed its schema with the Command; anything else charges nothing.
  return typeof delta === 'object' && delta !== null && !Array.isArray(delta) && !isZeroUsage(delta as unknown as OfflineBinding['resourceUsageDelta']);
}

/**
 * Decides `command` with its kind's `decide`, reconciling its offline binding first when it
 * carries one. A Command without the binding is decided exactly as before.
 */
export function decideWithOfflineBinding(decide: KindDecide, state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  const read = readBinding(command);
  if (!read.found) return decide(state, command, ctx);
  switch (read.problem) {
    case 'kind':
      return refuse('INVALID_COMMAND', WORK_REASONS.offlineBindingKind, `${command.kind} cannot be buffered offline`);
    case 'not-critical':
      return refuse('INVALID_COMMAND', WORK_REASONS.offlineBindingNotCritical, 'the offline execution binding must be critical');
    case 'version':
      return refuse('UNKNOWN_CRITICAL_EXTENSION', WORK_REASONS.offlineBindingVersion, 'this version of the offline execution binding is not interpreted');
    case undefined:
      break;
    default: {
      const _exhaustive: never = read;
      return _exhaustive;
    }
  }
  const { binding, target } = read;
  const envelope = checkEnvelope(binding, command, ctx);
  if (envelope !== null) return envelope;
  const workItem = state.workItems.get(binding.workItemId);
  if (workItem === undefined) return refuse('INVALID_COMMAND', WORK_REASONS.workItemUnknown, 'the WorkItem is not in this Group', { workItemId: binding.workItemId });
  const refused = checkOwnerUnchanged(workItem, binding) ?? checkTarget(workItem, binding, target);
  if (refused !== null) return refused;
  const lease = checkLease(workItem, binding);
  if ('ok' in lease) return lease;
  if (isZeroUsage(binding.resourceUsageDelta)) return decide(state, command, ctx);
  const charged = charge(state, binding, command, ctx);
  if ('ok' in charged) return charged;
  const decision = decide(charged.state, command, ctx);
  return decision.ok ? accept(...charged.drafts, ...decision.events) : decision;
}
