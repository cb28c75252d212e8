/**
 * Delegation Grants at their use (§9.1). SCAFFOLD: the signatures the WorkItem kinds call; the
 * rules themselves arrive with `membership.grant_delegation` (issue 11, item 5). Until then every
 * delegated use is refused, as before.
 */

import type { WorkContract, WorkItem } from '../documents.js';
import type { GroupState } from '../group/groupState.js';
import { refuse, type CommandEnvelope, type DecisionContext, type Refusal } from '../model.js';

/** What a delegate does with its Grant: authorize a new descendant, or offer an existing one. */
export type DelegatedUse =
  | { readonly kind: 'authorize'; readonly workItemId: string; readonly parentWorkItemId: string | undefined; readonly contract: WorkContract }
  | { readonly kind: 'offer'; readonly workItem: WorkItem };

/** Refuses a use of Grant `grantId` by the Command's actor, or `null` when the Grant allows it. */
export function checkDelegatedUse(
  state: GroupState,
  command: CommandEnvelope,
  grantId: string,
  use: DelegatedUse,
  ctx: DecisionContext,
): Refusal | null {
  void state;
  void command;
  void use;
  void ctx;
  return refuse('INVALID_COMMAND', 'delegation-grant-unknown', 'the Delegation Grant does not exist in this Group', { delegationGrantId: grantId });
}

/** Evolve: the Grant records that `workItemId` was authorized or offered under it. */
export function recordGrantUse(state: GroupState, grantId: string, workItemId: string): GroupState {
  const grant = state.delegationGrants.get(grantId);
  if (grant === undefined || grant.usedBy.includes(workItemId)) return state;
  const next = new Map(state.delegationGrants);
  next.set(grantId, { ...grant, usedBy: [...grant.usedBy, workItemId], revision: grant.revision + 1 });
  return { ...state, delegationGrants: next };
}
