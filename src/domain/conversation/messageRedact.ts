/**
 * `message.redact` (§9.1): the MissionOwner or Coordinator redacts a Message under policy.
 *
 * §7.4: redaction appends an auditable tombstone and never rewrites prior Event IDs or sequences,
 * yet the redacted content must no longer be served. So the Group state keeps the redacted
 * Message with the tombstone's content in place of its own: every read built from state (Group
 * Snapshots for replay, archival and late joiners; their `stateHash`) carries the tombstone only,
 * while the signed `message.posted` Event stays in the log unchanged (docs/transitions.md).
 */

import type { Message } from '../documents.js';
import type { MessageAmendedPayload } from '../groupEvents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { amendedConversation, amendMessage } from './amendMessage.js';
import { messageIdsOf, withMessage } from './messageRows.js';
import { CONVERSATION_EXAMPLES } from './conversationExamples.js';

/** The target's row, if loaded, with the tombstone's content instead of its own. */
function withoutRedactedContent(state: GroupState, amendment: Message): GroupState {
  const target = amendment.targetMessageId === undefined ? undefined : state.messages.get(amendment.targetMessageId);
  if (target === undefined) return state;
  return { ...state, messages: withEntry(state.messages, target.message.messageId, { ...target, message: { ...target.message, content: amendment.content } }) };
}

export const messageRedacted = defineEvent<MessageAmendedPayload>()({
  kind: 'message.redacted',
  evolve: (state, { amendment }) => withoutRedactedContent(withMessage(state, amendment, 'redacted'), amendment),
});

export const messageRedact = defineKind({
  kind: 'message.redact',
  examples: CONVERSATION_EXAMPLES['message.redact'],
  scope: 'group',
  authority: ['mission-owner', 'coordinator'],
  events: [messageRedacted],
  preload: { messages: messageIdsOf },
  target: (state, command) => state.conversations.get(amendedConversation(state, command) ?? '')?.revision,
  conversationOf: amendedConversation,
  decide: (state, command, ctx) => amendMessage(state, command, ctx, { kind: 'redaction' }, 'message.redacted'),
});
