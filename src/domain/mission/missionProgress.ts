/**
 * Mission progress derived from the WorkItem graph (§7.3): never a percentage someone asserts,
 * always what the WorkItems and their dependency edges say now. Pure; it reads only Group state.
 *
 * A WorkItem is *required* unless it was cancelled: cancelling is how the Coordinator drops work
 * from the plan, and nothing else removes it. The Mission's work is complete when every required
 * WorkItem's result was accepted (`verified`); `mission.submit_for_approval` requires that.
 */

import type { WorkItemState } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { checkDependenciesMet } from '../workItem/dependencies.js';
import type { WorkRecord } from '../workItem/workRecord.js';

/** A WorkItem that holds up the Mission, and why. */
export interface Blocker {
  readonly workItemId: string;
  readonly reason: 'blocked' | 'failed' | 'dependencies-unmet';
}

export interface MissionProgress {
  /** WorkItems by state, every state listed. */
  readonly counts: Readonly<Record<WorkItemState, number>>;
  readonly required: number;
  readonly requiredVerified: number;
  /** Every required WorkItem is `verified` (vacuously true without WorkItems). */
  readonly complete: boolean;
  /** Required WorkItems not yet verified, in Group order. */
  readonly unaccepted: readonly string[];
  readonly blockers: readonly Blocker[];
  /**
   * The longest chain of unfinished WorkItems along dependency edges, first to run first: the
   * work that bounds how soon the Mission can finish.
   */
  readonly criticalPath: readonly string[];
}

const STATES: readonly WorkItemState[] = ['open', 'offered', 'queued', 'active', 'blocked', 'submitted', 'verified', 'failed', 'cancelled'];

const isRequired = (w: WorkRecord): boolean => w.state !== 'cancelled';
const isUnfinished = (w: WorkRecord): boolean => w.state !== 'cancelled' && w.state !== 'verified';

function blockerOf(state: GroupState, w: WorkRecord): Blocker | undefined {
  if (w.state === 'blocked' || w.state === 'failed') return { workItemId: w.workItemId, reason: w.state };
  if (['open', 'offered', 'queued'].includes(w.state) && checkDependenciesMet(state, w) !== null) {
    return { workItemId: w.workItemId, reason: 'dependencies-unmet' };
  }
  return undefined;
}

/**
 * The longest dependency chain through unfinished WorkItems. Each WorkItem's chain is computed
 * once (memoized), so the cost is the Group's WorkItems plus edges; a WorkItem met again while its
 * own chain is being computed (impossible in the acyclic graph §10.4 keeps) ends the chain there.
 */
function criticalPath(state: GroupState): string[] {
  const memo = new Map<string, string[]>();
  const visiting = new Set<string>();
  const chain = (id: string): string[] => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const w = state.workItems.get(id);
    if (w === undefined || !isUnfinished(w) || visiting.has(id)) return [];
    visiting.add(id);
    let longest: string[] = [];
    for (const dep of w.contract.dependencyWorkItemIds) {
      const candidate = chain(dep);
      if (candidate.length > longest.length) longest = candidate;
    }
    visiting.delete(id);
    const result = [...longest, id];
    memo.set(id, result);
    return result;
  };
  let best: string[] = [];
  for (const id of state.workItems.keys()) {
    const candidate = chain(id);
    if (candidate.length > best.length) best = candidate;
  }
  return best;
}

export function deriveMissionProgress(state: GroupState): MissionProgress {
  const counts = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<WorkItemState, number>;
  const unaccepted: string[] = [];
  const blockers: Blocker[] = [];
  let required = 0;
  for (const w of state.workItems.values()) {
    counts[w.state] += 1;
    if (!isRequired(w)) continue;
    required += 1;
    if (w.state !== 'verified') unaccepted.push(w.workItemId);
    const blocker = blockerOf(state, w);
    if (blocker !== undefined) blockers.push(blocker);
  }
  return {
    counts,
    required,
    requiredVerified: required - unaccepted.length,
    complete: unaccepted.length === 0,
    unaccepted,
    blockers,
    criticalPath: criticalPath(state),
  };
}
