/**
 * Receipts of accepted Organization-scoped Commands (Agent Card registration, session
 * activation): the same record as `receipts.ts` keeps for Group Commands (§15.1, §6.4), in a table
 * of their own (migration 0023) that a Citus cluster keeps on its coordinator, beside the
 * Organization's log and state, so that a session activation needs no worker but the one of its
 * Agent's Session Epoch (docs/citus.md, "A worker fails").
 */

import type { Queryable } from '../pool.js';
import { insertReceiptsInto, receiptKey, receiptKeyValues, receiptsOfKeys, type ReceiptKey, type ReceiptRow } from './receipts.js';

export async function findOrganizationReceipts(db: Queryable, keys: readonly ReceiptKey[]): Promise<Map<string, ReceiptRow>> {
  if (keys.length === 0) return new Map();
  const result = await db.query<ReceiptRow>({ name: 'find-organization-receipts', text: receiptsOfKeys('organization_receipts'), values: receiptKeyValues(keys) });
  return new Map(result.rows.map((row) => [receiptKey(row), row]));
}

/** Inserts receipts of Organization-scoped Commands (their `groupId` is null); returns how many were inserted (fewer means a concurrent duplicate won). */
export function insertOrganizationReceipts(db: Queryable, rows: readonly ReceiptRow[]): Promise<number> {
  return insertReceiptsInto(db, 'organization_receipts', rows);
}
