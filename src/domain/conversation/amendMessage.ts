/**
 * Amending a Message (§9.1): correction and retraction by its author, redaction by policy
 * (`messageCorrect.ts`, `messageRetract.ts`, `messageRedact.ts`). An amendment appends to the
 * Message without rewriting it.
 */

import { samePrincipal } from '../../protocol/principal.js';
import type { GroupState } from '../kinds/groupState.js';
import type { MessageAmendedPayload } from '../groupEvents.js';
import type { CommandOf } from '../kinds/kindTypes.js';
import { refuse, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import type { MessageStatus } from './conversationSlice.js';
import { newAmendment, type AmendmentKind, type PayloadContent } from './conversationDocuments.js';
import { CONVERSATION_REASONS } from './conversationReasons.js';
import { conversationEvent } from './messageRows.js';

/** Statuses from which each amendment may still be made: a redaction is final. */
const AMENDABLE: Readonly<Record<AmendmentKind, readonly MessageStatus[]>> = {
  correction: ['posted', 'corrected'],
  retraction: ['posted', 'corrected'],
  redaction: ['posted', 'corrected', 'retracted'],
};

type AmendCommand = CommandOf<'message.correct'> | CommandOf<'message.retract'> | CommandOf<'message.redact'>;

/** What an amendment replaces its target's content with. */
export type AmendmentShape = { readonly kind: 'correction'; readonly replacement: PayloadContent } | { readonly kind: 'retraction' | 'redaction' };

/** An amendment of `shape.kind`, emitted as `eventKind`: the decision of `message.correct`, `.retract` and `.redact`. */
export function amendMessage<K extends string>(
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

/** The Conversation of the Message an amendment names. */
export function amendedConversation(state: GroupState | null, command: AmendCommand): string | undefined {
  return state?.messages.get(command.payload.messageId)?.message.conversationId;
}
