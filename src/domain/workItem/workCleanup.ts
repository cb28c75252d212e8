/**
 * Cleanup after cancellation (§12: cancellation MUST revoke relevant leases and capability
 * tokens, stop new assignments, and initiate contract-defined cleanup or compensation WorkItems
 * where needed; §10.2 `work.cancel` "Cleanup policy applies").
 *
 * Revocation is `endWorkItem`'s: every lease is closed `revoked`, and capability tokens are bound
 * to the Execution Lease, so none outlives it. Compensation: the 0.1 Work Contract has no member
 * that defines compensating work (its `constraints` are free-form), so the Authority cannot
 * create a compensation WorkItem from the contract without inventing its contract. It decides
 * instead *whether* cleanup is due and marks the cancelled WorkItem for the Coordinator, who
 * authorizes the compensating WorkItem(s) with ordinary `work.authorize` Commands:
 *
 * - external side effects were recorded against it (ledger `externalActions` > 0), or
 * - its execution had started (an Execution Lease was ever granted) and its contract declares a
 *   side-effect risk other than `none` — what it did may need undoing.
 *
 * The mark is a non-critical WorkItem extension (like the lease and usage records) and the
 * `cleanup` member of `work.cancelled`; a WorkItem that never ran and did nothing carries neither.
 */

import type { Extension } from '../documents.js';
import type { CleanupDue, CleanupReason } from './workEvents.js';
import { leasesOf } from './workLeases.js';
import { usageOf } from './usageAccount.js';
import type { WorkRecord } from './workRecord.js';

export const CLEANUP_EXTENSION = 'urn:missionweave:extension:cleanup';
const CLEANUP_VERSION = '0.1.0';

const RAN_STATES: ReadonlySet<string> = new Set(['active', 'blocked', 'submitted']);

function executionStarted(workItem: WorkRecord): boolean {
  const leases = leasesOf(workItem);
  return RAN_STATES.has(workItem.state) || leases.execution !== undefined || (leases.closed ?? []).some((l) => l.leaseType === 'execution');
}

/** The cleanup a cancellation of `workItem` (as it is before cancelling) leaves due, if any. */
export function cleanupDue(workItem: WorkRecord): CleanupDue | undefined {
  const { externalActions } = usageOf(workItem);
  const { sideEffectRisk } = workItem.contract;
  const reasons: CleanupReason[] = [];
  if (externalActions > 0) reasons.push('external-side-effects-recorded');
  if (sideEffectRisk !== 'none' && executionStarted(workItem)) reasons.push('execution-started');
  return reasons.length === 0 ? undefined : { reasons, sideEffectRisk, externalActions };
}

export function withCleanupDue(workItem: WorkRecord, due: CleanupDue): WorkRecord {
  const extension = { version: CLEANUP_VERSION, critical: false, data: { ...due, status: 'pending' } } as unknown as Extension;
  return { ...workItem, extensions: { ...workItem.extensions, [CLEANUP_EXTENSION]: extension } };
}
