/** `mission.create` (§7.1): a human founds a Mission and its Group; `mission.created` is sequence 1. */

import { principalKey } from '../../protocol/principal.js';
import type { MissionCreatedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideMissionCreate } from './createMission.js';

/** A new Group's state from its founding Event alone. */
export function foundGroup(payload: MissionCreatedPayload, sequence: number): GroupState {
  return {
    groupId: payload.group.groupId,
    lastSequence: sequence,
    group: payload.group,
    mission: payload.mission,
    missionNotes: { title: payload.title, permissions: payload.permissions },
    coordinatorLease: payload.coordinatorLease,
    formerCoordinatorLeases: new Map(),
    memberships: new Map(payload.memberships.map((m) => [principalKey(m.member), m])),
    conversations: new Map([[payload.conversation.conversationId, payload.conversation]]),
    messages: new Map(),
    workItems: new Map(),
    proposals: new Map(),
    delegationGrants: new Map(),
    extensions: new Map(),
    artifacts: new Map(),
    cooperationGrants: new Map(),
    rateWindows: new Map(),
  };
}

export const missionCreated = defineEvent<MissionCreatedPayload>()({
  kind: 'mission.created',
  founds: true,
  found: (payload, meta) => foundGroup(payload, meta.sequence),
});

export const missionCreate = defineKind({
  kind: 'mission.create',
  scope: 'new-group',
  authority: ['creator'],
  events: [missionCreated],
  creates: (command) => ({ groupId: command.payload.groupId, missionId: command.payload.missionId }),
  preload: {
    agents: (command) => [command.payload.coordinatorId],
    missions: (command) => [command.payload.missionId],
    profiles: (command) => (command.payload.pinnedProfiles ?? []).map((p) => p.profileUri),
  },
  target: () => 0,
  conversationOf: (_state, command) => command.payload.mainConversationId,
  decide: decideMissionCreate,
});
