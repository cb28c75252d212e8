/**
 * `work.cancel` (§10.2 unfinished → `cancelled`, §12): the WorkItem is cancelled; every lease is
 * revoked and pending offers withdrawn (§12: cancellation revokes the relevant leases and stops new
 * assignments). Senders: the current Coordinator, which directs the Mission's work (§7.2), and the
 * MissionOwner, who may cancel the whole Mission and with it every unfinished WorkItem (§7.1), so
 * may cancel one of them; §7.1 lets it direct the Coordinator, and this is the narrower act. The
 * reference runtime admits the same two. `cancelled` is terminal for this WorkItem revision.
 * Where cleanup is due (`workCleanup.ts`: recorded external side effects, or risky work that had
 * started), the cancelled WorkItem is marked for the Coordinator and `work.cancelled` says why.
 * A WorkItem promoted to a running child Mission lets go of it (§14: the parent's end reaches the
 * child): the link is marked released, and the Group Authority's reactor cancels the child.
 */

import type { CommandOf } from '../kinds/kindTypes.js';
import { defineKind } from '../kinds/kindTypes.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, type DecisionContext } from '../model.js';
import { endWorkItem, workItemConversation, workItemDraft, workItemRevision } from './executionSteps.js';
import { checkWorkState, isRefusal, workItemNamed } from './fencing.js';
import { cleanupDue, withCleanupDue } from './workCleanup.js';
import { workItemEvent, type WorkCancelledPayload } from './workEvents.js';
import { withChildReleased } from './workItemDocuments.js';
import { UNFINISHED_STATES } from './workFail.js';
import { WORK_EXECUTION_EXAMPLES } from './workExecutionExamples.js';
import { workItemDocument } from './workRecord.js';

export const workCancelled = workItemEvent<WorkCancelledPayload>()('work.cancelled');

function decideCancel(state: GroupState, command: CommandOf<'work.cancel'>, ctx: DecisionContext) {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const refused = checkWorkState(workItem, UNFINISHED_STATES, 'be cancelled');
  if (refused !== null) return refused;
  const { workItem: ended, revokedLeases } = endWorkItem(workItem, 'cancelled', 'WorkItem cancelled', ctx);
  const cleanup = cleanupDue(workItem);
  // A running child Mission is cancelled in its own Group by the Group Authority (childSweeps.ts).
  const released = withChildReleased(ended, 'cancelled', ctx);
  const after = cleanup === undefined ? released : withCleanupDue(released, cleanup);
  return accept(
    workItemDraft('work.cancelled', { workItemId: after.workItemId, workItem: workItemDocument(after), reason: payload.reason, revokedLeases, ...(cleanup === undefined ? {} : { cleanup }) }),
  );
}

export const workCancel = defineKind({
  kind: 'work.cancel',
  examples: WORK_EXECUTION_EXAMPLES['work.cancel'],
  scope: 'group',
  authority: ['coordinator', 'mission-owner'],
  events: [workCancelled],
  target: (state, command) => workItemRevision(state, command.payload.workItemId),
  workItemOf: (_state, command) => command.payload.workItemId,
  conversationOf: (state, command) => workItemConversation(state, command.payload.workItemId),
  decide: decideCancel,
});
