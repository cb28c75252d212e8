/**
 * Current state of each aggregate of a Group, written in the same transaction as its Events.
 */

import type { JsonValue } from '../../protocol/strictJson.js';
import type { Queryable } from '../pool.js';

export interface AggregateRow {
  readonly type: string;
  readonly id: string;
  readonly revision: number;
  readonly document: JsonValue;
}

/**
 * Every aggregate of a Group except its Messages (those are read on demand). With the Group's
 * Mission tree (`treeId`) the read names it, so Citus routes it to the tree's one shard; by Group
 * alone it goes to every shard, and fails while any worker is down (docs/citus.md).
 */
export async function readGroupAggregates(db: Queryable, groupId: string, treeId?: string): Promise<AggregateRow[]> {
  const ofTree = treeId !== undefined;
  const result = await db.query<AggregateRow>({
    name: ofTree ? 'read-group-aggregates-of-tree' : 'read-group-aggregates',
    text: `select aggregate_type as type, aggregate_id as id, revision, document
           from aggregates where ${ofTree ? 'tree_id = $2 and ' : ''}group_id = $1 and aggregate_type <> 'message'`,
    values: ofTree ? [groupId, treeId] : [groupId],
  });
  return result.rows;
}

/** Every aggregate of a Group, Messages included (for verification against a replay). */
export async function readAllGroupAggregates(db: Queryable, groupId: string): Promise<AggregateRow[]> {
  const result = await db.query<AggregateRow>(
    'select aggregate_type as type, aggregate_id as id, revision, document from aggregates where group_id = $1',
    [groupId],
  );
  return result.rows;
}

/** Messages of a Group (in Mission tree `treeId`: one shard on Citus) by ID. */
export async function readMessages(db: Queryable, groupId: string, treeId: string, messageIds: readonly string[]): Promise<AggregateRow[]> {
  if (messageIds.length === 0) return [];
  const result = await db.query<AggregateRow>({
    name: 'read-messages',
    text: `select aggregate_type as type, aggregate_id as id, revision, document from aggregates
           where tree_id = $3 and group_id = $1 and aggregate_type = 'message' and aggregate_id = any($2::text[])`,
    values: [groupId, messageIds, treeId],
  });
  return result.rows;
}

/** Mission documents by Mission ID, across Groups (follow-up sources, child parents). */
export async function readMissionDocuments(db: Queryable, missionIds: readonly string[]): Promise<{ groupId: string; document: JsonValue }[]> {
  if (missionIds.length === 0) return [];
  const result = await db.query<{ group_id: string; document: JsonValue }>({
    name: 'read-mission-documents',
    text: `select group_id, document from aggregates
           where aggregate_type = 'mission' and aggregate_id = any($1::text[])`,
    values: [missionIds],
  });
  return result.rows.map((r) => ({ groupId: r.group_id, document: r.document }));
}
