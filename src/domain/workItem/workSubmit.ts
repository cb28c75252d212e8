/**
 * `work.submit` (§10.2 `active` → `submitted`, §11.3, §13.2): the owner submits its result under
 * its current Execution Lease: the Artifacts and the Evidence mapped to the acceptance criteria,
 * which must be its own and about this WorkItem or one of those Artifacts. Every submitted Artifact
 * is one this WorkItem published (`artifact.publish`, §13.1): a hash alone proves nothing was
 * produced. The Evidence covers every acceptance criterion with a kind the criterion requires
 * (§13.2, `workEvidence.ts`). Submission releases the Execution Lease; ownership stays until the
 * Coordinator accepts the result.
 *
 * A late result from a fenced owner (an older Ownership Epoch: `WORK_STALE_OWNERSHIP`; an older or
 * closed Lease ID: `WORK_LEASE_EXPIRED`) is refused and changes nothing (§11.5: it MUST NOT
 * complete the WorkItem). The refusal, not a stored copy, is its audit record here.
 */

import type { CommandOf } from '../kinds/kindTypes.js';
import { defineKind } from '../kinds/kindTypes.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, refuse, type DecisionContext, type Refusal } from '../model.js';
import { checkActiveOwner, nextRevision, workItemConversation, workItemDraft, workItemRevision } from './executionSteps.js';
import { isRefusal, workItemNamed } from './fencing.js';
import { checkCoverage, checkEvidence, evidenceIdsOf } from './workEvidence.js';
import { workItemEvent, type WorkSubmittedPayload } from './workEvents.js';
import { leasesOf, withExecutionClosed, withLeases } from './workLeases.js';
import { progressOf, withEvidenceIds } from './workProgress.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXECUTION_EXAMPLES } from './workExecutionExamples.js';
import { workItemDocument, type WorkRecord } from './workRecord.js';

export const workSubmitted = workItemEvent<WorkSubmittedPayload>()('work.submitted');

/** The first submitted hash that is not an Artifact this WorkItem published, as a refusal. */
function checkOwnArtifacts(state: GroupState, workItem: WorkRecord, artifactHashes: readonly string[]): Refusal | null {
  const foreign = artifactHashes.find((hash) => state.artifacts.get(hash)?.workItemId !== workItem.workItemId);
  if (foreign === undefined) return null;
  return refuse('INVALID_COMMAND', WORK_REASONS.artifactNotPublished, 'submit only Artifacts this WorkItem published', { workItemId: workItem.workItemId, contentHash: foreign });
}

function decideSubmit(state: GroupState, command: CommandOf<'work.submit'>, ctx: DecisionContext) {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const execution = checkActiveOwner(workItem, command, payload, ctx, 'submit');
  if (isRefusal(execution)) return execution;
  const refused =
    checkOwnArtifacts(state, workItem, payload.artifactHashes) ??
    checkEvidence(workItem, payload.evidence, { artifactHashes: payload.artifactHashes, producer: command.actor, published: state.artifacts }) ??
    checkCoverage(workItem, payload.evidence, 'required');
  if (refused !== null) return refused;

  const evidenceIds = evidenceIdsOf(payload.evidence);
  const released = withExecutionClosed(leasesOf(workItem), 'released', 'submitted', ctx);
  const submitted = nextRevision(
    workItem,
    {
      state: 'submitted',
      submission: { artifactHashes: payload.artifactHashes, evidenceIds, submittedAt: ctx.now },
      progress: withEvidenceIds(progressOf(workItem), evidenceIds),
    },
    ctx,
  );
  const after = withLeases(submitted, released);
  return accept(
    workItemDraft('work.submitted', {
      workItemId: after.workItemId,
      workItem: workItemDocument(after),
      ownershipEpoch: payload.ownershipEpoch,
      artifactHashes: payload.artifactHashes,
      evidence: payload.evidence,
      releasedExecutionLease: released.closed!.at(-1)!,
    }),
  );
}

export const workSubmit = defineKind({
  kind: 'work.submit',
  examples: WORK_EXECUTION_EXAMPLES['work.submit'],
  scope: 'group',
  authority: ['member'],
  events: [workSubmitted],
  // Each Evidence is a Signed Document (§13.2), six-stage verified like the Command (§6.4).
  embedded: { member: 'evidence', document: 'evidence', many: true },
  target: (state, command) => workItemRevision(state, command.payload.workItemId),
  workItemOf: (_state, command) => command.payload.workItemId,
  conversationOf: (state, command) => workItemConversation(state, command.payload.workItemId),
  decide: decideSubmit,
});
