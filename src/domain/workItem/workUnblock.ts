/**
 * `work.unblock` (§10.2 `blocked` → `queued` or `open`, §11.4): the Coordinator resolves a
 * blocker. Only the Coordinator: §11.4 gives the resolution to it ("The Coordinator may resolve
 * the blocker, authorize proposed sub-work, or reassign"), and the payload cites no Ownership
 * Epoch or Lease ID, so an owner's unblock could not be fenced (§11.3). While the owner's blocked
 * lease holds, the WorkItem re-enters its queue and the lease is an ownership lease again; after it
 * lapsed, the expired owner is fenced (its leases closed, the owner removed) and the WorkItem is
 * `open` for a new `work.offer`. A WorkItem blocked on its child Mission waits for that Mission
 * (§14): the child's approval or failure decides it, not this Command.
 */

import type { Lease } from '../documents.js';
import type { CommandOf } from '../kinds/kindTypes.js';
import { defineKind } from '../kinds/kindTypes.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, refuse, type DecisionContext } from '../model.js';
import { nextRevision, workItemConversation, workItemDraft, workItemRevision } from './executionSteps.js';
import { checkWorkState, isRefusal, liveOwnerOf, workItemNamed } from './fencing.js';
import { workItemEvent, type WorkUnblockedPayload } from './workEvents.js';
import { linksOf, waitsForChild } from './workItemDocuments.js';
import { closeLease, leasesOf, withAllClosed, withLeases } from './workLeases.js';
import { progressOf } from './workProgress.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXECUTION_EXAMPLES } from './workExecutionExamples.js';
import { workItemDocument } from './workRecord.js';

export const workUnblocked = workItemEvent<WorkUnblockedPayload>()('work.unblocked');

function decideUnblock(state: GroupState, command: CommandOf<'work.unblock'>, ctx: DecisionContext) {
  const workItem = workItemNamed(state, command.payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const refused = checkWorkState(workItem, ['blocked'], 'be unblocked');
  if (refused !== null) return refused;
  // While its child runs, the child's outcome decides the WorkItem (§14); once the child ended
  // (settled as failed or cancelled), the Coordinator may unblock it to replan.
  const child = linksOf(workItem).childMission;
  if (waitsForChild(child)) {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.workItemAwaitingChild, 'the WorkItem waits for its child Mission', {
      workItemId: workItem.workItemId,
      childMissionId: child.missionId,
    });
  }

  const leases = leasesOf(workItem);
  const progress = { ...progressOf(workItem), blockers: [] };
  if (liveOwnerOf(workItem, ctx) !== undefined) {
    const ownership: Lease = { ...leases.ownership!, leaseType: 'ownership' };
    const after = withLeases(nextRevision(workItem, { state: 'queued', progress }, ctx), { ...leases, ownership });
    return accept(workItemDraft('work.unblocked', { workItemId: after.workItemId, workItem: workItemDocument(after), state: 'queued' as const, status: 'queued' as const }));
  }
  // The blocked lease lapsed: the owner is fenced before the WorkItem is offered again (§11.5).
  const fenced = leases.ownership === undefined ? undefined : closeLease(leases.ownership, 'expired', 'blocked lease lapsed', ctx);
  const { owner, selectionBasis, ...unowned } = workItem;
  void owner;
  void selectionBasis;
  const reopened = withLeases(nextRevision(unowned, { state: 'open', progress }, ctx), withAllClosed(leases, 'expired', 'blocked lease lapsed', ctx));
  return accept(
    workItemDraft('work.unblocked', {
      workItemId: reopened.workItemId,
      workItem: workItemDocument(reopened),
      state: 'open' as const,
      status: 'open' as const,
      ...(fenced === undefined ? {} : { fencedOwnershipLease: fenced }),
    }),
  );
}

export const workUnblock = defineKind({
  kind: 'work.unblock',
  examples: WORK_EXECUTION_EXAMPLES['work.unblock'],
  scope: 'group',
  authority: ['coordinator'],
  missionStates: ['active'],
  events: [workUnblocked],
  target: (state, command) => workItemRevision(state, command.payload.workItemId),
  workItemOf: (_state, command) => command.payload.workItemId,
  conversationOf: (state, command) => workItemConversation(state, command.payload.workItemId),
  decide: decideUnblock,
});
