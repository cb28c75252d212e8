/**
 * Who acts in a descendant Mission through ownership of an ancestor (§14): a child Mission's
 * MissionOwner is the Parent Coordinator, "under the root human's accountability", so a human
 * gate below the root could never open if only the Group's own MissionOwner could act. A human who
 * is the MissionOwner of an ancestor Mission, holding that Mission's active `mission_owner`
 * Membership, acts for the kinds that list `ancestor-owner` — read from the ancestor Group states
 * the app loads for them (`ctx.ancestors`). An Agent never does, whatever it owns.
 */

import type { Membership } from '../documents.js';
import type { DecisionContext } from '../model.js';
import type { Principal } from '../../protocol/principal.js';
import type { GroupState } from '../kinds/groupState.js';
import { isMissionOwner, membershipOf } from '../stateQueries.js';

/** The nearest ancestor Group whose Mission `actor` owns as a human, with the Membership it acts under. */
export function ownedAncestor(ctx: DecisionContext, actor: Principal): { readonly state: GroupState; readonly membership: Membership } | undefined {
  if (actor.type !== 'human') return undefined;
  for (const ancestor of (ctx.ancestors ?? []) as readonly GroupState[]) {
    const membership = membershipOf(ancestor, actor);
    if (isMissionOwner(ancestor, actor) && membership?.state === 'active') return { state: ancestor, membership };
  }
  return undefined;
}
