/**
 * One WorkItem's current document (§10), for the Authorization Service's online token check: a
 * tool host's status question costs one indexed row read, not a Group load.
 */

import type { JsonValue } from '../../protocol/strictJson.js';
import type { Queryable } from '../pool.js';

export async function readWorkItem(db: Queryable, groupId: string, workItemId: string): Promise<JsonValue | undefined> {
  const result = await db.query<{ document: JsonValue }>({
    name: 'read-work-item',
    text: `select document from aggregates where group_id = $1 and aggregate_type = 'work-item' and aggregate_id = $2`,
    values: [groupId, workItemId],
  });
  return result.rows[0]?.document;
}
