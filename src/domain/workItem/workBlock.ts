/**
 * `work.block` (§10.2 `active` → `blocked`, §11.4): the owner checkpoints, states the blocker and
 * the resolution it needs, and releases its execution slot under its current Execution Lease.
 * Ownership stays for a bounded blocked lease (`blockedLeaseSeconds`): the ownership lease,
 * same Lease ID, becomes a lease of type `blocked` until `work.unblock` or its expiry.
 */

import type { CommandOf } from '../kinds/kindTypes.js';
import { defineKind } from '../kinds/kindTypes.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, type DecisionContext } from '../model.js';
import { checkActiveOwner, nextRevision, workItemConversation, workItemDraft, workItemRevision } from './executionSteps.js';
import { isRefusal, workItemNamed } from './fencing.js';
import { workItemEvent, type WorkBlockedPayload } from './workEvents.js';
import { leasesOf, renewLease, withExecutionClosed, withLeases, type WorkCheckpoint } from './workLeases.js';
import { progressAtCheckpoint } from './workProgress.js';
import { WORK_EXECUTION_EXAMPLES } from './workExecutionExamples.js';
import { workItemDocument } from './workRecord.js';

/** The payload schema's default `blockedLeaseSeconds` (its bound, one year, is the schema's). */
export const DEFAULT_BLOCKED_LEASE_SECONDS = 900;

export const workBlocked = workItemEvent<WorkBlockedPayload>()('work.blocked');

function decideBlock(state: GroupState, command: CommandOf<'work.block'>, ctx: DecisionContext) {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const execution = checkActiveOwner(workItem, command, payload, ctx, 'block');
  if (isRefusal(execution)) return execution;

  const checkpoint: WorkCheckpoint = payload.checkpoint;
  const released = withExecutionClosed(leasesOf(workItem), 'released', 'blocked', ctx);
  // checkActiveOwner found the ownership lease live.
  const renewed = renewLease(released.ownership!, payload.blockedLeaseSeconds ?? DEFAULT_BLOCKED_LEASE_SECONDS, ctx);
  const ownership = { ...renewed, leaseType: 'blocked' as const };
  const blocked = nextRevision(workItem, { state: 'blocked', progress: progressAtCheckpoint(workItem, checkpoint, [payload.reason]) }, ctx);
  const after = withLeases(blocked, { ...released, ownership, checkpoint });
  return accept(
    workItemDraft('work.blocked', {
      workItemId: after.workItemId,
      workItem: workItemDocument(after),
      reason: payload.reason,
      checkpoint,
      blockedLeaseExpiresAt: ownership.expiresAt,
      ownershipLeaseExpiresAt: ownership.expiresAt,
      releasedExecutionLease: released.closed!.at(-1)!,
    }),
  );
}

export const workBlock = defineKind({
  kind: 'work.block',
  examples: WORK_EXECUTION_EXAMPLES['work.block'],
  scope: 'group',
  authority: ['member'],
  events: [workBlocked],
  target: (state, command) => workItemRevision(state, command.payload.workItemId),
  workItemOf: (_state, command) => command.payload.workItemId,
  conversationOf: (state, command) => workItemConversation(state, command.payload.workItemId),
  decide: decideBlock,
});
