/**
 * `work.fail` (§10.2 unfinished → `failed`, §11.3, §11.4): a WorkItem fails, with failure
 * Evidence (required: §10.2 "Failure Evidence required", §11.4 "emits `work.failed` with
 * Evidence"). Two senders:
 *
 * - the owner (a Worker-reported failure) cites its Ownership Epoch and current Execution Lease
 *   ID (§11.3), so only an `active` WorkItem, and the Evidence is its own;
 * - the current Coordinator, under its Coordinator Epoch and live lease (§7.2), from any
 *   unfinished state, citing neither.
 *
 * Every lease is revoked and pending offers withdrawn; `failed` returns control to the
 * Coordinator, who may offer the WorkItem again (§10.2). A running child Mission it was promoted
 * to is released and then cancelled by the Group Authority, as under `work.cancel` (§14).
 */

import type { CommandOf } from '../kinds/kindTypes.js';
import { defineKind } from '../kinds/kindTypes.js';
import type { GroupState } from '../kinds/groupState.js';
import { checkCoordinatorLease, holdsCoordinatorLease } from '../stateQueries.js';
import { accept, refuse, type DecisionContext, type Refusal } from '../model.js';
import { checkActiveOwner, endWorkItem, workItemConversation, workItemDraft, workItemRevision } from './executionSteps.js';
import { checkWorkState, isRefusal, workItemNamed } from './fencing.js';
import { checkEvidence, evidenceIdsOf } from './workEvidence.js';
import { workItemEvent, type WorkFailedPayload } from './workEvents.js';
import { progressOf, withEvidenceIds } from './workProgress.js';
import { withChildReleased } from './workItemDocuments.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXECUTION_EXAMPLES } from './workExecutionExamples.js';
import { workItemDocument, type WorkRecord } from './workRecord.js';

/** The §10.2 states `work.fail` and `work.cancel` leave. */
export const UNFINISHED_STATES: readonly WorkRecord['state'][] = ['open', 'offered', 'queued', 'active', 'blocked', 'submitted'];

export const workFailed = workItemEvent<WorkFailedPayload>()('work.failed');

type FailCommand = CommandOf<'work.fail'>;

/** Who may fail the WorkItem this way: the fenced owner, or the current Coordinator. */
function checkSender(state: GroupState, workItem: WorkRecord, command: FailCommand, ctx: DecisionContext): Refusal | null {
  const { ownershipEpoch, executionLeaseId } = command.payload;
  if (ownershipEpoch !== undefined && executionLeaseId !== undefined) {
    const execution = checkActiveOwner(workItem, command, { ownershipEpoch, executionLeaseId }, ctx, 'fail as its owner');
    return isRefusal(execution) ? execution : null;
  }
  if (!holdsCoordinatorLease(state, command.actor)) {
    return refuse('AUTH_FORBIDDEN', WORK_REASONS.notAuthorized, 'only the owner, citing its lease, or the Coordinator may fail a WorkItem');
  }
  const lease = checkCoordinatorLease(state, command, ctx);
  if (lease !== null && !lease.ok) return lease;
  return checkWorkState(workItem, UNFINISHED_STATES, 'fail');
}

function decideFail(state: GroupState, command: FailCommand, ctx: DecisionContext) {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const refused = checkSender(state, workItem, command, ctx);
  if (refused !== null) return refused;
  const evidence = payload.evidence ?? [];
  if (evidence.length === 0) {
    return refuse('INVALID_COMMAND', WORK_REASONS.failureEvidenceRequired, 'a failure needs failure Evidence', { workItemId: workItem.workItemId });
  }
  const workerReported = payload.executionLeaseId !== undefined;
  const badEvidence = checkEvidence(workItem, evidence, {
    artifactHashes: workItem.submission?.artifactHashes ?? [],
    ...(workerReported ? { producer: command.actor } : {}),
  });
  if (badEvidence !== null) return badEvidence;

  const progress = withEvidenceIds(progressOf(workItem), evidenceIdsOf(evidence));
  const { workItem: ended, revokedLeases } = endWorkItem(workItem, 'failed', 'WorkItem failed', ctx, { progress });
  // As `work.cancel`: a running child Mission is released here and cancelled by the reactor.
  const after = withChildReleased(ended, 'failed', ctx);
  return accept(workItemDraft('work.failed', { workItemId: after.workItemId, workItem: workItemDocument(after), reason: payload.reason, evidence, revokedLeases }));
}

export const workFail = defineKind({
  kind: 'work.fail',
  examples: WORK_EXECUTION_EXAMPLES['work.fail'],
  scope: 'group',
  // Any member reaches the decider, which admits only the owner (fenced by its lease) or the
  // current Coordinator; listing `coordinator` fences a replaced Coordinator's delayed Command.
  authority: ['coordinator', 'member'],
  events: [workFailed],
  // Each Evidence is a Signed Document (§13.2), six-stage verified like the Command (§6.4).
  embedded: { member: 'evidence', document: 'evidence', many: true },
  target: (state, command) => workItemRevision(state, command.payload.workItemId),
  workItemOf: (_state, command) => command.payload.workItemId,
  conversationOf: (state, command) => workItemConversation(state, command.payload.workItemId),
  decide: decideFail,
});
