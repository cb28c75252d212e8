/**
 * What archival compares a Group Snapshot with (§7.4): the Group's Event IDs in sequence order
 * with the last one's trusted time, and the Policy Log records of the Group a snapshot cites.
 */

import type { Queryable } from '../pool.js';

export async function readEventIds(db: Queryable, groupId: string): Promise<{ eventIds: string[]; lastAcceptedAt: string }> {
  const result = await db.query<{ event_id: string; trusted_accepted_at: string }>(
    'select event_id, trusted_accepted_at from events where group_id = $1 order by sequence',
    [groupId],
  );
  return { eventIds: result.rows.map((r) => r.event_id), lastAcceptedAt: result.rows.at(-1)?.trusted_accepted_at ?? '' };
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
