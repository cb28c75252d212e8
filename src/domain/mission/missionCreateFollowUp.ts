/** `mission.create_follow_up` (§7.1): a new Mission that follows up an approved one of the same owner. */

import { samePrincipal } from '../../protocol/principal.js';
import type { MissionCreatedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { refuse, type DecisionContext, type Refusal } from '../model.js';
import { createMission, foundGroup } from './missionCreate.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';
import { MISSION_REASONS } from './missionReasons.js';

/** The Mission followed up: an approved Mission of the same owner (corrections never reopen it). Its ID, or the refusal. */
function followUpSource(command: CommandOf<'mission.create_follow_up'>, ctx: DecisionContext): Refusal | string {
  const { payload } = command;
  const source = ctx.mission(payload.followUpOfMissionId);
  if (source === undefined) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.followUpSourceUnknown, 'the Mission to follow up does not exist');
  }
  if (!samePrincipal(source.missionOwner, command.actor)) {
    return refuse('AUTH_FORBIDDEN', MISSION_REASONS.notSourceMissionOwner, 'only the MissionOwner may follow up a Mission');
  }
  if (source.state !== 'approved') {
    return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.followUpSourceNotApproved, 'only an approved Mission is followed up');
  }
  return source.missionId;
}

export function decideFollowUpCreate(state: GroupState | null, command: CommandOf<'mission.create_follow_up'>, ctx: DecisionContext) {
  return createMission(state, command, ctx, 'mission.follow_up.created', () => followUpSource(command, ctx));
}

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
