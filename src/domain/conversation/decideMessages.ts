/**
 * Messages (§9, §9.1): posting, and the amendments that append to a Message without rewriting it
 * (correction and retraction by its author, redaction by policy). Every Event here changes its
 * Conversation and nothing else: a Message is never authority to act, whatever it says.
 */

import { samePrincipal } from '../../protocol/principal.js';
import { fromJson, toJson, type Conversation, type Principal } from '../documents.js';
import type { GroupState, MessageStatus } from '../group/groupState.js';
import { coordinatorPrincipal } from '../group/stateQueries.js';
import { accept, refuse, type CommandEnvelope, type Decision, type DecisionContext } from '../model.js';
import { newAmendment, newMessage, type AmendmentKind, type PayloadContent } from './conversationDocuments.js';

interface PostPayload {
  readonly messageId: string;
  readonly conversationId: string;
  readonly content: PayloadContent;
  readonly mentions?: readonly Principal[];
  readonly references?: readonly string[];
}

interface AmendPayload {
  readonly amendmentId: string;
  readonly messageId: string;
  readonly reason: string;
}

interface CorrectPayload extends AmendPayload {
  readonly replacementContent: PayloadContent;
}

/** Every Message Event advances its Conversation's revision by one. */
function conversationEvent(kind: string, payload: object, conversation: Conversation): Decision {
  return accept({
    kind,
    payload: toJson(payload),
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

export function decideMessagePost(state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  const payload = fromJson<PostPayload>(command.payload);
  const conversation = state.conversations.get(payload.conversationId);
  if (conversation === undefined) {
    return refuse('INVALID_COMMAND', 'conversation-unknown', 'the Conversation is not in this Group');
  }
  if (conversation.state !== 'active') {
    return refuse('INVALID_STATE_TRANSITION', 'conversation-closed', 'the Conversation is closed');
  }
  if (!admits(state, conversation, command.actor)) {
    return refuse('AUTH_FORBIDDEN', 'conversation-restricted', 'the Conversation is restricted to its members');
  }
  if (state.messages.has(payload.messageId)) {
    return refuse('INVALID_COMMAND', 'message-id-taken', 'the Message ID is already in use');
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

function amend(state: GroupState, command: CommandEnvelope, ctx: DecisionContext, kind: AmendmentKind): Decision {
  const payload = fromJson<AmendPayload>(command.payload);
  const target = state.messages.get(payload.messageId);
  if (target === undefined || target.message.kind !== 'message') {
    return refuse('INVALID_COMMAND', 'message-unknown', 'no such Message in this Group to amend');
  }
  // Redaction is a policy decision its authority check already settled; the others are the author's.
  if (kind !== 'redaction' && !samePrincipal(target.message.author, command.actor)) {
    return refuse('AUTH_FORBIDDEN', 'not-message-author', 'only the author corrects or retracts a Message');
  }
  if (!AMENDABLE[kind].includes(target.status)) {
    return refuse('INVALID_STATE_TRANSITION', 'message-not-amendable', `a ${target.status} Message cannot take a ${kind}`);
  }
  if (state.messages.has(payload.amendmentId)) {
    return refuse('INVALID_COMMAND', 'amendment-id-taken', 'the amendment ID is already in use');
  }
  const conversation = state.conversations.get(target.message.conversationId);
  if (conversation === undefined) {
    return refuse('INVALID_COMMAND', 'conversation-unknown', 'the Conversation is not in this Group');
  }
  const base = { amendmentId: payload.amendmentId, target: target.message, reason: payload.reason };
  const amendment = newAmendment(
    kind === 'correction'
      ? { ...base, kind, replacement: fromJson<CorrectPayload>(command.payload).replacementContent }
      : { ...base, kind },
    command.actor,
    ctx,
  );
  const eventKind = { correction: 'message.corrected', retraction: 'message.retracted', redaction: 'message.redacted' }[kind];
  return conversationEvent(eventKind, { amendment }, conversation);
}

export function decideMessageCorrect(state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  return amend(state, command, ctx, 'correction');
}

export function decideMessageRetract(state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  return amend(state, command, ctx, 'retraction');
}

export function decideMessageRedact(state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  return amend(state, command, ctx, 'redaction');
}
