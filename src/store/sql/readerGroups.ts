/**
 * The Groups a reader (an Agent or a human) holds a Membership in, with their Missions' titles
 * and states: what `GET /v1/me` lists. Active Memberships first, then the newest grants. The
 * member expressions are those of the index of migration 0014, so that the planner uses it.
 */

import type { Queryable } from '../pool.js';

export interface ReaderGroupRow {
  readonly groupId: string;
  readonly missionId: string;
  readonly title: string;
  readonly missionState: string;
  readonly role: string;
  readonly membershipState: string;
  /** What the reader's Commands in the Group must carry (§8): an MCP server learns it here. */
  readonly membershipEpoch: number;
  readonly parentMissionId: string | null;
}

/** At most `limit` rows. */
export async function readReaderGroups(db: Queryable, type: string, id: string, limit: number): Promise<ReaderGroupRow[]> {
  const result = await db.query<ReaderGroupRow>({
    name: 'read-reader-groups',
    text: `select m.group_id as "groupId",
                  ms.document #>> '{mission,missionId}' as "missionId",
                  ms.document #>> '{notes,title}' as title,
                  ms.document #>> '{mission,state}' as "missionState",
                  m.document ->> 'role' as role,
                  m.document ->> 'state' as "membershipState",
                  (m.document ->> 'membershipEpoch')::int as "membershipEpoch",
                  ms.document #>> '{mission,parent,missionId}' as "parentMissionId"
           from aggregates m
           join aggregates ms on ms.tree_id = m.tree_id and ms.group_id = m.group_id and ms.aggregate_type = 'mission'
           where m.aggregate_type = 'membership' and m.document -> 'member' ->> 'id' = $2 and m.document -> 'member' ->> 'type' = $1
           order by (m.document ->> 'state' = 'active') desc, m.document ->> 'grantedAt' desc, m.group_id
           limit $3`,
    values: [type, id, limit],
  });
  return result.rows;
}
