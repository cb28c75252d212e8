/**
 * The refusal reasons of the conversation module, by name: a decider refuses with
 * `refuse(code, CONVERSATION_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const CONVERSATION_REASONS = {
  amendmentIdTaken: 'amendment-id-taken',
  conversationClosed: 'conversation-closed',
  conversationRestricted: 'conversation-restricted',
  conversationUnknown: 'conversation-unknown',
  messageIdTaken: 'message-id-taken',
  messageNotAmendable: 'message-not-amendable',
  messageUnknown: 'message-unknown',
  notMessageAuthor: 'not-message-author',
} as const;

export type ConversationReason = (typeof CONVERSATION_REASONS)[keyof typeof CONVERSATION_REASONS];
