/**
 * What archival compares a Group Snapshot with (§7.4): the Group's Event IDs in sequence order
 * with the last one's trusted time, and the Policy Log records of the Group a snapshot cites; and
 * the aggregates with their last writing sequence, which a snapshot limited to one Membership's
 * visibility is cut from (§8).
 */

import type { Queryable } from '../pool.js';

export async function readEventIds(db: Queryable, groupId: string): Promise<{ eventIds: string[]; lastAcceptedAt: string }> {
  const result = await db.query<{ event_id: string; trusted_accepted_at: string }>(
    'select event_id, trusted_accepted_at from events where group_id = $1 order by sequence',
    [groupId],
  );
  return { eventIds: result.rows.map((r) => r.event_id), lastAcceptedAt: result.rows.at(-1)?.trusted_accepted_at ?? '' };
}

/** A stored aggregate with the sequence of the Event that last wrote it. */
export interface SequencedAggregateRow {
  readonly type: string;
  readonly id: string;
  readonly revision: number;
  readonly document: unknown;
  readonly updatedSequence: number;
}

/** Every aggregate of the Group, with the sequence that last wrote it (a limited snapshot's input). */
export async function readSequencedAggregates(db: Queryable, groupId: string): Promise<SequencedAggregateRow[]> {
  const result = await db.query<SequencedAggregateRow>(
    'select aggregate_type as type, aggregate_id as id, revision, document, updated_sequence::int as "updatedSequence" from aggregates where group_id = $1',
    [groupId],
  );
  return result.rows;
}

/** Entry ID → §19 code of the named records claimed for the Group (the others are absent). */
export async function readPolicyLogCodes(db: Queryable, groupId: string, entryIds: readonly string[]): Promise<Map<string, string>> {
  if (entryIds.length === 0) return new Map();
  const result = await db.query<{ entry_id: string; code: string }>(
    'select entry_id, code from policy_log where claimed_group_id = $1 and entry_id = any($2::text[])',
    [groupId, entryIds],
  );
  return new Map(result.rows.map((r) => [r.entry_id, r.code]));
}
