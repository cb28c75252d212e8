/** `work.authorize` (§10.2): the Coordinator turns a Work Contract into an `open` WorkItem. */

import type { WorkAuthorizedPayload } from '../group/events.js';
import { withEntry } from '../group/groupState.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideWorkAuthorize } from './authorizeWork.js';

export const workAuthorized = defineEvent<WorkAuthorizedPayload>()({
  kind: 'work.authorized',
  evolve: (state, { workItem, conversation }) => ({
    ...state,
    workItems: withEntry(state.workItems, workItem.workItemId, workItem),
    conversations: withEntry(state.conversations, conversation.conversationId, conversation),
  }),
});

export const workAuthorize = defineKind({
  kind: 'work.authorize',
  scope: 'group',
  authority: ['coordinator'],
  missionStates: ['active'],
  events: [workAuthorized],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision ?? 0,
  workItemOf: (_state, command) => command.payload.workItemId,
  conversationOf: (_state, command) => command.payload.conversationId,
  decide: decideWorkAuthorize,
});
