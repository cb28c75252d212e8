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
 * The mark is the typed `cleanup` field of the work slice's WorkItem record (`workRecord.ts`),
 * a non-critical WorkItem extension on the wire (like the lease and usage records), and the
 * `cleanup` member of `work.cancelled`; a WorkItem that never ran and did nothing carries neither.
 */

import type { WorkItem } from '../documents.js';
import { leasesOf, type WithLeases } from './workLeases.js';
import { usageOf, type WithAccount } from './usageAccount.js';

export const CLEANUP_EXTENSION = 'urn:missionweave:extension:cleanup';
export const CLEANUP_VERSION = '0.1.0';

export type CleanupReason = 'external-side-effects-recorded' | 'execution-started';

/** What a cancellation leaves the Coordinator to clean up after, and why. */
export interface CleanupDue {
  readonly reasons: readonly CleanupReason[];
  readonly sideEffectRisk: WorkItem['contract']['sideEffectRisk'];
  readonly externalActions: number;
}

/** The mark a cancelled WorkItem carries while its cleanup is due. */
export interface CleanupMark extends CleanupDue {
  readonly status: 'pending';
}

/** The part of a WorkItem record (`workRecord.ts`) that holds its cleanup mark. */
export interface WithCleanup {
  readonly cleanup: CleanupMark | undefined;
}

/** What `cleanupDue` reads: the WorkItem with its leases and account. */
type Judged = WorkItem & WithLeases & WithAccount;

const RAN_STATES: ReadonlySet<string> = new Set(['active', 'blocked', 'submitted']);

function executionStarted(workItem: Judged): boolean {
  const leases = leasesOf(workItem);
  return RAN_STATES.has(workItem.state) || leases.execution !== undefined || (leases.closed ?? []).some((l) => l.leaseType === 'execution');
}

/** The cleanup a cancellation of `workItem` (as it is before cancelling) leaves due, if any. */
export function cleanupDue(workItem: Judged): CleanupDue | undefined {
  const { externalActions } = usageOf(workItem);
  const { sideEffectRisk } = workItem.contract;
  const reasons: CleanupReason[] = [];
  if (externalActions > 0) reasons.push('external-side-effects-recorded');
  if (sideEffectRisk !== 'none' && executionStarted(workItem)) reasons.push('execution-started');
  return reasons.length === 0 ? undefined : { reasons, sideEffectRisk, externalActions };
}

export function withCleanupDue<R extends WithCleanup>(record: R, due: CleanupDue): R {
  return { ...record, cleanup: { ...due, status: 'pending' } };
}
