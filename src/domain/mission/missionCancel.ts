/**
 * `mission.cancel` (§7.1): the MissionOwner or policy ends the Mission; its unfinished work is
 * cancelled. The Group Authority also sends it, citing `parentMissionId`, to propagate a parent's
 * cancellation or failure into a running child (§14), and citing `parentWorkItemId` too when only
 * the parent WorkItem failed or was cancelled.
 */

import type { MissionClosedPayload } from '../groupEvents.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideCancel, withClosedMission } from './closeMission.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';

export const missionCancelled = defineEvent<MissionClosedPayload>()({
  kind: 'mission.cancelled',
  addressees: workAddressees,
  evolve: withClosedMission,
});

export const missionCancel = defineKind({
  kind: 'mission.cancel',
  examples: MISSION_EXAMPLES['mission.cancel'],
  scope: 'group',
  authority: ['mission-owner', 'organization-authority'],
  events: [missionCancelled],
  // Parent-cancellation propagation is checked against the parent as the store holds it: the
  // parent Mission's facts, and for a parent WorkItem's end the parent Group's state (ancestry).
  preload: { missions: (command) => [command.payload.parentMissionId] },
  ancestry: (command) => command.payload.parentWorkItemId !== undefined,
  target: (state) => state.mission.revision,
  decide: decideCancel,
});
