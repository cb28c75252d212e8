/**
 * The WorkItem rows whose owner registered an Agent Card, since accepting, that no longer meets
 * the Work Contract's required capabilities (§6.1): the Authority reactor fences each one
 * (src/app/reactor/leaseSweeps.ts). Read through the lease-expiry partial index of migration 0006
 * (every WorkItem with a current lease), one primary-key lookup of the owner's latest card each.
 *
 * The test here is a superset of the decider's (`isOwnerCardIncompatible`): a required capability
 * counts as met only by a declared version of the same major at or above the minimum by its
 * numeric core (`1.4.0` ≤ `1.10.0`), and a pre-release at the minimum's own core counts as not
 * met. Every row the decider would fence is found; the rare pre-release case it would not is
 * refused by the decider and then skipped by the reactor for a while (`reactorLimits.ts`).
 * Groups whose Mission has ended are skipped, and so are WorkItems a running child Mission holds.
 */

import type { Queryable } from '../pool.js';
import type { LeasedWorkItemRow } from './workLeases.js';

const LEASES = `w.document #> '{extensions,urn:missionweave:extension:work-leases,data}'`;
const EXPIRY = `least(w.document #>> '{extensions,urn:missionweave:extension:work-leases,data,ownership,expiresAt}',
                      w.document #>> '{extensions,urn:missionweave:extension:work-leases,data,execution,expiresAt}')`;
const CHILD = `w.document #> '{extensions,urn:missionweave:extension:work-item-links,data,childMission}'`;
/** A SemVer's numeric core (before any pre-release or build part), comparable as an array. */
const core = (version: string) => `string_to_array(split_part(split_part(${version}, '+', 1), '-', 1), '.')::numeric[]`;
const MEETS = `(${core(`c ->> 'version'`)})[1] = (${core(`r ->> 'version'`)})[1]
               and (${core(`c ->> 'version'`)} > ${core(`r ->> 'version'`)}
                    or (${core(`c ->> 'version'`)} = ${core(`r ->> 'version'`)} and strpos(split_part(c ->> 'version', '+', 1), '-') = 0))`;
const LIVE_MISSION = `not coalesce((select m.document ->> 'state' in ('approved', 'cancelled', 'failed') from aggregates m
                      where m.tree_id = w.tree_id and m.group_id = w.group_id and m.aggregate_type = 'mission' limit 1), false)`;

/**
 * Owned WorkItems whose owner's latest Agent Card, newer than the accepted one, misses a required
 * capability. In two steps, so that Citus can run it: the WorkItems whose owner has any newer
 * card (a scan of each shard, its correlated reads on `tree_id` or the Registry), then, over
 * those rows and the Registry alone, the latest card and the capability test (a correlated
 * lateral read and set-returning functions, which Citus refuses beside a distributed table).
 */
export async function readIncompatibleOwnerRows(db: Queryable, limit: number): Promise<LeasedWorkItemRow[]> {
  const result = await db.query<LeasedWorkItemRow>({
    name: 'read-incompatible-owner-rows',
    text: `with owned as materialized (
             select w.group_id, w.aggregate_id, w.document
             from aggregates w
             where w.aggregate_type = 'work-item' and ${EXPIRY} is not null
               and ${LEASES} #>> '{ownership,state}' = 'active'
               and (${CHILD} is null or ${CHILD} -> 'outcome' is not null)
               and exists (select 1 from agent_cards n where n.agent_id = w.document #>> '{owner,agentId}'
                           and n.card_version > (w.document #>> '{owner,agentCardVersion}')::integer)
               and ${LIVE_MISSION}
           )
           select w.group_id as "groupId", w.aggregate_id as "workItemId", ${LEASES} as leases
           from owned w
           join lateral (select c.card_version, c.document from agent_cards c
                         where c.agent_id = w.document #>> '{owner,agentId}'
                         order by c.card_version desc limit 1) card on true
           where exists (select 1 from jsonb_array_elements(w.document #> '{contract,requiredCapabilities}') r
                         where not exists (select 1 from jsonb_array_elements(card.document::jsonb -> 'capabilities') c
                                           where c ->> 'id' = r ->> 'id' and ${MEETS}))
           limit $1`,
    values: [limit],
  });
  return result.rows;
}
