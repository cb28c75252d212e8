/** `work.start` (§10.2, §11.3): a queued WorkItem starts under a fresh Execution Lease. */

import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { workItemEvent, type WorkStartedPayload } from './workEvents.js';
import type { Lease } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { isNoLaterThan } from '../rules.js';
import { checkDependenciesMet } from './dependencies.js';
import { checkExecutionApproval } from './executionApprovals.js';
import { checkOwner, checkOwnerCard, checkWorker, checkWorkState, isRefusal, workItemNamed } from './fencing.js';
import { checkBudgetPause } from './budgetPause.js';
import { DEFAULT_EXECUTION_LEASE_SECONDS, MAX_EXECUTION_LEASE_SECONDS } from './workLimits.js';
import { leasesOf, newWorkLease, renewLease, withLeases } from './workLeases.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXECUTION_EXAMPLES } from './workExecutionExamples.js';
import { workItemDocument, type WorkRecord } from './workRecord.js';

/**
 * `work.start` (§10.2, §11.3): the current owner, under the current Ownership Epoch and a live
 * ownership lease, starts a `queued` WorkItem whose dependencies are met under a fresh Execution
 * Lease: a new, stable Lease ID bound to the Agent, the Command's Session Epoch, the WorkItem and
 * the Ownership Epoch. The ownership lease is extended to at least the Execution Lease's expiry,
 * so that an owner never executes without owning. A contract that requires an Execution Approval
 * starts only under a live one of the current Ownership Epoch (`executionApprovals.ts`), and an
 * owner whose Agent Card changed incompatibly starts nothing before renewed acceptance (§6.1).
 */

/** An Execution Lease length within `MAX_EXECUTION_LEASE_SECONDS`, or the refusal. */
export function executionLeaseSeconds(requested: number | undefined): number | Refusal {
  const seconds = requested ?? DEFAULT_EXECUTION_LEASE_SECONDS;
  if (seconds <= MAX_EXECUTION_LEASE_SECONDS) return seconds;
  return refuse('INVALID_COMMAND', WORK_REASONS.executionLeaseTooLong, `an Execution Lease lasts at most ${MAX_EXECUTION_LEASE_SECONDS} seconds; renew it instead`, {
    limit: MAX_EXECUTION_LEASE_SECONDS,
  });
}

/** The ownership lease, extended (same Lease ID) when it would lapse before `until`. */
export function ownershipCovering(ownership: Lease, until: string, seconds: number, ctx: DecisionContext): Lease {
  return isNoLaterThan(until, ownership.expiresAt) ? ownership : renewLease(ownership, seconds, ctx);
}

export function decideWorkStart(
  state: GroupState,
  command: CommandOf<'work.start'>,
  ctx: DecisionContext,
): Decision<EventDraft<'work.started', WorkStartedPayload>> {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const refused =
    checkWorker(state, command) ??
    checkOwner(workItem, command, { ownershipEpoch: payload.ownershipEpoch }, ctx) ??
    checkOwnerCard(workItem, ctx) ??
    checkWorkState(workItem, ['queued'], 'start') ??
    checkDependenciesMet(state, workItem) ??
    checkExecutionApproval(workItem, ctx) ??
    checkBudgetPause(workItem);
  if (refused !== null) return refused;
  const seconds = executionLeaseSeconds(payload.executionLeaseSeconds);
  if (isRefusal(seconds)) return seconds;
  if (command.sessionEpoch === undefined) return refuse('INVALID_COMMAND', WORK_REASONS.sessionEpochRequired, 'an Execution Lease binds a Session Epoch');

  const leases = leasesOf(workItem);
  const ownership = leases.ownership as Lease; // live: checkOwner passed
  const executionLease = newWorkLease(
    {
      leaseId: ctx.newId(),
      leaseType: 'execution',
      workItem,
      holderAgentId: command.actor.id,
      sessionEpoch: command.sessionEpoch,
      ownershipEpoch: payload.ownershipEpoch,
      seconds,
    },
    ctx,
  );
  const active = withLeases<WorkRecord>(
    { ...workItem, revision: workItem.revision + 1, state: 'active', updatedAt: ctx.now },
    { ...leases, ownership: ownershipCovering(ownership, executionLease.expiresAt, seconds, ctx), execution: executionLease },
  );
  return accept({
    kind: 'work.started',
    payload: {
      workItemId: workItem.workItemId,
      workItem: workItemDocument(active),
      ownershipEpoch: payload.ownershipEpoch,
      executionLease,
      executionLeaseExpiresAt: executionLease.expiresAt,
    },
    aggregate: { type: 'work-item', id: workItem.workItemId, revision: active.revision },
    workItemId: workItem.workItemId,
  });
}

export const workStarted = workItemEvent<WorkStartedPayload>()('work.started');

export const workStart = defineKind({
  kind: 'work.start',
  examples: WORK_EXECUTION_EXAMPLES['work.start'],
  scope: 'group',
  authority: ['member'],
  missionStates: ['active'],
  events: [workStarted],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideWorkStart,
});
