/**
 * The Group Event log, read by sequence (rows are appended by `appendBatch`).
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
  /** The key ID its First-Admission Record binds: the key it was signed with (`eventAdmissions.ts`). */
  readonly keyId: string;
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

/**
 * Group Events by ID within the Mission trees `treeIds`: on Citus only those trees' shards are
 * read, so a worker down fails only a read that needs it (`readEventsById` reads every shard).
 */
export async function readTreeEventsById(db: Queryable, treeIds: readonly string[], eventIds: readonly string[]): Promise<Map<string, string>> {
  const result = await db.query<{ event_id: string; document: string }>({
    name: 'read-tree-events-by-id',
    text: 'select event_id, document from events where tree_id = any($1::text[]) and event_id = any($2::text[])',
    values: [[...new Set(treeIds)], eventIds],
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
