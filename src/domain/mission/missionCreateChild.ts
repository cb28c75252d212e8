/**
 * `mission.create_child` (§14): the Coordinator promotes a WorkItem to a child Mission. The parent
 * Group records `mission.child.created`; the child Group begins with `mission.created`.
 */

import type { ChildCreatedPayload } from '../groupEvents.js';
import { withEntry } from '../kinds/groupState.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideCreateChild } from './createChild.js';
import { missionCreated } from './missionCreate.js';

export const missionChildCreated = defineEvent<ChildCreatedPayload>()({
  kind: 'mission.child.created',
  evolve: (state, { workItem }) => ({ ...state, workItems: withEntry(state.workItems, workItem.workItemId, workItem) }),
});

export const missionCreateChild = defineKind({
  kind: 'mission.create_child',
  scope: 'group',
  authority: ['coordinator'],
  // A replacement Coordinator's assignment waits for its Context Package (§7.2).
  assigns: true,
  missionStates: ['active'],
  events: [missionChildCreated, missionCreated],
  preload: { agents: (command) => [command.payload.coordinatorId], missions: (command) => [command.payload.missionId] },
  creates: (command) => ({ groupId: command.payload.groupId, missionId: command.payload.missionId }),
  // The child's permissions are held to every ancestor WorkItem, in the parent Missions' Groups too (§14).
  ancestry: true,
  target: (state, command) => state.workItems.get(command.payload.parentWorkItemId)?.revision,
  workItemOf: (_state, command) => command.payload.parentWorkItemId,
  decide: decideCreateChild,
});
