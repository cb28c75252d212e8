/**
 * Building normative Conversations and Messages (§9). Every Message has `authority: false`: it is
 * context, never an instruction any decider acts on.
 */

import type { MessagePostPayload } from '../../protocol/schemas/payloadTypes.js';
import type { ContentPart, Conversation, Message, Principal } from '../documents.js';
import type { DecisionContext } from '../model.js';


/** Message content as the payload gives it (its schema's type): plain text becomes one text part. */
export type PayloadContent = MessagePostPayload['content'];

export function contentParts(content: PayloadContent): ContentPart[] {
  // `data` is typed `unknown` by its schema (`true`); the strict parser only ever yields JSON.
  return typeof content === 'string' ? [{ type: 'text', text: content }] : (content as ContentPart[]);
}

export interface PostedMessage {
  readonly messageId: string;
  readonly conversation: Conversation;
  readonly content: PayloadContent;
  readonly mentions?: readonly Principal[];
  readonly references?: readonly string[];
}

export function newMessage(post: PostedMessage, author: Principal, ctx: DecisionContext): Message {
  return {
    messageId: post.messageId,
    missionId: post.conversation.missionId,
    groupId: post.conversation.groupId,
    conversationId: post.conversation.conversationId,
    author: { type: author.type, id: author.id },
    kind: 'message',
    authority: false,
    content: contentParts(post.content),
    ...(post.mentions === undefined ? {} : { mentions: post.mentions.map((p) => ({ type: p.type, id: p.id })) }),
    ...(post.references === undefined ? {} : { references: [...post.references] }),
    committedAt: ctx.now,
  };
}

export type AmendmentKind = 'correction' | 'retraction' | 'redaction';

/**
 * What a retraction or redaction shows in place of the original: a tombstone, since the schema
 * requires content and the original's words must not be repeated.
 */
const TOMBSTONES = {
  retraction: '[Message retracted by its author]',
  redaction: '[Message redacted under policy]',
} as const;

export type Amendment = {
  readonly amendmentId: string;
  readonly target: Message;
  readonly reason: string;
} & (
  | { readonly kind: 'correction'; readonly replacement: PayloadContent }
  | { readonly kind: 'retraction' | 'redaction' }
);

function amendmentContent(amendment: Amendment): ContentPart[] {
  switch (amendment.kind) {
    case 'correction':
      return contentParts(amendment.replacement);
    case 'retraction':
    case 'redaction':
      return [{ type: 'text', text: TOMBSTONES[amendment.kind] }];
    default: {
      const _exhaustive: never = amendment;
      return _exhaustive;
    }
  }
}

export function newAmendment(amendment: Amendment, author: Principal, ctx: DecisionContext): Message {
  return {
    messageId: amendment.amendmentId,
    missionId: amendment.target.missionId,
    groupId: amendment.target.groupId,
    conversationId: amendment.target.conversationId,
    author: { type: author.type, id: author.id },
    kind: amendment.kind,
    authority: false,
    targetMessageId: amendment.target.messageId,
    content: amendmentContent(amendment),
    reason: amendment.reason,
    committedAt: ctx.now,
  };
}
