/**
 * `ext.missionweaveprotocol.core.work_dependency_add` (§10.4, §15.1): the Coordinator adds one
 * dependency edge to an unfinished WorkItem as the plan is discovered; an edge that would close a
 * cycle is refused. It emits `work.contract.revised` (§15.2), as the reference runtime does.
 *
 * A new dependency is a material revision (§10.1): the contract's `contractVersion` increments,
 * and whatever acceptance the old contract had no longer binds. An owned WorkItem (`queued`,
 * `active`, `blocked`) therefore returns to `open` with its owner fenced — its ownership and any
 * Execution Lease revoked, so the old Ownership Epoch's Commands are refused — and an `offered`
 * one returns to `open` with its pending offers withdrawn. The Coordinator then offers the revised
 * contract, and the Worker that accepts it accepts the new version.
 */

import type { WorkItem } from '../documents.js';
import type { GroupState } from '../group/groupState.js';
import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { checkNoCycle } from './dependencies.js';
import { checkWorkState, isRefusal, workItemNamed } from './fencing.js';
import { workItemEvent, type WorkContractRevisedPayload } from './workEvents.js';
import { linksOf } from './workItemDocuments.js';
import { closeLease, leasesOf, withAllClosed, withLeases } from './workLeases.js';
import { MAX_DEPENDENCIES_PER_WORK_ITEM } from './workLimits.js';

export const workContractRevised = workItemEvent<WorkContractRevisedPayload>()('work.contract.revised');

/** §10.2 states whose contract may still change: not yet submitted, not ended. */
const REVISABLE: readonly WorkItem['state'][] = ['open', 'offered', 'queued', 'active', 'blocked'];

type AddCommand = CommandOf<'ext.missionweaveprotocol.core.work_dependency_add'>;

function checkEdge(state: GroupState, workItem: WorkItem, dependencyId: string): Refusal | null {
  if (!state.workItems.has(dependencyId)) {
    return refuse('INVALID_COMMAND', 'dependency-unknown', 'the dependency is not a WorkItem of this Group', { workItemId: dependencyId });
  }
  const stateRefused = checkWorkState(workItem, REVISABLE, 'have its contract revised');
  if (stateRefused !== null) return stateRefused;
  if (linksOf(workItem).childMission !== undefined) {
    return refuse('INVALID_STATE_TRANSITION', 'work-item-has-child', 'a child Mission carries this WorkItem; revise the child instead', { workItemId: workItem.workItemId });
  }
  const deps = workItem.contract.dependencyWorkItemIds;
  if (deps.includes(dependencyId)) {
    return refuse('INVALID_STATE_TRANSITION', 'dependency-exists', 'the WorkItem already depends on it', { workItemId: workItem.workItemId, dependencyId });
  }
  if (deps.length >= MAX_DEPENDENCIES_PER_WORK_ITEM) {
    return refuse('INVALID_COMMAND', 'dependencies-full', 'the WorkItem has as many dependencies as a contract may hold', { limit: MAX_DEPENDENCIES_PER_WORK_ITEM });
  }
  return checkNoCycle(state, workItem.workItemId, dependencyId);
}

/** The WorkItem under its revised contract, and the leases its fenced owner loses. */
function revised(workItem: WorkItem, dependencyId: string, ctx: DecisionContext): { workItem: WorkItem; revokedLeases: WorkContractRevisedPayload['revokedLeases'] } {
  const contract = {
    ...workItem.contract,
    contractVersion: workItem.contract.contractVersion + 1,
    dependencyWorkItemIds: [...workItem.contract.dependencyWorkItemIds, dependencyId],
  };
  const next: WorkItem = { ...workItem, contract, revision: workItem.revision + 1, updatedAt: ctx.now };
  if (workItem.state === 'open') return { workItem: next, revokedLeases: [] };
  const offers = workItem.offers?.map((o) => (o.status === 'pending' ? { ...o, status: 'withdrawn' as const } : o));
  const { owner: _fenced, ...unowned } = next;
  const reopened: WorkItem = { ...unowned, state: 'open', ...(offers === undefined ? {} : { offers }) };
  const leases = leasesOf(workItem);
  if (leases.ownership === undefined && leases.execution === undefined) return { workItem: reopened, revokedLeases: [] };
  const reason = `Work Contract revised to version ${contract.contractVersion}`;
  const revokedLeases = [leases.ownership, leases.execution].filter((l) => l !== undefined).map((l) => closeLease(l, 'revoked', reason, ctx));
  return { workItem: withLeases(reopened, withAllClosed(leases, 'revoked', reason, ctx)), revokedLeases };
}

export function decideWorkDependencyAdd(
  state: GroupState,
  command: AddCommand,
  ctx: DecisionContext,
): Decision<EventDraft<'work.contract.revised', WorkContractRevisedPayload>> {
  const { workItemId, dependencyId } = command.payload;
  const found = workItemNamed(state, workItemId);
  if (isRefusal(found)) return found;
  const refused = checkEdge(state, found, dependencyId);
  if (refused !== null) return refused;
  const { workItem, revokedLeases } = revised(found, dependencyId, ctx);
  return accept({
    kind: 'work.contract.revised',
    payload: { workItemId, workItem, contractVersion: workItem.contract.contractVersion, dependencyId, revokedLeases },
    aggregate: { type: 'work-item', id: workItemId, revision: workItem.revision },
    workItemId,
  });
}

export const workDependencyAdd = defineKind({
  kind: 'ext.missionweaveprotocol.core.work_dependency_add',
  scope: 'group',
  authority: ['coordinator'],
  missionStates: ['active'],
  events: [workContractRevised],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideWorkDependencyAdd,
});
