/**
 * `mission.approve` (§7.3, §4.10): the MissionOwner approves exactly the submitted revision and
 * Artifact set with a signed Approval document embedded in the Command.
 */

import { samePrincipal } from '../../protocol/principal.js';
import { fromJson, type Approval, type Lease, type Mission } from '../documents.js';
import type { ApprovedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { refuse, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { sameSet } from '../rules.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';
import { MISSION_REASONS } from './missionReasons.js';
import { checkSubmittedRevision, missionEvent } from './submittedRevision.js';

type ApprovePayload = CommandOf<'mission.approve'>['payload'];

/** The first member in which an embedded signed Approval disagrees with the Command. */
function disagreement(approval: Approval, payload: ApprovePayload, state: GroupState, command: CommandOf<'mission.approve'>): string | null {
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

export function decideApprove(
  state: GroupState,
  command: CommandOf<'mission.approve'>,
  ctx: DecisionContext,
): Decision<EventDraft<'mission.approved', ApprovedPayload>> {
  const { payload } = command;
  const refused = checkSubmittedRevision(state, payload.missionRevision);
  if (refused !== null) return refused;
  if (!sameSet(payload.artifactHashes, state.missionNotes.submission?.artifactHashes ?? [])) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.artifactSetMismatch, 'approve exactly the submitted Artifact set');
  }
  // The final decision is a Signed Document of its own (§7.3), verified by the app before
  // this decision; a flat reference-style payload alone is not an Approval.
  if (payload.approval === undefined) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.approvalDocumentRequired, 'mission.approve must embed the signed Approval document');
  }
  // The embedded Approval passed the approval schema with its six-stage verification (the app's
  // front checks it before any decision), so it is the normative document.
  const approval = fromJson<Approval>(payload.approval);
  const member = disagreement(approval, payload, state, command);
  if (member !== null) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.approvalDisagrees, 'the signed Approval disagrees with the Command', { member });
  }
  const mission: Mission = { ...state.mission, state: 'approved', revision: state.mission.revision + 1 };
  // Approval ends the Coordinator's work: its lease is released, not left running.
  const coordinatorLease: Lease = { ...state.coordinatorLease, state: 'released', closedAt: ctx.now, closureReason: 'Mission approved' };
  return missionEvent('mission.approved', { approval, coordinatorLease, mission });
}

export const missionApproved = defineEvent<ApprovedPayload>()({
  kind: 'mission.approved',
  addressees: workAddressees,
  evolve: (state, { approval, mission, coordinatorLease }) => ({
    ...state,
    mission,
    coordinatorLease,
    missionNotes: { ...state.missionNotes, approval },
  }),
});

export const missionApprove = defineKind({
  kind: 'mission.approve',
  examples: MISSION_EXAMPLES['mission.approve'],
  scope: 'group',
  authority: ['mission-owner'],
  missionStates: ['awaiting_approval'],
  events: [missionApproved],
  embedded: { member: 'approval', document: 'approval' },
  target: (state) => state.mission.revision,
  decide: decideApprove,
});
