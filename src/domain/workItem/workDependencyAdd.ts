/**
 * `ext.missionweaveprotocol.core.work_dependency_add` (§10.4, §15.1): the Coordinator adds one
 * dependency edge to an unfinished WorkItem as the plan is discovered; an edge that would close a
 * cycle is refused. It emits `work.contract.revised` (§15.2), as the reference runtime does.
 *
 * A new dependency is a material revision (§10.1): the contract's `contractVersion` increments,
 * and whatever acceptance the old contract had no longer binds. The revision moves the WorkItem
 * to no other state — no row of §10.2 lets it, so the WorkItem stays where it is and only its
 * acceptance ends: an `offered` one keeps `offered` with its pending offers withdrawn; a `queued`
 * or `blocked` one keeps its state and its recorded owner, fenced (its leases revoked, so the old
 * Ownership Epoch's Commands are refused), which is the "no live owner" from which §10.2 lets the
 * Coordinator offer the revised contract again. An `active` WorkItem is refused: a running Worker
 * is never interrupted at an unsafe point (§11.3), and once it checkpoints or blocks the edge may
 * be added. The Worker that accepts a new offer accepts the new version.
 */

import type { Lease } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { checkNoCycle } from './dependencies.js';
import { checkWorkState, isRefusal, workItemNamed } from './fencing.js';
import { workItemEvent, type WorkContractRevisedPayload } from './workEvents.js';
import { linksOf } from './workItemDocuments.js';
import { closeLease, leasesOf, withAllClosed, withLeases } from './workLeases.js';
import { MAX_DEPENDENCIES_PER_WORK_ITEM } from './workLimits.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXAMPLES } from './workExamples.js';
import { workItemDocument, type WorkRecord } from './workRecord.js';

export const workContractRevised = workItemEvent<WorkContractRevisedPayload>()('work.contract.revised');

/** §10.2 states whose contract may still change: not yet submitted, not ended, not running. */
const REVISABLE: readonly WorkRecord['state'][] = ['open', 'offered', 'queued', 'blocked'];

type AddCommand = CommandOf<'ext.missionweaveprotocol.core.work_dependency_add'>;

function checkEdge(state: GroupState, workItem: WorkRecord, dependencyId: string): Refusal | null {
  if (!state.workItems.has(dependencyId)) {
    return refuse('INVALID_COMMAND', WORK_REASONS.dependencyUnknown, 'the dependency is not a WorkItem of this Group', { workItemId: dependencyId });
  }
  if (workItem.state === 'active') {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.workItemActive, 'an active WorkItem is revised once its Worker checkpoints or blocks', { workItemId: workItem.workItemId, state: 'active' });
  }
  const stateRefused = checkWorkState(workItem, REVISABLE, 'have its contract revised');
  if (stateRefused !== null) return stateRefused;
  if (linksOf(workItem).childMission !== undefined) {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.workItemHasChild, 'a child Mission carries this WorkItem; revise the child instead', { workItemId: workItem.workItemId });
  }
  const deps = workItem.contract.dependencyWorkItemIds;
  if (deps.includes(dependencyId)) {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.dependencyExists, 'the WorkItem already depends on it', { workItemId: workItem.workItemId, dependencyId });
  }
  if (deps.length >= MAX_DEPENDENCIES_PER_WORK_ITEM) {
    return refuse('INVALID_COMMAND', WORK_REASONS.dependenciesFull, 'the WorkItem has as many dependencies as a contract may hold', { limit: MAX_DEPENDENCIES_PER_WORK_ITEM });
  }
  return checkNoCycle(state, workItem.workItemId, dependencyId);
}

/** The WorkItem under its revised contract, in the same state, and the leases its fenced owner loses. */
function revised(workItem: WorkRecord, dependencyId: string, ctx: DecisionContext): { workItem: WorkRecord; revokedLeases: WorkContractRevisedPayload['revokedLeases'] } {
  const contract = {
    ...workItem.contract,
    contractVersion: workItem.contract.contractVersion + 1,
    dependencyWorkItemIds: [...workItem.contract.dependencyWorkItemIds, dependencyId],
  };
  const offers = workItem.offers?.map((o) => (o.status === 'pending' ? { ...o, status: 'withdrawn' as const } : o));
  const next: WorkRecord = { ...workItem, contract, revision: workItem.revision + 1, updatedAt: ctx.now, ...(offers === undefined ? {} : { offers }) };
  const leases = leasesOf(workItem);
  const live = [leases.ownership, leases.execution].filter((l): l is Lease => l !== undefined && l.state === 'active');
  if (live.length === 0) return { workItem: next, revokedLeases: [] };
  const reason = `Work Contract revised to version ${contract.contractVersion}`;
  const revokedLeases = live.map((l) => closeLease(l, 'revoked', reason, ctx));
  return { workItem: withLeases(next, withAllClosed(leases, 'revoked', reason, ctx)), revokedLeases };
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
    payload: { workItemId, workItem: workItemDocument(workItem), contractVersion: workItem.contract.contractVersion, dependencyId, revokedLeases },
    aggregate: { type: 'work-item', id: workItemId, revision: workItem.revision },
    workItemId,
  });
}

export const workDependencyAdd = defineKind({
  kind: 'ext.missionweaveprotocol.core.work_dependency_add',
  examples: WORK_EXAMPLES['ext.missionweaveprotocol.core.work_dependency_add'],
  scope: 'group',
  authority: ['coordinator'],
  missionStates: ['active'],
  events: [workContractRevised],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideWorkDependencyAdd,
});
