/**
 * Mission completion (§7.3): the Coordinator submits one Mission revision and Artifact set, and
 * the MissionOwner either requests changes or approves exactly that revision and set.
 */

import { samePrincipal } from '../../protocol/principal.js';
import { fromJson, toJson, type Approval, type Lease, type Mission } from '../documents.js';
import type { GroupState } from '../group/groupState.js';
import { accept, refuse, type CommandEnvelope, type Decision, type DecisionContext } from '../model.js';
import { sameSet, sortedSet } from '../rules.js';

interface SubmitPayload {
  readonly artifactHashes: readonly string[];
}

interface RequestChangesPayload {
  readonly missionRevision: number;
  readonly feedback: string;
}

interface ApprovePayload {
  readonly approvalId: string;
  readonly missionRevision: number;
  readonly artifactHashes: readonly string[];
  readonly acceptancePolicyVersion: string;
  readonly comments?: string;
  readonly approval?: Approval;
}

function missionEvent(kind: string, payload: object, mission: Mission): Decision {
  return accept({
    kind,
    payload: toJson({ ...payload, mission }),
    aggregate: { type: 'mission', id: mission.missionId, revision: mission.revision },
  });
}

export function decideSubmitForApproval(state: GroupState, command: CommandEnvelope): Decision {
  const { artifactHashes } = fromJson<SubmitPayload>(command.payload);
  if (artifactHashes.length === 0 || sortedSet(artifactHashes).length !== artifactHashes.length) {
    return refuse('INVALID_COMMAND', 'artifact-set-invalid', 'submit a non-empty set of distinct Artifact hashes');
  }
  const mission: Mission = { ...state.mission, state: 'awaiting_approval', revision: state.mission.revision + 1 };
  return missionEvent(
    'mission.submitted_for_approval',
    { missionRevision: mission.revision, artifactHashes: sortedSet(artifactHashes) },
    mission,
  );
}

/** The owner answers the submitted revision, not whatever the Mission's revision is now. */
function checkSubmittedRevision(state: GroupState, missionRevision: number): Decision | null {
  const submitted = state.missionNotes.submission?.missionRevision;
  if (submitted === missionRevision) return null;
  return refuse('REVISION_CONFLICT', 'submitted-revision-mismatch', 'that is not the submitted Mission revision', {
    currentRevision: state.mission.revision,
    ...(submitted === undefined ? {} : { submittedRevision: submitted }),
  });
}

export function decideRequestChanges(state: GroupState, command: CommandEnvelope): Decision {
  const payload = fromJson<RequestChangesPayload>(command.payload);
  const refused = checkSubmittedRevision(state, payload.missionRevision);
  if (refused !== null) return refused;
  const mission: Mission = { ...state.mission, state: 'active', revision: state.mission.revision + 1 };
  return missionEvent(
    'mission.changes_requested',
    { missionRevision: payload.missionRevision, feedback: payload.feedback },
    mission,
  );
}

/** The first member in which an embedded signed Approval disagrees with the Command. */
function disagreement(approval: Approval, payload: ApprovePayload, state: GroupState, command: CommandEnvelope): string | null {
  const kind = state.mission.parent === undefined ? 'mission_final' : 'child_mission';
  const checks: [string, boolean][] = [
    ['approver', samePrincipal(approval.approver, command.actor)],
    ['approvalId', approval.approvalId === payload.approvalId],
    ['kind', approval.kind === kind],
    ['decision', approval.decision === 'approved'],
    ['missionId', approval.missionId === state.mission.missionId],
    ['groupId', approval.groupId === state.groupId],
    ['missionRevision', approval.missionRevision === payload.missionRevision],
    ['artifactHashes', sameSet(approval.artifactHashes, payload.artifactHashes)],
    ['acceptancePolicyVersion', approval.acceptancePolicyVersion === payload.acceptancePolicyVersion],
    ['comments', payload.comments === undefined || approval.comments === payload.comments],
  ];
  return checks.find(([, agrees]) => !agrees)?.[0] ?? null;
}

export function decideApprove(state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  const payload = fromJson<ApprovePayload>(command.payload);
  const refused = checkSubmittedRevision(state, payload.missionRevision);
  if (refused !== null) return refused;
  if (!sameSet(payload.artifactHashes, state.missionNotes.submission?.artifactHashes ?? [])) {
    return refuse('INVALID_COMMAND', 'artifact-set-mismatch', 'approve exactly the submitted Artifact set');
  }
  // The final decision is a Signed Document of its own (§7.3), verified by the app before
  // this decision; a flat reference-style payload alone is not an Approval.
  if (payload.approval === undefined) {
    return refuse('INVALID_COMMAND', 'approval-document-required', 'mission.approve must embed the signed Approval document');
  }
  const member = disagreement(payload.approval, payload, state, command);
  if (member !== null) {
    return refuse('INVALID_COMMAND', 'approval-disagrees', 'the signed Approval disagrees with the Command', { member });
  }
  const approval: Approval = payload.approval;
  const mission: Mission = { ...state.mission, state: 'approved', revision: state.mission.revision + 1 };
  // Approval ends the Coordinator's work: its lease is released, not left running.
  const coordinatorLease: Lease = { ...state.coordinatorLease, state: 'released', closedAt: ctx.now, closureReason: 'Mission approved' };
  return missionEvent('mission.approved', { approval, coordinatorLease }, mission);
}
