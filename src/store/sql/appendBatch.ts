/**
 * The write half of a Group transaction as one statement: Events, changed aggregates, receipts
 * and the Groups' counters, plus the one NOTIFY of the batch. Rows travel as JSON documents
 * (serialized natively, unpacked by `json_to_recordset`) instead of escaped text arrays.
 */

import type { JsonValue } from '../../protocol/strictJson.js';
import type { Queryable } from '../pool.js';
import type { EventRow } from './events.js';
import type { ReceiptRow } from './receipts.js';

export interface AggregateWrite {
  readonly groupId: string;
  readonly type: string;
  readonly id: string;
  readonly revision: number;
  readonly document: JsonValue;
  readonly sequence: number;
}

export interface BatchWrite {
  readonly events: readonly EventRow[];
  readonly aggregates: readonly AggregateWrite[];
  readonly receipts: readonly ReceiptRow[];
  /** Each advanced Group's new last sequence. */
  readonly sequences: ReadonlyMap<string, number>;
  readonly notify: { readonly channel: string; readonly payload: string } | undefined;
}

const SQL = `
with new_events as (
  insert into events (group_id, sequence, event_id, kind, aggregate_type, aggregate_id, aggregate_revision,
                      document, signing_hash, admission_record_id, trusted_accepted_at)
  select "groupId", "sequence", "eventId", "kind", "aggregateType", "aggregateId", "aggregateRevision",
         "document", "signingHash", "admissionRecordId", "trustedAcceptedAt"
  from json_to_recordset($1::json) as x("groupId" text, "sequence" bigint, "eventId" text, "kind" text,
       "aggregateType" text, "aggregateId" text, "aggregateRevision" bigint, "document" text,
       "signingHash" text, "admissionRecordId" text, "trustedAcceptedAt" text)
  returning 1
), new_aggregates as (
  insert into aggregates (group_id, aggregate_type, aggregate_id, revision, document, updated_sequence)
  select "groupId", "type", "id", "revision", "document", "sequence"
  from json_to_recordset($2::json) as x("groupId" text, "type" text, "id" text, "revision" bigint, "document" jsonb, "sequence" bigint)
  on conflict (group_id, aggregate_type, aggregate_id)
  do update set revision = excluded.revision, document = excluded.document, updated_sequence = excluded.updated_sequence
  returning 1
), new_receipts as (
  insert into receipts (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids,
                        key_id, admission_record_id, trusted_accepted_at)
  select "actorType", "actorId", "actionId", "signingHash", "kind", "groupId", "command",
         array(select json_array_elements_text("eventIds")), "keyId", "admissionRecordId", "trustedAcceptedAt"
  from json_to_recordset($3::json) as x("actorType" text, "actorId" text, "actionId" text, "signingHash" text,
       "kind" text, "groupId" text, "command" text, "eventIds" json, "keyId" text, "admissionRecordId" text,
       "trustedAcceptedAt" text)
  on conflict do nothing
  returning 1
), advanced as (
  update groups g set last_sequence = x.last_sequence
  from json_to_recordset($4::json) as x(group_id text, last_sequence bigint)
  where g.group_id = x.group_id
  returning 1
)
select (select count(*) from new_receipts)::int as receipts,
       (select count(*) from new_events)::int as events,
       (select count(*) from new_aggregates)::int as aggregates,
       (select count(*) from advanced)::int as groups,
       case when $5::text is null then null else pg_notify($5, $6) end as notified`;

/** Appends a batch; returns how many receipts were inserted (fewer: a concurrent duplicate won). */
export async function appendBatch(db: Queryable, batch: BatchWrite): Promise<number> {
  const result = await db.query<{ receipts: number }>({
    name: 'append-batch',
    text: SQL,
    values: [
      JSON.stringify(batch.events),
      JSON.stringify(batch.aggregates),
      JSON.stringify(batch.receipts),
      JSON.stringify([...batch.sequences].map(([group_id, last_sequence]) => ({ group_id, last_sequence }))),
      batch.notify?.channel ?? null,
      batch.notify?.payload ?? null,
    ],
  });
  return result.rows[0]?.receipts ?? 0;
}
