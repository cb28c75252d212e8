/**
 * The Group Event log: append in batches, read by sequence.
 */

import type { Queryable } from '../pool.js';

export interface EventRow {
  readonly groupId: string;
  readonly sequence: number;
  readonly eventId: string;
  readonly kind: string;
  readonly aggregateType: string;
  readonly aggregateId: string;
  readonly aggregateRevision: number;
  /** The signed Event's JCS text, exactly as delivered. */
  readonly document: string;
  readonly signingHash: string;
  readonly admissionRecordId: string;
  readonly trustedAcceptedAt: string;
}

export async function insertEvents(db: Queryable, rows: readonly EventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query({
    name: 'insert-events',
    text: `insert into events (group_id, sequence, event_id, kind, aggregate_type, aggregate_id,
             aggregate_revision, document, signing_hash, admission_record_id, trusted_accepted_at)
           select * from unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[],
             $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[])`,
    values: [
      rows.map((r) => r.groupId),
      rows.map((r) => r.sequence),
      rows.map((r) => r.eventId),
      rows.map((r) => r.kind),
      rows.map((r) => r.aggregateType),
      rows.map((r) => r.aggregateId),
      rows.map((r) => r.aggregateRevision),
      rows.map((r) => r.document),
      rows.map((r) => r.signingHash),
      rows.map((r) => r.admissionRecordId),
      rows.map((r) => r.trustedAcceptedAt),
    ],
  });
}

export interface StoredEventText {
  readonly sequence: number;
  readonly eventId: string;
  readonly kind: string;
  readonly document: string;
}

/** Events of a Group after a sequence, in order, at most `limit`. */
export async function readEventsAfter(db: Queryable, groupId: string, afterSequence: number, limit: number): Promise<StoredEventText[]> {
  const result = await db.query<StoredEventText>({
    name: 'read-events-after',
    text: 'select sequence, event_id as "eventId", kind, document from events where group_id = $1 and sequence > $2 order by sequence limit $3',
    values: [groupId, afterSequence, limit],
  });
  return result.rows;
}

/** Events by ID (to answer a duplicate Command with its original Events). */
export async function readEventsById(db: Queryable, eventIds: readonly string[]): Promise<Map<string, string>> {
  const result = await db.query<{ event_id: string; document: string }>({
    name: 'read-events-by-id',
    text: `select event_id, document from events where event_id = any($1::text[])
           union all
           select event_id, document from organization_events where event_id = any($1::text[])`,
    values: [eventIds],
  });
  return new Map(result.rows.map((r) => [r.event_id, r.document]));
}

export interface EventAuditRow {
  readonly sequence: number;
  readonly eventId: string;
  readonly document: string;
  readonly signingHash: string;
  readonly admissionRecordId: string;
  readonly trustedAcceptedAt: string;
}

/** Events with their admission metadata, for verification. */
export async function readEventAuditRows(db: Queryable, groupId: string, afterSequence: number, limit: number): Promise<EventAuditRow[]> {
  const result = await db.query<EventAuditRow>(
    `select sequence, event_id as "eventId", document, signing_hash as "signingHash",
            admission_record_id as "admissionRecordId", trusted_accepted_at as "trustedAcceptedAt"
     from events where group_id = $1 and sequence > $2 order by sequence limit $3`,
    [groupId, afterSequence, limit],
  );
  return result.rows;
}
