/**
 * The recent Events of some kinds in one Group, reduced to the members a rate window needs
 * (`domain/policy/rateWindows.ts`): read when a Group's state is loaded from its rows, so that a
 * restart or another node does not reset the §20 rate windows.
 */

import type { JsonValue } from '../../protocol/strictJson.js';
import type { Queryable } from '../pool.js';

export interface RecentEventFacts {
  readonly sequence: number;
  readonly eventId: string;
  readonly kind: string;
  readonly actor: JsonValue;
  readonly occurredAt: string;
  /** The payload, only for `payloadKind`; `null` otherwise (a Message's content is not read). */
  readonly payload: JsonValue | null;
}

/**
 * Events of `kinds` among the last `scan` Events of the Group, in its Mission tree `treeId` (one
 * shard on Citus), among its sequences after
 * `lastSequence - scan`), oldest first. The range walks the primary key, so the read costs at
 * most `scan` index entries however long the Group's history is; only matching rows are parsed.
 */
export async function readRecentEventsOfKinds(db: Queryable, groupId: string, treeId: string, lastSequence: number, scan: number, kinds: readonly string[], payloadKind: string): Promise<RecentEventFacts[]> {
  const result = await db.query<RecentEventFacts>({
    name: 'read-recent-events-of-kinds',
    text: `select sequence, event_id as "eventId", kind, d -> 'actor' as actor, d ->> 'occurredAt' as "occurredAt",
                  case when kind = $5 then d -> 'payload' end as payload
           from (select sequence, event_id, kind, document::jsonb as d from events
                 where tree_id = $6 and group_id = $1 and sequence > $2 and sequence <= $3 and kind = any($4::text[])) recent
           order by sequence`,
    values: [groupId, Math.max(0, lastSequence - scan), lastSequence, kinds, payloadKind, treeId],
  });
  return result.rows.map((row) => ({ ...row, sequence: Number(row.sequence) }));
}
