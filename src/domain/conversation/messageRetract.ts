/** `message.retract` (§9.1): the author withdraws a Message; a tombstone replaces its words. */

import type { MessageAmendedPayload } from '../groupEvents.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { amendedConversation, amendMessage } from './amendMessage.js';
import { messageIdsOf, withMessage } from './messageRows.js';
import { CONVERSATION_EXAMPLES } from './conversationExamples.js';

export const messageRetracted = defineEvent<MessageAmendedPayload>()({
  kind: 'message.retracted',
  evolve: (state, { amendment }) => withMessage(state, amendment, 'retracted'),
});

export const messageRetract = defineKind({
  kind: 'message.retract',
  examples: CONVERSATION_EXAMPLES['message.retract'],
  scope: 'group',
  authority: ['member'],
  events: [messageRetracted],
  preload: { messages: messageIdsOf },
  target: (state, command) => state.conversations.get(amendedConversation(state, command) ?? '')?.revision,
  conversationOf: amendedConversation,
  decide: (state, command, ctx) => amendMessage(state, command, ctx, { kind: 'retraction' }, 'message.retracted'),
});
