/**
 * Messages (§9, §9.1): posting, and the amendments that append to a Message without rewriting it
 * (correction and retraction by its author, redaction by policy). Every Event here changes its
 * Conversation and nothing else: a Message is never authority to act, whatever it says.
 */

import { samePrincipal } from '../../protocol/principal.js';
import type { Conversation, Message, Principal } from '../documents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import type { MessageFacts, MessageStatus } from './conversationSlice.js';
import type { MessageAmendedPayload, MessagePostedPayload } from '../groupEvents.js';
import { coordinatorPrincipal } from '../stateQueries.js';
import type { CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { newAmendment, newMessage, type AmendmentKind, type PayloadContent } from './conversationDocuments.js';
import { CONVERSATION_REASONS } from './conversationReasons.js';

/** Every Message Event advances its Conversation's revision by one. */
function conversationEvent<K extends string, P>(kind: K, payload: P, conversation: Conversation): Decision<EventDraft<K, P>> {
  return accept({
    kind,
    payload,
    aggregate: { type: 'conversation', id: conversation.conversationId, revision: conversation.revision + 1 },
    conversationId: conversation.conversationId,
  });
}

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

/** Statuses from which each amendment may still be made: a redaction is final. */
const AMENDABLE: Readonly<Record<AmendmentKind, readonly MessageStatus[]>> = {
  correction: ['posted', 'corrected'],
  retraction: ['posted', 'corrected'],
  redaction: ['posted', 'corrected', 'retracted'],
};

type AmendCommand = CommandOf<'message.correct'> | CommandOf<'message.retract'> | CommandOf<'message.redact'>;

/** What an amendment replaces its target's content with. */
export type AmendmentShape = { readonly kind: 'correction'; readonly replacement: PayloadContent } | { readonly kind: 'retraction' | 'redaction' };

/** An amendment of `shape.kind`, emitted as `eventKind`. */
export function decideAmendment<K extends string>(
  state: GroupState,
  command: AmendCommand,
  ctx: DecisionContext,
  shape: AmendmentShape,
  eventKind: K,
): Decision<EventDraft<K, MessageAmendedPayload>> {
  const { payload } = command;
  const { kind } = shape;
  const target = state.messages.get(payload.messageId);
  if (target === undefined || target.message.kind !== 'message') {
    return refuse('INVALID_COMMAND', CONVERSATION_REASONS.messageUnknown, 'no such Message in this Group to amend');
  }
  // Redaction is a policy decision its authority check already settled; the others are the author's.
  if (kind !== 'redaction' && !samePrincipal(target.message.author, command.actor)) {
    return refuse('AUTH_FORBIDDEN', CONVERSATION_REASONS.notMessageAuthor, 'only the author corrects or retracts a Message');
  }
  if (!AMENDABLE[kind].includes(target.status)) {
    return refuse('INVALID_STATE_TRANSITION', CONVERSATION_REASONS.messageNotAmendable, `a ${target.status} Message cannot take a ${kind}`);
  }
  if (state.messages.has(payload.amendmentId)) {
    return refuse('INVALID_COMMAND', CONVERSATION_REASONS.amendmentIdTaken, 'the amendment ID is already in use');
  }
  const conversation = state.conversations.get(target.message.conversationId);
  if (conversation === undefined) {
    return refuse('INVALID_COMMAND', CONVERSATION_REASONS.conversationUnknown, 'the Conversation is not in this Group');
  }
  const amendment = newAmendment({ amendmentId: payload.amendmentId, target: target.message, reason: payload.reason, ...shape }, command.actor, ctx);
  return conversationEvent(eventKind, { amendment }, conversation);
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

/** The Conversation of the Message an amendment names. */
export function amendedConversation(state: GroupState | null, command: AmendCommand): string | undefined {
  return state?.messages.get(command.payload.messageId)?.message.conversationId;
}
