/**
 * `mission.approve` (§7.3, §4.10): the MissionOwner approves exactly the submitted revision and
 * Artifact set with a signed Approval document embedded in the Command.
 */

import type { ApprovedPayload } from '../groupEvents.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideApprove } from './approval.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';

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
