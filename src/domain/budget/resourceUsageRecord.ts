/**
 * `ext.missionweaveprotocol.core.resource_usage_record` (§12, §15.2): a nonzero usage delta
 * charged to one WorkItem under its current Ownership Epoch and Execution Lease, with the whole
 * WorkItem/Mission ancestry (`ledger.ts`), or refused as BUDGET_EXCEEDED with nothing changed.
 *
 * Two senders. The owning Worker records its own usage under its live Execution Lease, in that
 * lease's Session (§11.3 fencing, as every execution Command). The Group Authority service records
 * what a tool host charged through the Authorization Service: it holds no Membership and no
 * Session, so it cites the current epoch and live lease but not a Session; when it names the
 * capability token, the charge must also fit that token (`capabilityCharge.ts`).
 *
 * A paused WorkItem (`budgetPause.ts`) is not refused here: its Worker may still report usage it
 * already incurred, and that usage either fits what is left or is BUDGET_EXCEEDED.
 */

import type { GroupState } from '../kinds/groupState.js';
import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type Refusal } from '../model.js';
import { samePrincipal } from '../../protocol/principal.js';
import { checkCapabilityCharge } from '../authorization/capabilityCharge.js';
import { checkFenced, checkWorker, checkWorkState, isRefusal, workItemNamed } from '../workItem/fencing.js';
import { leasesOf, isLive } from '../workItem/workLeases.js';
import { resourceUsageRecorded } from '../workItem/resourceUsage.js';
import { NO_USAGE, addUsage, type ResourceUsage } from '../budgetMath.js';
import { childUsageRecorded } from '../workItem/childUsageRecorded.js';
import { chargeUsage, type ChargeDraft } from '../workItem/ledger.js';
import { BUDGET_REASONS } from './budgetReasons.js';
import { BUDGET_EXAMPLES } from './budgetExamples.js';
import type { WorkRecord } from '../workItem/workRecord.js';

type RecordCommand = CommandOf<'ext.missionweaveprotocol.core.resource_usage_record'>;

/** The Authority cites the current epoch and the live Execution Lease; it has no Session to match. */
function checkAuthorityClaim(workItem: WorkRecord, payload: RecordCommand['payload'], ctx: DecisionContext): Refusal | null {
  const details = { workItemId: workItem.workItemId };
  if (workItem.owner?.ownershipEpoch !== payload.ownershipEpoch) {
    return refuse('WORK_STALE_OWNERSHIP', BUDGET_REASONS.ownershipEpochStale, 'the Ownership Epoch is not the current one', details);
  }
  const { execution } = leasesOf(workItem);
  if (execution?.leaseId !== payload.executionLeaseId) {
    return refuse('WORK_LEASE_EXPIRED', BUDGET_REASONS.executionLeaseNotCurrent, 'the Execution Lease is not the current one', { ...details, executionLeaseId: payload.executionLeaseId });
  }
  if (!isLive(execution, ctx)) {
    return refuse('WORK_LEASE_EXPIRED', BUDGET_REASONS.executionLeaseExpired, 'the Execution Lease has expired', { ...details, executionLeaseId: payload.executionLeaseId });
  }
  return null;
}

/** The payload's delta with its defaulted dimensions filled in. */
function deltaOf(payload: RecordCommand['payload']): ResourceUsage {
  return addUsage(NO_USAGE, { ...NO_USAGE, ...payload.usageDelta });
}

export function decideResourceUsageRecord(
  state: GroupState,
  command: RecordCommand,
  ctx: DecisionContext,
): Decision<ChargeDraft> {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const byAuthority = samePrincipal(command.actor, ctx.services.authority);
  const claim = { ownershipEpoch: payload.ownershipEpoch, executionLeaseId: payload.executionLeaseId };
  const refused =
    checkWorkState(workItem, ['active'], 'be charged usage') ??
    (byAuthority ? checkAuthorityClaim(workItem, payload, ctx) : (checkWorker(state, command) ?? checkFenced(workItem, command, claim, ctx)));
  if (refused !== null) return refused;
  // Only the Authorization Service charges a token; an Agent's own record names none (schema).
  if (payload.capabilityTokenId !== undefined && !byAuthority) {
    return refuse('AUTH_FORBIDDEN', BUDGET_REASONS.capabilityChargeNotAuthority, 'only the Group Authority charges a capability token', { workItemId: workItem.workItemId });
  }
  const delta = deltaOf(payload);
  if (payload.capabilityTokenId !== undefined) {
    const token = checkCapabilityCharge(state, workItem, payload.capabilityTokenId, delta, ctx);
    if (token !== null) return token;
  }
  const charged = chargeUsage(state, {
    workItemId: workItem.workItemId,
    ownershipEpoch: payload.ownershipEpoch,
    executionLeaseId: payload.executionLeaseId,
    usageDelta: delta,
    ...(payload.capabilityTokenId === undefined ? {} : { annotations: { capabilityTokenId: payload.capabilityTokenId } }),
  }, ctx);
  if ('ok' in charged) return charged;
  return accept(...charged.drafts);
}

export const resourceUsageRecord = defineKind({
  kind: 'ext.missionweaveprotocol.core.resource_usage_record',
  examples: BUDGET_EXAMPLES['ext.missionweaveprotocol.core.resource_usage_record'],
  scope: 'group',
  authority: ['member', 'organization-authority'],
  events: [resourceUsageRecorded, childUsageRecorded],
  ancestry: true,
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideResourceUsageRecord,
});
