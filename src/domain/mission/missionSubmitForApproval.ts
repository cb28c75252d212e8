/** `mission.submit_for_approval` (§7.3): the Coordinator submits one revision and Artifact set. */

import type { SubmittedPayload } from '../group/events.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideSubmitForApproval } from './approval.js';

export const missionSubmittedForApproval = defineEvent<SubmittedPayload>()({
  kind: 'mission.submitted_for_approval',
  evolve: (state, { missionRevision, artifactHashes, mission }, meta) => ({
    ...state,
    mission,
    missionNotes: { ...state.missionNotes, submission: { missionRevision, artifactHashes, submittedAt: meta.occurredAt } },
  }),
});

export const missionSubmitForApproval = defineKind({
  kind: 'mission.submit_for_approval',
  scope: 'group',
  authority: ['coordinator'],
  missionStates: ['active'],
  events: [missionSubmittedForApproval],
  target: (state) => state.mission.revision,
  decide: decideSubmitForApproval,
});
