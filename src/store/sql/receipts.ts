/**
 * Receipts of accepted Commands: the permanent idempotency record (§15.1) and the Command's
 * First-Admission Record (§6.4), one row per (actor, Action ID).
 *
 * Each actor's receipts lie in one table, so that its primary key holds §15.1's rule (an Action
 * ID is unique per actor, across all of its Commands; migration 0024): the services' — the only
 * actors whose Organization-scoped Commands are accepted — in `organization_receipts`, which a
 * Citus cluster keeps on its coordinator beside the Organization's log and state, so that a
 * session activation needs no worker but its Agent's Session Epoch's; every other actor's in
 * `receipts`, sharded by actor. Check constraints refuse a receipt in the other table.
 */

import type { Queryable } from '../pool.js';
import { queryConfig, type Statement } from '../pipeline.js';

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

/** The tables that hold receipts: the services' (migration 0024) and every other actor's. */
export type ReceiptTable = 'receipts' | 'organization_receipts';

/** The actor type whose receipts lie in `organization_receipts` (the tables' check constraints name it too). */
export const SERVICE_ACTOR = 'service';

/** The table that holds every receipt of actors of `actorType`. */
export function receiptTableOf(actorType: string): ReceiptTable {
  return actorType === SERVICE_ACTOR ? 'organization_receipts' : 'receipts';
}

/** A receipt's columns, shaped as a `ReceiptRow`. */
export const RECEIPT_COLUMNS = `actor_type as "actorType", actor_id as "actorId", action_id as "actionId", signing_hash as "signingHash",
  kind, group_id as "groupId", command, event_ids as "eventIds", key_id as "keyId",
  admission_record_id as "admissionRecordId", trusted_accepted_at as "trustedAcceptedAt"`;

/**
 * The receipts of the keys passed as `$1`–`$3` (actor types, actor IDs, Action IDs), each looked
 * for in its actor's table, each row shaped as a `ReceiptRow`. One statement for plain
 * PostgreSQL; Citus sends it to every shard (use `receiptsOfActorsStatements` there).
 */
export const RECEIPTS_OF_KEYS = `
  select ${RECEIPT_COLUMNS} from receipts
  join unnest($1::text[], $2::text[], $3::text[]) as k(actor_type, actor_id, action_id) using (actor_type, actor_id, action_id)
  where actor_type <> '${SERVICE_ACTOR}'
  union all
  select ${RECEIPT_COLUMNS} from organization_receipts
  join unnest($1::text[], $2::text[], $3::text[]) as k(actor_type, actor_id, action_id) using (actor_type, actor_id, action_id)
  where actor_type = '${SERVICE_ACTOR}'`;

export function receiptKeyValues(keys: readonly ReceiptKey[]): string[][] {
  return [keys.map((k) => k.actorType), keys.map((k) => k.actorId), keys.map((k) => k.actionId)];
}

/**
 * The receipts of `keys`, one statement per actor, each in its actor's table: on Citus a router
 * (single-shard) read of `receipts`, or a read of the coordinator's `organization_receipts`.
 */
export function receiptsOfActorsStatements(keys: readonly ReceiptKey[]): Statement[] {
  const byActor = new Map<string, ReceiptKey[]>();
  for (const key of keys) {
    const at = `${receiptTableOf(key.actorType)}\u001f${key.actorId}`;
    byActor.set(at, [...(byActor.get(at) ?? []), key]);
  }
  return [...byActor.values()].map((own) => {
    const table = receiptTableOf((own[0] as ReceiptKey).actorType);
    return {
      name: `read-${table.replace('_', '-')}-of-actor`,
      text: `select ${RECEIPT_COLUMNS} from ${table}
             where actor_id = $1 and (actor_type, action_id) in (select * from unnest($2::text[], $3::text[]))`,
      values: [(own[0] as ReceiptKey).actorId, own.map((k) => k.actorType), own.map((k) => k.actionId)],
    };
  });
}

/** The receipts of `keys`, each from its actor's table, by `receiptKey`. */
export async function findReceipts(db: Queryable, keys: readonly ReceiptKey[]): Promise<Map<string, ReceiptRow>> {
  const found = new Map<string, ReceiptRow>();
  for (const statement of receiptsOfActorsStatements(keys)) {
    for (const row of (await db.query<ReceiptRow>(queryConfig(statement))).rows) found.set(receiptKey(row), row);
  }
  return found;
}

/**
 * Inserts receipts, each into its actor's table; returns how many were inserted (fewer means a
 * concurrent duplicate won), counted by the rows returned: on Citus this INSERT … SELECT is
 * pulled to the coordinator, whose `rowCount` is the rows selected, those that conflicted included.
 */
export async function insertReceipts(db: Queryable, rows: readonly ReceiptRow[]): Promise<number> {
  let inserted = 0;
  for (const table of ['organization_receipts', 'receipts'] as const) {
    inserted += await insertReceiptsInto(db, table, rows.filter((r) => receiptTableOf(r.actorType) === table));
  }
  return inserted;
}

/** Inserts `rows` into `table`, as `insertReceipts` does. */
async function insertReceiptsInto(db: Queryable, table: ReceiptTable, rows: readonly ReceiptRow[]): Promise<number> {
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
