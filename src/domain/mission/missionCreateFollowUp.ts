/** `mission.create_follow_up` (§7.1): a new Mission that follows up an approved one of the same owner. */

import type { MissionCreatedPayload } from '../groupEvents.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideFollowUpCreate } from './missionCreate.js';
import { foundGroup } from './missionCreate.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';

export const missionFollowUpCreated = defineEvent<MissionCreatedPayload>()({
  kind: 'mission.follow_up.created',
  addressees: workAddressees,
  founds: true,
  found: (payload, meta) => foundGroup(payload, meta.sequence),
});

export const missionCreateFollowUp = defineKind({
  kind: 'mission.create_follow_up',
  examples: MISSION_EXAMPLES['mission.create_follow_up'],
  scope: 'new-group',
  authority: ['creator'],
  events: [missionFollowUpCreated],
  creates: (command) => ({ groupId: command.payload.groupId, missionId: command.payload.missionId }),
  preload: {
    agents: (command) => [command.payload.coordinatorId],
    missions: (command) => [command.payload.missionId, command.payload.followUpOfMissionId],
  },
  target: () => 0,
  conversationOf: (_state, command) => command.payload.mainConversationId,
  decide: decideFollowUpCreate,
});
