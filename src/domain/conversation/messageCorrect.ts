/** `message.correct` (§9.1): the author appends a corrected content; the original stays. */

import type { MessageAmendedPayload } from '../groupEvents.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { amendedConversation, amendMessage } from './amendMessage.js';
import { messageIdsOf, withMessage } from './messageRows.js';
import { CONVERSATION_EXAMPLES } from './conversationExamples.js';

export const messageCorrected = defineEvent<MessageAmendedPayload>()({
  kind: 'message.corrected',
  evolve: (state, { amendment }) => withMessage(state, amendment, 'corrected'),
});

export const messageCorrect = defineKind({
  kind: 'message.correct',
  examples: CONVERSATION_EXAMPLES['message.correct'],
  scope: 'group',
  authority: ['member'],
  events: [messageCorrected],
  preload: { messages: messageIdsOf },
  target: (state, command) => state.conversations.get(amendedConversation(state, command) ?? '')?.revision,
  conversationOf: amendedConversation,
  decide: (state, command, ctx) =>
    amendMessage(state, command, ctx, { kind: 'correction', replacement: command.payload.replacementContent }, 'message.corrected'),
});
