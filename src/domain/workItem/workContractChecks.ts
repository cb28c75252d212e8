/**
 * The checks a Work Contract passes wherever it enters the Group (§10.1): proposed by a member
 * (`work.propose`) or authorized (`work.authorize`). It must fit inside its Mission (deadline and
 * budget, §12), name only known dependencies without a cycle under a policy we define (§10.4),
 * agree with the payload's own `dependencyIds`, and state data classification bounds only in the
 * protocol's four levels (`authorityScope.ts`).
 */

import type { WorkContract } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { refuse, type DecisionContext, type Refusal } from '../model.js';
import { budgetOverrun, isAfterNow, isNoLaterThan, sameSet } from '../rules.js';
import { checkClassifications } from './authorityScope.js';
import { checkDependencies, checkDependencyPolicy } from './dependencies.js';
import { WORK_REASONS } from './workReasons.js';

export interface ContractInput {
  readonly contract: WorkContract;
  readonly dependencyIds?: readonly string[];
  readonly parentWorkItemId?: string;
}

/** Refuses a contract that does not fit inside its Mission, for the WorkItem `workItemId`. */
export function checkContract(state: GroupState, workItemId: string, input: ContractInput, ctx: DecisionContext): Refusal | null {
  const { contract } = input;
  if (input.dependencyIds !== undefined && !sameSet(input.dependencyIds, contract.dependencyWorkItemIds)) {
    return refuse('INVALID_COMMAND', WORK_REASONS.dependenciesDisagree, 'dependencyIds and the contract name different dependencies');
  }
  if (input.parentWorkItemId !== undefined && !state.workItems.has(input.parentWorkItemId)) {
    return refuse('INVALID_COMMAND', WORK_REASONS.parentWorkItemUnknown, 'the parent WorkItem is not in this Group');
  }
  const dependencies = checkDependencyPolicy(contract) ?? checkDependencies(state, workItemId, contract.dependencyWorkItemIds) ?? checkClassifications(contract);
  if (dependencies !== null) return dependencies;
  if (!isAfterNow(contract.deadline, ctx) || !isNoLaterThan(contract.deadline, state.mission.deadline)) {
    return refuse('INVALID_COMMAND', WORK_REASONS.deadlineOutsideMission, 'the contract deadline must lie between now and the Mission deadline');
  }
  const overrun = budgetOverrun(contract.budget, state.mission.budget);
  if (overrun !== undefined) {
    return refuse('INVALID_COMMAND', WORK_REASONS.budgetExceedsMission, 'the contract budget exceeds the Mission budget', { limit: overrun });
  }
  return null;
}
