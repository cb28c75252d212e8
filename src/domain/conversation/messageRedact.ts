/** `message.redact` (§9.1): the MissionOwner or Coordinator redacts a Message under policy. */

import type { MessageAmendedPayload } from '../group/events.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { amendedConversation, decideAmendment, messageIdsOf, withMessage } from './decideMessages.js';

export const messageRedacted = defineEvent<MessageAmendedPayload>()({
  kind: 'message.redacted',
  evolve: (state, { amendment }) => withMessage(state, amendment, 'redacted'),
});

export const messageRedact = defineKind({
  kind: 'message.redact',
  scope: 'group',
  authority: ['mission-owner', 'coordinator'],
  events: [messageRedacted],
  preload: { messages: messageIdsOf },
  target: (state, command) => state.conversations.get(amendedConversation(state, command) ?? '')?.revision,
  conversationOf: amendedConversation,
  decide: (state, command, ctx) => decideAmendment(state, command, ctx, { kind: 'redaction' }, 'message.redacted'),
});
