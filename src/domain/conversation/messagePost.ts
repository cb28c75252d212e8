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
import { samePrincipal } from '../../protocol/principal.js';
import type { Conversation, Principal } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import type { CommandOf } from '../kinds/kindTypes.js';
import { coordinatorPrincipal } from '../stateQueries.js';
import { refuse, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { newMessage } from './conversationDocuments.js';
import { CONVERSATION_REASONS } from './conversationReasons.js';
import { conversationEvent, messageIdsOf, withMessage } from './messageRows.js';
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

/** A restricted Conversation admits its members, and the MissionOwner and Coordinator (§9). */
function admits(state: GroupState, conversation: Conversation, actor: Principal): boolean {
  if (conversation.access.mode !== 'restricted') return true;
  return (
    samePrincipal(actor, state.mission.missionOwner) ||
    samePrincipal(actor, coordinatorPrincipal(state)) ||
    (conversation.access.members ?? []).some((member) => samePrincipal(member, actor))
  );
}

export function decideMessagePost(
  state: GroupState,
  command: CommandOf<'message.post'>,
  ctx: DecisionContext,
): Decision<EventDraft<'message.posted', MessagePostedPayload>> {
  const { payload } = command;
  const conversation = state.conversations.get(payload.conversationId);
  if (conversation === undefined) {
    return refuse('INVALID_COMMAND', CONVERSATION_REASONS.conversationUnknown, 'the Conversation is not in this Group');
  }
  if (conversation.state !== 'active') {
    return refuse('INVALID_STATE_TRANSITION', CONVERSATION_REASONS.conversationClosed, 'the Conversation is closed');
  }
  if (!admits(state, conversation, command.actor)) {
    return refuse('AUTH_FORBIDDEN', CONVERSATION_REASONS.conversationRestricted, 'the Conversation is restricted to its members');
  }
  if (state.messages.has(payload.messageId)) {
    return refuse('INVALID_COMMAND', CONVERSATION_REASONS.messageIdTaken, 'the Message ID is already in use');
  }
  const message = newMessage({ ...payload, conversation }, command.actor, ctx);
  return conversationEvent('message.posted', { message }, conversation);
}
