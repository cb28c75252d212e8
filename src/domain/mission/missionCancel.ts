/** `mission.cancel` (§7.1): the MissionOwner or policy ends the Mission; its unfinished work is cancelled. */

import type { MissionClosedPayload } from '../group/events.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideCancel, withClosedMission } from './closeMission.js';

export const missionCancelled = defineEvent<MissionClosedPayload>()({
  kind: 'mission.cancelled',
  evolve: withClosedMission,
});

export const missionCancel = defineKind({
  kind: 'mission.cancel',
  scope: 'group',
  authority: ['mission-owner', 'organization-authority'],
  events: [missionCancelled],
  target: (state) => state.mission.revision,
  decide: decideCancel,
});
