/** `mission.request_changes` (§7.3): the MissionOwner sends the submitted revision back with feedback. */

import type { Mission } from '../documents.js';
import type { ChangesRequestedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import type { Decision, EventDraft } from '../model.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { checkSubmittedRevision, missionEvent } from './submittedRevision.js';

export function decideRequestChanges(
  state: GroupState,
  command: CommandOf<'mission.request_changes'>,
): Decision<EventDraft<'mission.changes_requested', ChangesRequestedPayload>> {
  const { payload } = command;
  const refused = checkSubmittedRevision(state, payload.missionRevision);
  if (refused !== null) return refused;
  const mission: Mission = { ...state.mission, state: 'active', revision: state.mission.revision + 1 };
  return missionEvent(
    'mission.changes_requested',
    { missionRevision: payload.missionRevision, feedback: payload.feedback, mission },
  );
}

export const missionChangesRequested = defineEvent<ChangesRequestedPayload>()({
  kind: 'mission.changes_requested',
  evolve: (state, { mission }) => {
    const { submission: _answered, ...notes } = state.missionNotes;
    return { ...state, mission, missionNotes: notes };
  },
});

export const missionRequestChanges = defineKind({
  kind: 'mission.request_changes',
  examples: MISSION_EXAMPLES['mission.request_changes'],
  scope: 'group',
  authority: ['mission-owner'],
  missionStates: ['awaiting_approval'],
  events: [missionChangesRequested],
  target: (state) => state.mission.revision,
  decide: decideRequestChanges,
});
