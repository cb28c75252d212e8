/**
 * Two cooperation limits of §20 that are judged on the Group state, not on a rate:
 *
 * - **Unresolved clarification rounds.** A clarification round is a `work.block` (the Worker
 *   stops and states what it needs, §10.2) until the `work.unblock` that answers it; the rounds a
 *   Worker holds open at once are its WorkItems in `blocked`. A Worker opening more questions than
 *   `maxUnresolvedClarifications` while none is answered is looping, not waiting: its next
 *   `work.block` is refused. Counting what is open, rather than block/unblock cycles over time,
 *   needs no new state and cannot be reset by a reload; a WorkItem that blocks again after an
 *   answer is bounded by the WorkItem's own deadline and budget.
 * - **Circular or duplicate decomposition.** A `work.propose`, or a `work.authorize` that takes up
 *   no proposal, whose contract asks for the same thing (goal, required deliverables, acceptance
 *   criteria; JCS-equal) under the same parent as unfinished WorkItems or open Work Proposals of
 *   the Group is a duplicate, refused once `maxDuplicateWork` alike exist. A `mission.create_child`
 *   whose objective repeats its own Mission's is circular decomposition: the child would do what
 *   its parent does. (Deeper repetition is bounded by `delegation_depth`; comparing every ancestor
 *   would make the kind load its ancestry.)
 *   The check compares the goal string first and canonicalizes only on a match, so it costs one
 *   string comparison per WorkItem and proposal the Group already bounds.
 *
 * Both are `RATE_LIMITED`, like every §20 limit, and so escalate the same way: a Cooperation
 * Override Grant naming `unresolved_clarifications` / `duplicate_decomposition` (legitimate
 * redundancy, e.g. two independent reviews of one thing, is granted once per Command).
 */

import { canonicalize } from '../../protocol/jcs.js';
import type { WorkContract, WorkItem } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import type { CommandEnvelope } from '../model.js';
import { linksOf } from '../workItem/workItemDocuments.js';
import { softThreshold, type CooperationLimits, type ExceededLimit } from './cooperationLimits.js';

/** The WorkItem states in which its work is still to be done (not yet accepted, failed or cancelled). */
const UNFINISHED: ReadonlySet<WorkItem['state']> = new Set<WorkItem['state']>(['open', 'offered', 'queued', 'active', 'blocked', 'submitted']);

function openRounds(state: GroupState, agentId: string): number {
  let open = 0;
  for (const item of state.workItems.values()) if (item.state === 'blocked' && item.owner?.agentId === agentId) open += 1;
  return open;
}

/** The next `work.block` of a Worker already holding the limit of blocked WorkItems in this Group. */
export function clarificationLimit(state: GroupState, command: CommandEnvelope, limits: CooperationLimits): ExceededLimit | null {
  if (command.kind !== 'work.block') return null;
  const observed = openRounds(state, command.actor.id) + 1;
  return observed > limits.maxUnresolvedClarifications ? { policy: 'unresolved_clarifications', limit: limits.maxUnresolvedClarifications, observed } : null;
}

/**
 * The soft threshold of open rounds: the `work.block` that raises the Worker's count to exactly
 * `softThreshold(limit)` tells the Coordinator, whose answers (`work.unblock`) close rounds. It
 * is said once per rise: a count staying at or above it adds no notice.
 */
export function clarificationCrossing(state: GroupState, command: CommandEnvelope, limits: CooperationLimits): { policy: 'unresolved_clarifications'; count: number; softThreshold: number; limit: number } | null {
  if (command.kind !== 'work.block' || command.actor.type === 'service' || limits.maxUnresolvedClarifications === 0) return null;
  const count = openRounds(state, command.actor.id) + 1;
  const soft = softThreshold(limits.maxUnresolvedClarifications);
  return count === soft ? { policy: 'unresolved_clarifications', count, softThreshold: soft, limit: limits.maxUnresolvedClarifications } : null;
}

/** What a contract asks for, independent of its IDs, dependencies, budget and version. */
function askedFor(contract: Pick<WorkContract, 'goal' | 'requiredDeliverables' | 'acceptanceCriteria'>): string {
  return canonicalize({ goal: contract.goal, requiredDeliverables: contract.requiredDeliverables, acceptanceCriteria: contract.acceptanceCriteria });
}

interface Proposed {
  readonly contract: WorkContract;
  readonly parentWorkItemId?: string;
  readonly proposalId?: string;
}

function duplicates(state: GroupState, proposed: Proposed): number {
  const goal = proposed.contract.goal;
  const parent = proposed.parentWorkItemId;
  let asked: string | undefined;
  const same = (contract: WorkContract, otherParent: string | undefined): boolean => {
    if (contract.goal !== goal || otherParent !== parent) return false;
    asked ??= askedFor(proposed.contract);
    return askedFor(contract) === asked;
  };
  let count = 0;
  for (const item of state.workItems.values()) if (UNFINISHED.has(item.state) && same(item.contract, linksOf(item).parentWorkItemId)) count += 1;
  for (const proposal of state.proposals.values()) {
    if (proposal.state === 'open' && proposal.proposalId !== proposed.proposalId && same(proposal.contract, proposal.parentWorkItemId)) count += 1;
  }
  return count;
}

function proposedBy(command: CommandEnvelope): Proposed | undefined {
  if (command.kind !== 'work.propose' && command.kind !== 'work.authorize') return undefined;
  const payload = command.payload as { contract?: WorkContract; parentWorkItemId?: string; proposalId?: string };
  if (payload.contract === undefined) return undefined;
  return {
    contract: payload.contract,
    ...(payload.parentWorkItemId === undefined ? {} : { parentWorkItemId: payload.parentWorkItemId }),
    // Authorizing a proposal takes it up: the proposal itself is not a duplicate of it.
    ...(command.kind === 'work.authorize' && payload.proposalId !== undefined ? { proposalId: payload.proposalId } : {}),
  };
}

/** A duplicate WorkItem or proposal, or a child Mission repeating its own Mission's objective. */
export function duplicateDecomposition(state: GroupState, command: CommandEnvelope, limits: CooperationLimits): ExceededLimit | null {
  if (command.kind === 'mission.create_child') {
    const objective = (command.payload as { objective?: string }).objective?.trim();
    return state.mission.objective.trim() === objective ? { policy: 'duplicate_decomposition', limit: 0, observed: 1 } : null;
  }
  const proposed = proposedBy(command);
  if (proposed === undefined) return null;
  const observed = duplicates(state, proposed) + 1;
  return observed > limits.maxDuplicateWork ? { policy: 'duplicate_decomposition', limit: limits.maxDuplicateWork, observed } : null;
}
