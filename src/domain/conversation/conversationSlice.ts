/**
 * The conversation module's slice of Group state: the Group's Conversations and the Messages a
 * Command refers to.
 *
 * `messages` is a partial view. A Group's Messages grow without bound and a Command touches at
 * most two (the one it posts or amends and the amendment's own ID), so the app loads only those
 * its kind's entry preloads; evolve adds the ones an Event posts or amends.
 */

import type { Conversation, Message } from '../documents.js';
import { joinCodecs, mapCodec, type SliceCodec } from '../kinds/domainModule.js';

/** A Message or amendment and where its own history stands. */
export interface MessageFacts {
  readonly message: Message;
  readonly status: MessageStatus;
}

/** Forward-only: a retracted Message is never corrected again, a redacted one never changes. */
export const MESSAGE_STATUSES = ['posted', 'corrected', 'retracted', 'redacted'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface ConversationSlice {
  readonly conversations: ReadonlyMap<string, Conversation>;
  readonly messages: ReadonlyMap<string, MessageFacts>;
}

declare module '../kinds/groupState.js' {
  // The slice joins GroupState (declaration merging); the interface adds nothing else.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GroupState extends ConversationSlice {}
}

/** A Message changes only by its status, which moves forward; the row revision follows it. */
function messageRevision(facts: MessageFacts): number {
  return MESSAGE_STATUSES.indexOf(facts.status) + 1;
}

export const CONVERSATION_SLICE: SliceCodec<ConversationSlice> = joinCodecs(
  mapCodec<'conversations', Conversation>('conversations', 'conversation', (c) => ({ id: c.conversationId, revision: c.revision })),
  mapCodec<'messages', MessageFacts>('messages', 'message', (f) => ({ id: f.message.messageId, revision: messageRevision(f) })),
);
