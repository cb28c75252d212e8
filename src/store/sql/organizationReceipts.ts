/**
 * Receipts of accepted Organization-scoped Commands (Agent Card registration, session
 * activation): the same record as `receipts.ts` keeps for Group Commands (§15.1, §6.4), in a table
 * of their own (migration 0023) that a Citus cluster keeps on its coordinator, beside the
 * Organization's log and state, so that a session activation needs no worker but the one of its
 * Agent's Session Epoch (docs/citus.md, "A worker fails").
 */

import type { Queryable } from '../pool.js';
import { receiptKey, receiptKeyValues, type ReceiptKey, type ReceiptRow } from './receipts.js';

export async function findOrganizationReceipts(db: Queryable, keys: readonly ReceiptKey[]): Promise<Map<string, ReceiptRow>> {
  if (keys.length === 0) return new Map();
  const result = await db.query<ReceiptRow>({
    name: 'find-organization-receipts',
    text: `select r.actor_type as "actorType", r.actor_id as "actorId", r.action_id as "actionId",
                  r.signing_hash as "signingHash", r.kind, r.group_id as "groupId", r.command,
                  r.event_ids as "eventIds", r.key_id as "keyId",
                  r.admission_record_id as "admissionRecordId", r.trusted_accepted_at as "trustedAcceptedAt"
           from organization_receipts r
           join unnest($1::text[], $2::text[], $3::text[]) as k(actor_type, actor_id, action_id)
             using (actor_type, actor_id, action_id)`,
    values: receiptKeyValues(keys),
  });
  return new Map(result.rows.map((row) => [receiptKey(row), row]));
}

/** Inserts receipts of Organization-scoped Commands; returns how many were inserted (fewer means a concurrent duplicate won). */
export async function insertOrganizationReceipts(db: Queryable, rows: readonly ReceiptRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db.query({
    name: 'insert-organization-receipts',
    text: `insert into organization_receipts (actor_type, actor_id, action_id, signing_hash, kind, group_id, command,
             event_ids, key_id, admission_record_id, trusted_accepted_at)
           select a, b, c, d, e, null, g, string_to_array(h, ' '), i, j, k
           from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                       $7::text[], $8::text[], $9::text[], $10::text[]) as v(a, b, c, d, e, g, h, i, j, k)
           on conflict do nothing`,
    values: [
      rows.map((r) => r.actorType),
      rows.map((r) => r.actorId),
      rows.map((r) => r.actionId),
      rows.map((r) => r.signingHash),
      rows.map((r) => r.kind),
      rows.map((r) => r.command),
      rows.map((r) => r.eventIds.join(' ')),
      rows.map((r) => r.keyId),
      rows.map((r) => r.admissionRecordId),
      rows.map((r) => r.trustedAcceptedAt),
    ],
  });
  return result.rowCount ?? 0;
}
