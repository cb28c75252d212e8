/**
 * Membership lookups for the read rule (app/authorizeRead.ts): who may read a Group, and from
 * which sequence.
 */

import type { Queryable } from '../pool.js';

export interface MembershipView {
  readonly membershipId: string;
  readonly state: string;
  readonly visibilityStartSequence: number;
}

/** The Membership of a Principal in a Group, if it ever had one. */
export async function readMembership(db: Queryable, groupId: string, type: string, id: string): Promise<MembershipView | undefined> {
  const result = await db.query<{ membership_id: string; state: string; visibility: number }>({
    name: 'read-membership',
    text: `select aggregate_id as membership_id, document->>'state' as state, (document->>'visibilityStartSequence')::bigint as visibility
           from aggregates where group_id = $1 and aggregate_type = 'membership'
             and document->'member'->>'type' = $2 and document->'member'->>'id' = $3`,
    values: [groupId, type, id],
  });
  const row = result.rows[0];
  return row === undefined ? undefined : { membershipId: row.membership_id, state: row.state, visibilityStartSequence: Number(row.visibility) };
}
