/**
 * `work.accept_result` (§10.2 `submitted` → `verified`, §7.2, §13.2): the current Coordinator,
 * under its Coordinator Epoch (§15.1 lists this kind among those that must carry it), accepts a
 * submitted result after Evidence-based review. The review Evidence must be about this WorkItem or
 * its submitted Artifacts, record a passed result, not come from the owner whose work it
 * reviews, and together cover every acceptance criterion of the Work Contract (§13.2: the review
 * is the acceptance judgement per criterion, `workEvidence.ts`); a Coordinator that owns the WorkItem itself cannot accept it (§7.2: never the sole
 * reviewer of its own output). `verified` is terminal: every lease is released, the submission
 * and review Evidence stay in the WorkItem's progress.
 */

import { samePrincipal } from '../../protocol/principal.js';
import type { CommandOf } from '../kinds/kindTypes.js';
import { defineKind } from '../kinds/kindTypes.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, refuse, type DecisionContext } from '../model.js';
import { nextRevision, workItemConversation, workItemDraft, workItemRevision } from './executionSteps.js';
import { checkWorkState, isRefusal, workItemNamed } from './fencing.js';
import { checkCoverage, checkEvidence, evidenceIdsOf } from './workEvidence.js';
import { workItemEvent, type WorkResultAcceptedPayload } from './workEvents.js';
import { leasesOf, withAllClosed, withLeases } from './workLeases.js';
import { progressOf, withEvidenceIds } from './workProgress.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXECUTION_EXAMPLES } from './workExecutionExamples.js';
import { workItemDocument } from './workRecord.js';

export const workResultAccepted = workItemEvent<WorkResultAcceptedPayload>()('work.result.accepted');

function decideAcceptResult(state: GroupState, command: CommandOf<'work.accept_result'>, ctx: DecisionContext) {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const refused = checkWorkState(workItem, ['submitted'], 'have its result accepted');
  if (refused !== null) return refused;
  // A submitted WorkItem has an owner and a submission (the work-item schema requires both).
  const owner = { type: 'agent' as const, id: workItem.owner!.agentId };
  if (samePrincipal(command.actor, owner)) {
    return refuse('AUTH_FORBIDDEN', WORK_REASONS.coordinatorReviewsOwnWork, 'the Coordinator cannot accept a result it produced', { workItemId: workItem.workItemId });
  }
  const submission = workItem.submission!;
  const badEvidence =
    checkEvidence(workItem, payload.evidence, { artifactHashes: submission.artifactHashes, notProducer: owner, passed: true, published: state.artifacts }) ??
    checkCoverage(workItem, payload.evidence, 'any');
  if (badEvidence !== null) return badEvidence;

  const progress = withEvidenceIds(progressOf(workItem), [...submission.evidenceIds, ...evidenceIdsOf(payload.evidence)]);
  const verified = nextRevision(workItem, { state: 'verified', progress: { ...progress, blockers: [] } }, ctx);
  const after = withLeases(verified, withAllClosed(leasesOf(workItem), 'released', 'result accepted', ctx));
  return accept(workItemDraft('work.result.accepted', { workItemId: after.workItemId, workItem: workItemDocument(after), evidence: payload.evidence }));
}

export const workAcceptResult = defineKind({
  kind: 'work.accept_result',
  examples: WORK_EXECUTION_EXAMPLES['work.accept_result'],
  scope: 'group',
  authority: ['coordinator'],
  // A replacement Coordinator's assignment waits for its Context Package (§7.2).
  assigns: true,
  missionStates: ['active'],
  events: [workResultAccepted],
  // Each Evidence is a Signed Document (§13.2), six-stage verified like the Command (§6.4).
  embedded: { member: 'evidence', document: 'evidence', many: true },
  target: (state, command) => workItemRevision(state, command.payload.workItemId),
  workItemOf: (_state, command) => command.payload.workItemId,
  conversationOf: (state, command) => workItemConversation(state, command.payload.workItemId),
  decide: decideAcceptResult,
});
