/**
 * What the MissionOwner's answers to a submission (§7.3) share: each names the submitted
 * revision, not whatever the Mission's revision is now, and emits a Mission Event carrying the
 * Mission document it produced (`missionApprove.ts`, `missionRequestChanges.ts`).
 */

import type { Mission } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, refuse, type Decision, type EventDraft, type Refusal } from '../model.js';
import { MISSION_REASONS } from './missionReasons.js';

/** A Mission Event carries the Mission document it produced. */
export function missionEvent<K extends string, P extends { readonly mission: Mission }>(kind: K, payload: P): Decision<EventDraft<K, P>> {
  const { mission } = payload;
  return accept({
    kind,
    payload,
    aggregate: { type: 'mission', id: mission.missionId, revision: mission.revision },
  });
}

/** The owner answers the submitted revision, not whatever the Mission's revision is now. */
export function checkSubmittedRevision(state: GroupState, missionRevision: number): Refusal | null {
  const submitted = state.missionNotes.submission?.missionRevision;
  if (submitted === missionRevision) return null;
  return refuse('REVISION_CONFLICT', MISSION_REASONS.submittedRevisionMismatch, 'that is not the submitted Mission revision', {
    currentRevision: state.mission.revision,
    ...(submitted === undefined ? {} : { submittedRevision: submitted }),
  });
}
