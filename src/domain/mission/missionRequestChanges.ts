/** `mission.request_changes` (§7.3): the MissionOwner sends the submitted revision back with feedback. */

import type { ChangesRequestedPayload } from '../groupEvents.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideRequestChanges } from './approval.js';
import { MISSION_EXAMPLES } from './missionExamples.js';

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
