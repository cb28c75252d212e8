/**
 * What every Message kind (§9, §9.1) shares: its Event changes its Conversation and nothing else
 * (a Message is never authority to act, whatever it says), advancing the Conversation's revision
 * and appending a Message row; the app loads the rows a Message Command names first.
 */

import type { Conversation, Message } from '../documents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import { accept, type Decision, type EventDraft } from '../model.js';
import type { MessageFacts, MessageStatus } from './conversationSlice.js';

/** Every Message Event advances its Conversation's revision by one. */
export function conversationEvent<K extends string, P>(kind: K, payload: P, conversation: Conversation): Decision<EventDraft<K, P>> {
  return accept({
    kind,
    payload,
    aggregate: { type: 'conversation', id: conversation.conversationId, revision: conversation.revision + 1 },
    conversationId: conversation.conversationId,
  });
}

/**
 * A Message Event: its Conversation advances one revision, the Message is added, and an
 * amendment moves its target to `targetStatus`.
 */
export function withMessage(state: GroupState, message: Message, targetStatus?: MessageStatus): GroupState {
  const conversation = state.conversations.get(message.conversationId);
  if (conversation === undefined) throw new Error(`Message ${message.messageId} names an unknown Conversation`);
  let messages = withEntry<MessageFacts>(state.messages, message.messageId, { message, status: 'posted' });
  const target = message.targetMessageId === undefined ? undefined : state.messages.get(message.targetMessageId);
  // A partial view that did not load the target has no row of it to change.
  if (target !== undefined && targetStatus !== undefined) {
    messages = withEntry(messages, target.message.messageId, { ...target, status: targetStatus });
  }
  return {
    ...state,
    conversations: withEntry(state.conversations, conversation.conversationId, { ...conversation, revision: conversation.revision + 1 }),
    messages,
  };
}

/** The Message and amendment IDs a Message Command names: the app loads those rows first. */
export function messageIdsOf(command: { readonly payload: { readonly messageId: string; readonly amendmentId?: string } }): string[] {
  return command.payload.amendmentId === undefined ? [command.payload.messageId] : [command.payload.messageId, command.payload.amendmentId];
}
