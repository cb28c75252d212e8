/**
 * `work.checkpoint` (§10.2 `active` → `queued`, §11.3, §11.4): the owner records durable,
 * structured progress under its current Execution Lease and releases execution. The WorkItem
 * re-enters its queue, still owned: the ownership lease is renewed for `resumeWithinSeconds`,
 * the span in which the owner must start it again before the Coordinator may reassign it (§11.5).
 * This is also the cooperative preemption point of §11.3.
 */

import type { CommandOf } from '../kinds/kindTypes.js';
import { defineKind } from '../kinds/kindTypes.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, type DecisionContext } from '../model.js';
import { checkActiveOwner, nextRevision, workItemConversation, workItemDraft, workItemRevision } from './executionSteps.js';
import { isRefusal, workItemNamed } from './fencing.js';
import { workItemEvent, type WorkCheckpointedPayload } from './workEvents.js';
import { leasesOf, renewLease, withExecutionClosed, withLeases, type WorkCheckpoint } from './workLeases.js';
import { progressAtCheckpoint } from './workProgress.js';
import { resourceUsageRecorded } from './resourceUsage.js';
import { childUsageRecorded } from './childUsageRecorded.js';
import { chargesOfflineUsage } from './reconcileOffline.js';
import { WORK_EXECUTION_EXAMPLES } from './workExecutionExamples.js';
import { workItemDocument } from './workRecord.js';

/** The payload schema's default `resumeWithinSeconds` (its bound, one year, is the schema's). */
export const DEFAULT_RESUME_SECONDS = 900;

export const workCheckpointed = workItemEvent<WorkCheckpointedPayload>()('work.checkpointed');

function decideCheckpoint(state: GroupState, command: CommandOf<'work.checkpoint'>, ctx: DecisionContext) {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const execution = checkActiveOwner(workItem, command, payload, ctx, 'checkpoint');
  if (isRefusal(execution)) return execution;

  const checkpoint: WorkCheckpoint = payload.checkpoint;
  const released = withExecutionClosed(leasesOf(workItem), 'released', 'checkpointed', ctx);
  // checkActiveOwner found the ownership lease live.
  const ownership = renewLease(released.ownership!, payload.resumeWithinSeconds ?? DEFAULT_RESUME_SECONDS, ctx);
  const queued = nextRevision(workItem, { state: 'queued', progress: progressAtCheckpoint(workItem, checkpoint, []) }, ctx);
  const after = withLeases(queued, { ...released, ownership, checkpoint });
  return accept(
    workItemDraft('work.checkpointed', {
      workItemId: after.workItemId,
      workItem: workItemDocument(after),
      checkpoint,
      ownershipLeaseExpiresAt: ownership.expiresAt,
      releasedExecutionLease: released.closed!.at(-1)!,
    }),
  );
}

export const workCheckpoint = defineKind({
  kind: 'work.checkpoint',
  examples: WORK_EXECUTION_EXAMPLES['work.checkpoint'],
  scope: 'group',
  authority: ['member'],
  // A checkpoint buffered offline comes charged: its usage Event first (reconcileOffline.ts, §11.5).
  events: [workCheckpointed, resourceUsageRecorded, childUsageRecorded],
  ancestry: chargesOfflineUsage,
  target: (state, command) => workItemRevision(state, command.payload.workItemId),
  workItemOf: (_state, command) => command.payload.workItemId,
  conversationOf: (state, command) => workItemConversation(state, command.payload.workItemId),
  decide: decideCheckpoint,
});
