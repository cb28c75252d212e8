/**
 * `mission.submit_for_approval` (§7.3): the Coordinator submits one Mission revision and Artifact
 * set, after reviewing every required WorkItem result.
 *
 * What "required" means here (`missionProgress.ts`): every WorkItem that was not cancelled must
 * be `verified` — its result accepted on Evidence by the Coordinator, or, for a WorkItem linked
 * to a child Mission, the child approved (the child's Approval becomes its Evidence, §14). A
 * failed WorkItem holds the Mission up until it is re-offered and verified, or cancelled.
 *
 * The Artifact set is what the MissionOwner will approve, so it holds only accepted results: each
 * hash is in the accepted submission of a verified WorkItem of this Group. For this Group's own
 * WorkItems that means an Artifact published here by that WorkItem (`work.submit` takes nothing
 * else); for a child-Mission WorkItem, the Artifact set its child's MissionOwner approved. A
 * hash never published here nor approved in a child is `artifact-not-published`; one published
 * but not in an accepted result (a draft, a cancelled WorkItem's output) is `artifact-not-accepted`.
 *
 * §13.2 step 5 ("retain all results for final human Approval"): the Event references, per
 * definition-of-done criterion, the verified WorkItems whose Work Contract carries a criterion of
 * the same ID — the Coordinator decomposes the Mission's criteria into its WorkItems' under the
 * same IDs — whose accepted Evidence is in their progress and `work.result.accepted` Events.
 */

import type { Mission, WorkItem } from '../documents.js';
import type { SubmittedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Refusal } from '../model.js';
import { sortedSet } from '../rules.js';
import { deriveMissionProgress } from './missionProgress.js';
import { MISSION_REASONS } from './missionReasons.js';
import { MISSION_EXAMPLES } from './missionExamples.js';

/** WorkItems an unaccepted-work refusal names, and WorkItems a criterion's support lists. */
const WORK_ITEMS_LISTED = 16;

/** The verified WorkItems that support one definition-of-done criterion (§13.2 step 5). */
export interface CriterionSupport {
  readonly criterionId: string;
  /** How many verified WorkItems carry the criterion; the first `WORK_ITEMS_LISTED` are named. */
  readonly workItemCount: number;
  readonly workItemIds: readonly string[];
}

export interface MissionSubmittedPayload extends SubmittedPayload {
  readonly definitionOfDoneSupport: readonly CriterionSupport[];
}

export const missionSubmittedForApproval = defineEvent<MissionSubmittedPayload>()({
  kind: 'mission.submitted_for_approval',
  evolve: (state, { missionRevision, artifactHashes, mission }, meta) => ({
    ...state,
    mission,
    missionNotes: { ...state.missionNotes, submission: { missionRevision, artifactHashes, submittedAt: meta.occurredAt } },
  }),
});

const isVerified = (w: WorkItem): boolean => w.state === 'verified';

/** The first hash that is not an accepted result of this Mission, as a refusal. */
function checkAcceptedArtifacts(state: GroupState, artifactHashes: readonly string[]): Refusal | null {
  const accepted = new Set<string>();
  for (const w of state.workItems.values()) if (isVerified(w)) for (const hash of w.submission?.artifactHashes ?? []) accepted.add(hash);
  for (const hash of artifactHashes) {
    if (accepted.has(hash)) continue;
    const details = { contentHash: hash };
    if (!state.artifacts.has(hash)) return refuse('INVALID_COMMAND', MISSION_REASONS.artifactNotPublished, 'submit only Artifacts published in this Mission', details);
    return refuse('INVALID_COMMAND', MISSION_REASONS.artifactNotAccepted, 'submit only Artifacts of accepted WorkItem results', details);
  }
  return null;
}

function supportOf(state: GroupState): CriterionSupport[] {
  const verified = [...state.workItems.values()].filter(isVerified);
  return state.mission.definitionOfDone.map(({ criterionId }) => {
    const ids = verified.filter((w) => w.contract.acceptanceCriteria.some((c) => c.criterionId === criterionId)).map((w) => w.workItemId);
    return { criterionId, workItemCount: ids.length, workItemIds: ids.slice(0, WORK_ITEMS_LISTED) };
  });
}

function decideSubmitForApproval(state: GroupState, command: CommandOf<'mission.submit_for_approval'>) {
  const { artifactHashes } = command.payload;
  if (artifactHashes.length === 0 || sortedSet(artifactHashes).length !== artifactHashes.length) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.artifactSetInvalid, 'submit a non-empty set of distinct Artifact hashes');
  }
  const progress = deriveMissionProgress(state);
  if (!progress.complete) {
    return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.requiredWorkUnaccepted, 'every required WorkItem must be verified before the Mission is submitted', {
      unacceptedCount: progress.unaccepted.length,
      unacceptedWorkItemIds: progress.unaccepted.slice(0, WORK_ITEMS_LISTED),
    });
  }
  const refused = checkAcceptedArtifacts(state, artifactHashes);
  if (refused !== null) return refused;
  const mission: Mission = { ...state.mission, state: 'awaiting_approval', revision: state.mission.revision + 1 };
  return accept({
    kind: 'mission.submitted_for_approval' as const,
    payload: { missionRevision: mission.revision, artifactHashes: sortedSet(artifactHashes), mission, definitionOfDoneSupport: supportOf(state) },
    aggregate: { type: 'mission' as const, id: mission.missionId, revision: mission.revision },
  });
}

export const missionSubmitForApproval = defineKind({
  kind: 'mission.submit_for_approval',
  examples: MISSION_EXAMPLES['mission.submit_for_approval'],
  scope: 'group',
  authority: ['coordinator'],
  missionStates: ['active'],
  events: [missionSubmittedForApproval],
  target: (state) => state.mission.revision,
  decide: decideSubmitForApproval,
});
