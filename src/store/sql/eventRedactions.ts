/**
 * Redacted renderings of stored Events (migration 0013, §7.4): what readers are served instead
 * of an Event whose Message was redacted. The `events` row stays as it was accepted.
 */

import type { Queryable } from '../pool.js';
import type { StoredEventText } from './events.js';

/**
 * The stored Event of one of `kinds` (the app names those that carry a Message: posted, or
 * corrected) that carries Message `messageId`, if any.
 */
export async function readMessageEvent(db: Queryable, groupId: string, kinds: readonly string[], messageId: string): Promise<{ sequence: number; eventId: string; document: string } | undefined> {
  const result = await db.query<{ sequence: string; event_id: string; document: string }>(
    `select sequence, event_id, document from events
     where group_id = $1 and kind = any($2::text[])
       and coalesce(document::jsonb #>> '{payload,message,messageId}', document::jsonb #>> '{payload,amendment,messageId}') = $3
     limit 1`,
    [groupId, kinds, messageId],
  );
  const row = result.rows[0];
  return row === undefined ? undefined : { sequence: Number(row.sequence), eventId: row.event_id, document: row.document };
}

export async function insertEventRedaction(db: Queryable, row: { groupId: string; sequence: number; eventId: string; redactedBy: string; document: string }): Promise<void> {
  await db.query(
    `insert into event_redactions (tree_id, group_id, sequence, event_id, redacted_by, document)
     select tree_id, $1::text, $2::bigint, $3::text, $4::text, $5::text from group_trees where group_id = $1 on conflict do nothing`,
    [row.groupId, row.sequence, row.eventId, row.redactedBy, row.document],
  );
}

/** As `readEventsAfter`, with each redacted Event's rendering in place of its text. */
export async function readServedEventsAfter(db: Queryable, groupId: string, afterSequence: number, limit: number): Promise<StoredEventText[]> {
  const result = await db.query<StoredEventText>({
    name: 'read-served-events-after',
    text: `select e.sequence, e.event_id as "eventId", e.kind, coalesce(r.document, e.document) as document
           from events e left join event_redactions r on r.tree_id = e.tree_id and r.group_id = e.group_id and r.sequence = e.sequence
           where e.group_id = $1 and e.sequence > $2 order by e.sequence limit $3`,
    values: [groupId, afterSequence, limit],
  });
  return result.rows;
}
