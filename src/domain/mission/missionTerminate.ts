/** `mission.terminate` (§7.1): the Coordinator or policy ends the Mission as failed. */

import type { MissionClosedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, type DecisionContext } from '../model.js';
import { closingEvent, TERMINATED, withClosedMission } from './closeMission.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';

export function decideTerminate(state: GroupState, command: CommandOf<'mission.terminate'>, ctx: DecisionContext) {
  return accept(closingEvent(state, command.payload.reason, TERMINATED, ctx));
}

export const missionTerminated = defineEvent<MissionClosedPayload>()({
  kind: 'mission.terminated',
  addressees: workAddressees,
  evolve: withClosedMission,
});

export const missionTerminate = defineKind({
  kind: 'mission.terminate',
  examples: MISSION_EXAMPLES['mission.terminate'],
  scope: 'group',
  authority: ['coordinator', 'organization-authority'],
  events: [missionTerminated],
  target: (state) => state.mission.revision,
  decide: decideTerminate,
});
