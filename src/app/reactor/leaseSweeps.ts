/**
 * The lease sweeps of the Authority reactor (§11.3): expired leases, judged by the Authority's
 * clock, Execution Leases whose holder has opened a replacement Session, and owners whose Agent
 * Card changed incompatibly since they accepted (§6.1). Each finds its rows
 * in the store and returns one `ext.missionweave.core.work_lease_close` per lease fact, with an
 * Action ID derived from the fact alone, so that every node issuing the same closure names the
 * same action and the Group gets one Event (the others: the idempotent receipt,
 * `ACTION_ID_COLLISION`, or a refusal because the lease is already closed).
 */

import { CARD_REGISTERED, SESSION_OPENED } from '../../domain/organization/organization.js';
import type { Lease } from '../../domain/documents.js';
import { WORK_LEASE_CLOSE, type LeaseCloseCause } from '../../domain/workItem/workLeaseClose.js';
import type { WorkLeases } from '../../domain/workItem/workLeases.js';
import { compareInstants, formatTimestamp, parseTimestamp } from '../../protocol/timestamp.js';
import type { Pool } from '../../store/pool.js';
import { readIncompatibleOwnerRows } from '../../store/sql/incompatibleOwners.js';
import { readExpiredLeaseRows, readReplacedSessionRows, type LeasedWorkItemRow } from '../../store/sql/workLeases.js';
import { factActionId, type AuthorityCommandDraft, type Sweep } from './sweep.js';

/** The Action ID of closing `lease` for `cause`: the same on every node, different for every fact. */
export function leaseCloseActionId(groupId: string, lease: Lease, cause: LeaseCloseCause): string {
  return factActionId('lease-close', groupId, lease.workItemId ?? '', lease.leaseId, String(lease.ownershipEpoch ?? 0), cause);
}

function closeDraft(row: LeasedWorkItemRow, lease: Lease, cause: LeaseCloseCause): AuthorityCommandDraft {
  const actionId = leaseCloseActionId(row.groupId, lease, cause);
  return {
    kind: WORK_LEASE_CLOSE,
    groupId: row.groupId,
    actionId,
    correlationId: actionId,
    workItemId: row.workItemId,
    payload: { workItemId: row.workItemId, ownershipEpoch: lease.ownershipEpoch ?? 0, leaseId: lease.leaseId, holderAgentId: lease.holderAgentId, cause },
  };
}

function isDue(lease: Lease | undefined, nowMillis: number): lease is Lease {
  const expiry = lease?.state === 'active' ? parseTimestamp(lease.expiresAt) : null;
  const now = parseTimestamp(formatTimestamp(nowMillis));
  return expiry !== null && now !== null && compareInstants(expiry, now) <= 0;
}

/** Current leases whose expiry has passed: the Execution Lease first, then ownership. */
export const expiredLeaseSweep: Sweep = {
  name: 'expired-leases',
  async find(pool: Pool, nowMillis: number, limit: number) {
    const rows = await readExpiredLeaseRows(pool, formatTimestamp(nowMillis), limit);
    const drafts = rows.flatMap((row) => {
      const { execution, ownership } = row.leases as unknown as WorkLeases;
      return [execution, ownership].filter((lease) => isDue(lease, nowMillis)).map((lease) => closeDraft(row, lease as Lease, 'expired'));
    });
    return drafts.slice(0, limit);
  },
};

/** Execution Leases of a Session its holder has replaced (§11.3: revoked, WorkItem back to `queued`). */
export const replacedSessionSweep: Sweep = {
  name: 'replaced-sessions',
  hintedBy: [SESSION_OPENED],
  async find(pool: Pool, _nowMillis: number, limit: number) {
    const rows = await readReplacedSessionRows(pool, limit);
    return rows.flatMap((row) => {
      const { execution } = row.leases as unknown as WorkLeases;
      return execution === undefined ? [] : [closeDraft(row, execution, 'session_replaced')];
    });
  },
};

/**
 * Owners whose current Agent Card no longer meets the contract they accepted (§6.1: an
 * incompatible upgrade needs renewed acceptance): fenced through their ownership lease, so that
 * the Coordinator may re-offer the work.
 */
export const incompatibleCardSweep: Sweep = {
  name: 'incompatible-cards',
  hintedBy: [CARD_REGISTERED],
  async find(pool: Pool, _nowMillis: number, limit: number) {
    const rows = await readIncompatibleOwnerRows(pool, limit);
    return rows.flatMap((row) => {
      const { ownership } = row.leases as unknown as WorkLeases;
      return ownership === undefined ? [] : [closeDraft(row, ownership, 'card_incompatible')];
    });
  },
};

/** The sweeps every node runs. */
export const LEASE_SWEEPS: readonly Sweep[] = [replacedSessionSweep, expiredLeaseSweep, incompatibleCardSweep];
