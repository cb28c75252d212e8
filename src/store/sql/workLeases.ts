/**
 * The WorkItem rows whose leases the Authority reactor must close (§11.3): those with a current
 * lease expired by a given time, and those whose Execution Lease belongs to a Session its holder
 * has since replaced. Both skip Groups whose Mission has ended (a terminal Mission refuses every
 * Command, so nothing there can be closed) and read through the partial indexes of migration 0006.
 */

import type { JsonValue } from '../../protocol/strictJson.js';
import type { Queryable } from '../pool.js';

/**
 * Where the WorkItem row `w` keeps its leases (`src/domain/workItem/workLeases.ts`); the expiry and
 * holder expressions are those of the indexes, so that the planner uses them.
 */
const LEASES = `w.document #> '{extensions,urn:missionweave:extension:work-leases,data}'`;
const OWNERSHIP_EXPIRY = `w.document #>> '{extensions,urn:missionweave:extension:work-leases,data,ownership,expiresAt}'`;
const EXECUTION_EXPIRY = `w.document #>> '{extensions,urn:missionweave:extension:work-leases,data,execution,expiresAt}'`;
const EXPIRY = `least(${OWNERSHIP_EXPIRY}, ${EXECUTION_EXPIRY})`;
const HOLDER = `w.document #>> '{extensions,urn:missionweave:extension:work-leases,data,execution,holderAgentId}'`;
const EXECUTION_EPOCH = `w.document #>> '{extensions,urn:missionweave:extension:work-leases,data,execution,sessionEpoch}'`;

/**
 * The Group's Mission is not terminal. A scalar subquery, so that it is one primary-key lookup per
 * due row: as an anti-join the planner scans every aggregate of every Group for terminal Missions.
 */
const LIVE_MISSION = `not coalesce((select m.document ->> 'state' in ('approved', 'cancelled', 'failed') from aggregates m
                      where m.tree_id = w.tree_id and m.group_id = w.group_id and m.aggregate_type = 'mission' limit 1), false)`;

export interface LeasedWorkItemRow {
  readonly groupId: string;
  readonly workItemId: string;
  /** The WorkItem's lease extension data (`WorkLeases`). */
  readonly leases: JsonValue;
}

/** WorkItems with a current lease expiring at or before `now` (canonical UTC text), earliest first. */
export async function readExpiredLeaseRows(db: Queryable, now: string, limit: number): Promise<LeasedWorkItemRow[]> {
  const result = await db.query<LeasedWorkItemRow>({
    name: 'read-expired-lease-rows',
    text: `select w.group_id as "groupId", w.aggregate_id as "workItemId", ${LEASES} as leases
           from aggregates w
           where w.aggregate_type = 'work-item' and ${EXPIRY} is not null and ${EXPIRY} <= $1 and ${LIVE_MISSION}
           order by ${EXPIRY}
           limit $2`,
    values: [now, limit],
  });
  return result.rows;
}

/**
 * WorkItems whose Execution Lease was granted in a Session older than its holder's current one.
 * In two steps, so that Citus can run it: the held leases (a scan of each tree's shard, its
 * correlated read on `tree_id`), then those rows joined with the Session Epochs, which are
 * sharded by Agent, not by tree (citusLayout.ts).
 */
export async function readReplacedSessionRows(db: Queryable, limit: number): Promise<LeasedWorkItemRow[]> {
  const result = await db.query<LeasedWorkItemRow>({
    name: 'read-replaced-session-rows',
    text: `with held as materialized (
             select w.group_id, w.aggregate_id, ${LEASES} as leases, ${HOLDER} as holder, (${EXECUTION_EPOCH})::bigint as epoch
             from aggregates w
             where w.aggregate_type = 'work-item' and ${HOLDER} is not null and ${LIVE_MISSION}
           )
           select h.group_id as "groupId", h.aggregate_id as "workItemId", h.leases
           from held h
           join agent_sessions s on s.agent_id = h.holder
           where s.session_epoch > h.epoch
           limit $1`,
    values: [limit],
  });
  return result.rows;
}
