/**
 * `message.post` (§9): any active member posts a Message in a Conversation it may see. A Worker's
 * Message buffered offline may come charged with the resources used (§11.5): its usage Event is
 * declared here, emitted by the offline reconciliation before `message.posted`.
 */

import type { MessagePostedPayload } from '../groupEvents.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { resourceUsageRecorded } from '../workItem/resourceUsage.js';
import { childUsageRecorded } from '../workItem/childUsageRecorded.js';
import { chargesOfflineUsage } from '../workItem/reconcileOffline.js';
import { decideMessagePost, messageIdsOf, withMessage } from './decideMessages.js';
import { CONVERSATION_EXAMPLES } from './conversationExamples.js';

export const messagePosted = defineEvent<MessagePostedPayload>()({
  kind: 'message.posted',
  evolve: (state, { message }) => withMessage(state, message),
  // Delivery's attention filter (§8) reads who the Message mentions from here; it reads stored
  // Events, so a payload without a Message mentions no one.
  mentions: ({ message }: Partial<MessagePostedPayload>) => (message?.mentions ?? []).map((principal) => String(principal.id)),
});

export const messagePost = defineKind({
  kind: 'message.post',
  examples: CONVERSATION_EXAMPLES['message.post'],
  scope: 'group',
  authority: ['member'],
  events: [messagePosted, resourceUsageRecorded, childUsageRecorded],
  ancestry: chargesOfflineUsage,
  preload: { messages: messageIdsOf },
  target: (state, command) => state.conversations.get(command.payload.conversationId)?.revision,
  conversationOf: (_state, command) => command.payload.conversationId,
  decide: decideMessagePost,
});
