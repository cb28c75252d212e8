/**
 * WorkItem dependencies (§10.4). A Mission's WorkItems form a directed acyclic graph through
 * their contracts' `dependencyWorkItemIds`; a WorkItem is eligible to start only when its
 * dependencies satisfy its contract's dependency policy.
 *
 * The normative Work Contract has no member for the policy, only a free `constraints` object, so
 * the policy is `constraints.dependencyPolicy` (docs/transitions.md):
 * - `all_verified` (the default): every dependency's result was accepted (`verified`);
 * - `all_submitted`: every dependency has at least submitted its result (`submitted` or
 *   `verified`), for work that may proceed on a result under review.
 * Any other value is refused when the contract is proposed or authorized.
 */

import type { WorkContract, WorkItemState } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { refuse, type Refusal } from '../model.js';
import { WORK_REASONS } from './workReasons.js';
import type { WorkRecord } from './workRecord.js';

export const DEPENDENCY_POLICIES = ['all_verified', 'all_submitted'] as const;
export type DependencyPolicy = (typeof DEPENDENCY_POLICIES)[number];
export const DEFAULT_DEPENDENCY_POLICY: DependencyPolicy = 'all_verified';

/** The states a dependency may be in for each policy to count it as met. */
const MET: Readonly<Record<DependencyPolicy, readonly WorkItemState[]>> = {
  all_verified: ['verified'],
  all_submitted: ['submitted', 'verified'],
};

function declaredPolicy(contract: WorkContract): unknown {
  const constraints = contract.constraints as Record<string, unknown> | undefined;
  return constraints?.['dependencyPolicy'];
}

function isPolicy(value: unknown): value is DependencyPolicy {
  return typeof value === 'string' && (DEPENDENCY_POLICIES as readonly string[]).includes(value);
}

/** The contract's dependency policy; an absent one is the default. */
export function dependencyPolicyOf(contract: WorkContract): DependencyPolicy {
  const declared = declaredPolicy(contract);
  return isPolicy(declared) ? declared : DEFAULT_DEPENDENCY_POLICY;
}

/** Refuses a contract that names a dependency policy we do not define. */
export function checkDependencyPolicy(contract: WorkContract): Refusal | null {
  const declared = declaredPolicy(contract);
  if (declared === undefined || isPolicy(declared)) return null;
  return refuse('INVALID_COMMAND', WORK_REASONS.dependencyPolicyUnknown, 'constraints.dependencyPolicy must be all_verified or all_submitted', {
    dependencyPolicies: [...DEPENDENCY_POLICIES],
  });
}

/** Refuses a WorkItem whose declared dependencies do not yet satisfy its contract's policy. */
export function checkDependenciesMet(state: GroupState, workItem: WorkRecord): Refusal | null {
  const met = MET[dependencyPolicyOf(workItem.contract)];
  const unmet = workItem.contract.dependencyWorkItemIds.filter((id) => {
    const dependency = state.workItems.get(id)?.state;
    return dependency === undefined || !met.includes(dependency);
  });
  if (unmet.length === 0) return null;
  return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.dependenciesUnmet, 'the WorkItem depends on work its dependency policy does not count as done yet', {
    workItemId: workItem.workItemId,
    dependencyPolicy: dependencyPolicyOf(workItem.contract),
    unmetDependencyIds: unmet,
  });
}

/**
 * Whether `to` is reachable from `from` along dependency edges. Each WorkItem is visited once,
 * so the walk costs at most the Group's WorkItems and edges, whatever the graph's shape.
 */
export function dependsOn(state: GroupState, from: string, to: string): boolean {
  const pending = [from];
  const visited = new Set<string>();
  while (pending.length > 0) {
    const current = pending.pop() as string;
    if (current === to) return true;
    if (visited.has(current)) continue;
    visited.add(current);
    for (const next of state.workItems.get(current)?.contract.dependencyWorkItemIds ?? []) {
      if (!visited.has(next)) pending.push(next);
    }
  }
  return false;
}

/** Refuses an edge `workItemId → dependencyId` that would close a cycle (§10.4). */
export function checkNoCycle(state: GroupState, workItemId: string, dependencyId: string): Refusal | null {
  if (dependencyId !== workItemId && !dependsOn(state, dependencyId, workItemId)) return null;
  return refuse('INVALID_COMMAND', WORK_REASONS.dependencyCycle, 'the dependency would make the WorkItem graph cyclic', { workItemId, dependencyId });
}

/** Refuses dependencies that are not WorkItems of this Group, or that would form a cycle. */
export function checkDependencies(state: GroupState, workItemId: string, dependencyIds: readonly string[]): Refusal | null {
  for (const id of dependencyIds) {
    const cycle = checkNoCycle(state, workItemId, id);
    if (cycle !== null) return cycle;
    if (!state.workItems.has(id)) {
      return refuse('INVALID_COMMAND', WORK_REASONS.dependencyUnknown, 'a dependency is not a WorkItem of this Group', { workItemId: id });
    }
  }
  return null;
}
