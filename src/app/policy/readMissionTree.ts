/**
 * The Mission tree below one Mission (§14: "The root MissionOwner MUST be able to inspect the
 * complete Mission tree"), walked breadth first through the child links of its WorkItems, each
 * Mission summarized from its Group's stored state, all in one read-only snapshot of the
 * database. Who may read it: the Mission's MissionOwner, a member whose active Membership of the
 * Mission's Group sees its whole history (the read rule of snapshots), a human who owns an
 * ancestor Mission (`readerStanding.ts`), and the operator.
 */

import type { GroupState } from '../../domain/kinds/groupState.js';
import type { KindRegistry } from '../../domain/kinds/kindRegistry.js';
import { membershipOf } from '../../domain/stateQueries.js';
import { summarizeMission, type ChildReference, type MissionSummary } from '../../domain/policy/missionTree.js';
import { decideRead, UNDISCLOSED } from '../../domain/readAccess.js';
import { samePrincipal, type Principal } from '../../protocol/principal.js';
import { inTransaction, type Pool, type Queryable } from '../../store/pool.js';
import { readGroupAggregates } from '../../store/sql/aggregates.js';
import { ownedAncestorOf, ownerStanding } from '../readerStanding.js';
import { wireError, type WireError } from '../wireError.js';

/**
 * Missions one tree read returns. Every Mission is one Group's aggregates read; child depth is
 * itself limited (`delegation_depth`), but a wide tree is not, so the read stops here and says
 * `truncated`. 1,000 Missions is far beyond a tree a human inspects at once.
 */
export const MAX_TREE_MISSIONS = 1_000;

export type TreeViewer = { readonly kind: 'operator' } | { readonly kind: 'principal'; readonly principal: Principal };

export interface MissionTree {
  readonly rootMissionId: string;
  /** Breadth first, the root first; each names its children. */
  readonly missions: readonly MissionSummary[];
  readonly truncated: boolean;
}

export type TreeRead = { readonly ok: true; readonly tree: MissionTree } | { readonly ok: false; readonly error: WireError };

async function refusal(client: Queryable, groupId: string, viewer: TreeViewer, state: GroupState): Promise<WireError | null> {
  if (viewer.kind === 'operator' || samePrincipal(state.mission.missionOwner, viewer.principal)) return null;
  const membership = membershipOf(state, viewer.principal);
  const own = membership === undefined ? undefined : { state: membership.state, visibilityStartSequence: membership.visibilityStartSequence };
  // The owner of an ancestor Mission reads the whole tree below it, from any of its Groups (§14).
  const ancestor = await ownedAncestorOf(client, groupId, viewer.principal, own);
  const decision = decideRead(ancestor === undefined ? own : ownerStanding(ancestor), { purpose: 'snapshot' });
  return decision.allowed ? null : wireError(decision.code, decision.message, { groupId });
}

/** The tree below the Mission of `groupId`, for `viewer`; `kinds` rebuilds each Group's state from its rows. */
export function readMissionTree(pool: Pool, kinds: KindRegistry, groupId: string, viewer: TreeViewer, maxMissions = MAX_TREE_MISSIONS): Promise<TreeRead> {
  return inTransaction(pool, async (client): Promise<TreeRead> => {
    await client.query('set transaction isolation level repeatable read, read only');
    const rootRows = await readGroupAggregates(client, groupId);
    if (rootRows.length === 0) return { ok: false, error: wireError('GROUP_NOT_FOUND', UNDISCLOSED.snapshot, { groupId }) };
    const root = kinds.decodeState(groupId, 0, rootRows);
    const refused = await refusal(client, groupId, viewer, root);
    if (refused !== null) return { ok: false, error: refused };
    const missions: MissionSummary[] = [summarizeMission(root)];
    const seen = new Set([groupId]);
    const queue: ChildReference[] = [...(missions[0] as MissionSummary).children];
    let truncated = false;
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      // The ancestry is acyclic by construction (a child Group is always new); `seen` makes sure.
      if (seen.has(next.groupId)) continue;
      if (missions.length >= maxMissions) {
        truncated = true;
        break;
      }
      seen.add(next.groupId);
      const rows = await readGroupAggregates(client, next.groupId);
      if (rows.length === 0) continue;
      const summary = summarizeMission(kinds.decodeState(next.groupId, 0, rows));
      missions.push(summary);
      queue.push(...summary.children);
    }
    return { ok: true, tree: { rootMissionId: root.mission.missionId, missions, truncated } };
  });
}
