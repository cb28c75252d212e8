/**
 * Receipts of accepted Commands: the permanent idempotency record (§15.1) and the Command's
 * First-Admission Record (§6.4), one row per (actor, Action ID).
 */

import type { Queryable } from '../pool.js';

export interface ReceiptKey {
  readonly actorType: string;
  readonly actorId: string;
  readonly actionId: string;
}

export interface ReceiptRow extends ReceiptKey {
  readonly signingHash: string;
  readonly kind: string;
  readonly groupId: string | null;
  /** The signed Command's canonical text. */
  readonly command: string;
  readonly eventIds: readonly string[];
  readonly keyId: string;
  readonly admissionRecordId: string;
  readonly trustedAcceptedAt: string;
}

export function receiptKey(key: ReceiptKey): string {
  return `${key.actorType}\u001f${key.actorId}\u001f${key.actionId}`;
}

/** The tables that hold receipts: Group Commands', and the Organization's own (migration 0023). */
export type ReceiptTable = 'receipts' | 'organization_receipts';

/**
 * The receipts in `table` of the keys passed as `$1`–`$3` (actor types, actor IDs, Action IDs),
 * each row shaped as a `ReceiptRow`.
 */
export function receiptsOfKeys(table: ReceiptTable): string {
  return `
  select r.actor_type as "actorType", r.actor_id as "actorId", r.action_id as "actionId",
         r.signing_hash as "signingHash", r.kind, r.group_id as "groupId", r.command,
         r.event_ids as "eventIds", r.key_id as "keyId",
         r.admission_record_id as "admissionRecordId", r.trusted_accepted_at as "trustedAcceptedAt"
  from ${table} r
  join unnest($1::text[], $2::text[], $3::text[]) as k(actor_type, actor_id, action_id)
    using (actor_type, actor_id, action_id)`;
}

/** The receipts of Group Commands of the keys passed as `$1`–`$3`. */
export const RECEIPTS_OF_KEYS = receiptsOfKeys('receipts');

export function receiptKeyValues(keys: readonly ReceiptKey[]): string[][] {
  return [keys.map((k) => k.actorType), keys.map((k) => k.actorId), keys.map((k) => k.actionId)];
}

export async function findReceipts(db: Queryable, keys: readonly ReceiptKey[]): Promise<Map<string, ReceiptRow>> {
  if (keys.length === 0) return new Map();
  const result = await db.query<ReceiptRow>({ name: 'find-receipts', text: RECEIPTS_OF_KEYS, values: receiptKeyValues(keys) });
  return new Map(result.rows.map((row) => [receiptKey(row), row]));
}

/**
 * Inserts receipts; returns how many were inserted (fewer means a concurrent duplicate won),
 * counted by the rows returned: on Citus this INSERT … SELECT is pulled to the coordinator, whose
 * `rowCount` is the rows selected, those that conflicted included.
 */
export function insertReceipts(db: Queryable, rows: readonly ReceiptRow[]): Promise<number> {
  return insertReceiptsInto(db, 'receipts', rows);
}

/** Inserts `rows` into `table`, as `insertReceipts` does. */
export async function insertReceiptsInto(db: Queryable, table: ReceiptTable, rows: readonly ReceiptRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db.query({
    name: `insert-${table.replace('_', '-')}`,
    text: `insert into ${table} (actor_type, actor_id, action_id, signing_hash, kind, group_id, command,
             event_ids, key_id, admission_record_id, trusted_accepted_at)
           select a, b, c, d, e, f, g, string_to_array(h, ' '), i, j, k
           from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                       $8::text[], $9::text[], $10::text[], $11::text[]) as v(a, b, c, d, e, f, g, h, i, j, k)
           on conflict do nothing returning 1 as inserted`,
    values: [
      rows.map((r) => r.actorType),
      rows.map((r) => r.actorId),
      rows.map((r) => r.actionId),
      rows.map((r) => r.signingHash),
      rows.map((r) => r.kind),
      rows.map((r) => r.groupId),
      rows.map((r) => r.command),
      rows.map((r) => r.eventIds.join(' ')),
      rows.map((r) => r.keyId),
      rows.map((r) => r.admissionRecordId),
      rows.map((r) => r.trustedAcceptedAt),
    ],
  });
  return result.rows.length;
}
