/**
 * WorkItem dependencies (§10.4). SCAFFOLD: the signature `work.start` calls; the dependency
 * policy, cycle refusal and `ext.missionweaveprotocol.core.work_dependency_add` arrive with
 * issue 11, item 4. Until then every declared dependency must be `verified`.
 */

import type { WorkItem } from '../documents.js';
import type { GroupState } from '../group/groupState.js';
import { refuse, type Refusal } from '../model.js';

/** Refuses a WorkItem whose declared dependencies do not yet satisfy its contract's policy. */
export function checkDependenciesMet(state: GroupState, workItem: WorkItem): Refusal | null {
  const unmet = workItem.contract.dependencyWorkItemIds.filter((id) => state.workItems.get(id)?.state !== 'verified');
  if (unmet.length === 0) return null;
  return refuse('INVALID_STATE_TRANSITION', 'dependencies-unmet', 'the WorkItem depends on work not yet accepted', {
    workItemId: workItem.workItemId,
    unmetDependencyIds: unmet,
  });
}
