/**
 * `ext.missionweaveprotocol.core.work_execution_lease_renew` (§11.3, §15.2): the owner renews its
 * current Execution Lease, cited by Lease ID, under the current Ownership Epoch. The Lease ID
 * stays the same (its renewal history is the lease's), the expiry moves to `leaseSeconds` after
 * the Authority's acceptance time (never the Worker's clock), and the ownership lease is extended
 * to cover it; an owner whose Agent Card changed incompatibly renews nothing (§6.1).
 * `work.progressed` is also the Event offline reconciliation (§11.5) appends: it is defined once,
 * here.
 */

import type { Lease } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { checkFenced, checkOwnerCard, checkWorker, checkWorkState, isRefusal, workItemNamed } from './fencing.js';
import { checkBudgetPause } from './budgetPause.js';
import { executionLeaseSeconds, ownershipCovering } from './workStart.js';
import { workItemEvent, type WorkProgressedPayload } from './workEvents.js';
import { leasesOf, renewLease, withLeases } from './workLeases.js';
import { WORK_EXECUTION_EXAMPLES } from './workExecutionExamples.js';
import { workItemDocument } from './workRecord.js';

type RenewKind = 'ext.missionweaveprotocol.core.work_execution_lease_renew';

export const workProgressed = workItemEvent<WorkProgressedPayload>()('work.progressed');

export function decideLeaseRenew(state: GroupState, command: CommandOf<RenewKind>, ctx: DecisionContext): Decision<EventDraft<'work.progressed', WorkProgressedPayload>> {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const claim = { ownershipEpoch: payload.ownershipEpoch, executionLeaseId: payload.executionLeaseId };
  const refused =
    checkWorker(state, command) ??
    checkFenced(workItem, command, claim, ctx) ??
    checkOwnerCard(workItem, ctx) ??
    checkWorkState(workItem, ['active'], 'renew its Execution Lease') ??
    checkBudgetPause(workItem);
  if (refused !== null) return refused;
  const seconds = executionLeaseSeconds(payload.leaseSeconds);
  if (isRefusal(seconds)) return seconds;

  const leases = leasesOf(workItem);
  // Both are live: checkFenced passed.
  const executionLease = renewLease(leases.execution as Lease, seconds, ctx);
  const ownership = ownershipCovering(leases.ownership as Lease, executionLease.expiresAt, seconds, ctx);
  const renewed = withLeases({ ...workItem, revision: workItem.revision + 1, updatedAt: ctx.now }, { ...leases, ownership, execution: executionLease });
  return accept({
    kind: 'work.progressed',
    payload: {
      workItemId: workItem.workItemId,
      workItem: workItemDocument(renewed),
      ownershipEpoch: payload.ownershipEpoch,
      executionLease,
      executionLeaseExpiresAt: executionLease.expiresAt,
    },
    aggregate: { type: 'work-item', id: workItem.workItemId, revision: renewed.revision },
    workItemId: workItem.workItemId,
  });
}

export const workExecutionLeaseRenew = defineKind({
  kind: 'ext.missionweaveprotocol.core.work_execution_lease_renew',
  examples: WORK_EXECUTION_EXAMPLES['ext.missionweaveprotocol.core.work_execution_lease_renew'],
  scope: 'group',
  authority: ['member'],
  events: [workProgressed],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideLeaseRenew,
});
