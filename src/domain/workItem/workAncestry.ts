/**
 * A WorkItem's ancestry (§4.11, §14): the WorkItems whose grants bound it, nearest first — its
 * parent WorkItems in its own Group (a sub-WorkItem, delegated or not, is made under its parent),
 * then, for a child Mission, the parent WorkItem it was promoted from in the parent Group and that
 * WorkItem's own parents, and so on to the root Mission. The ancestor Groups' states come from
 * the app (`ctx.ancestors`, nearest parent Group first, for kinds that declare `ancestry`). A chain
 * that cannot be walked — an ancestor Group not loaded, a missing parent — is refused rather than
 * cut short, so that no check silently skips an ancestor.
 */

import type { GroupState } from '../kinds/groupState.js';
import { refuse, type Refusal } from '../model.js';
import { linksOf } from './workItemDocuments.js';
import { WORK_REASONS } from './workReasons.js';
import type { WorkRecord } from './workRecord.js';

/** One ancestor WorkItem and the Group it lives in. */
export interface AncestorWorkItem {
  readonly groupId: string;
  readonly workItem: WorkRecord;
}

/**
 * The ancestry of a WorkItem whose nearest parent in `state` is `parentWorkItemId` (`undefined`
 * for a top-level WorkItem): that parent and everything above it, across `ancestors`.
 */
export function ancestorWorkItems(state: GroupState, parentWorkItemId: string | undefined, ancestors: readonly GroupState[]): AncestorWorkItem[] | Refusal {
  const found: AncestorWorkItem[] = [];
  let current = state;
  let next = parentWorkItemId;
  for (let level = 0; ; level++) {
    const seen = new Set<string>();
    while (next !== undefined) {
      const workItem = current.workItems.get(next);
      // A loop of parent links is corrupt state; it ends the walk as a missing parent would.
      if (workItem === undefined || seen.has(next)) {
        return refuse('INVALID_COMMAND', WORK_REASONS.workItemUnknown, 'a parent WorkItem of the ancestry is not in its Group', { workItemId: next, groupId: current.groupId });
      }
      seen.add(next);
      found.push({ groupId: current.groupId, workItem });
      next = linksOf(workItem).parentWorkItemId;
    }
    const link = current.mission.parent;
    if (link === undefined) return found;
    const parent = ancestors[level];
    if (parent === undefined || parent.mission.missionId !== link.missionId) {
      return refuse('INVALID_COMMAND', WORK_REASONS.ancestryMismatch, 'the loaded ancestry does not match the Mission parent link', { missionId: current.mission.missionId });
    }
    current = parent;
    next = link.workItemId;
  }
}
