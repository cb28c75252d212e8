/** `message.post` (§9): any active member posts a Message in a Conversation it may see. */

import type { MessagePostedPayload } from '../group/events.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideMessagePost, messageIdsOf, withMessage } from './decideMessages.js';

export const messagePosted = defineEvent<MessagePostedPayload>()({
  kind: 'message.posted',
  evolve: (state, { message }) => withMessage(state, message),
});

export const messagePost = defineKind({
  kind: 'message.post',
  scope: 'group',
  authority: ['member'],
  events: [messagePosted],
  preload: { messages: messageIdsOf },
  target: (state, command) => state.conversations.get(command.payload.conversationId)?.revision,
  conversationOf: (_state, command) => command.payload.conversationId,
  decide: decideMessagePost,
});
