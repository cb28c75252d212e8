/**
 * The conversation kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_IDS, EXAMPLE_HASHES } from '../kinds/exampleStory.js';
import type { KindExamples } from '../kinds/kindTypes.js';

export const CONVERSATION_EXAMPLES = {
  'message.post': {
    payload: {
      messageId: EXAMPLE_IDS.message,
      conversationId: EXAMPLE_IDS.workConversation,
      content: 'Dry run finished: 182,344 rows migrated, rollback verified. Report attached as an Artifact.',
      mentions: [{ type: 'agent', id: EXAMPLE_IDS.coordinator }],
      references: [EXAMPLE_IDS.workItem],
    },
    required: ['messageId', 'conversationId', 'content'],
  },
  'message.correct': {
    payload: {
      amendmentId: 'urn:uuid:1c7e3d2b-4d5f-4a6b-9c0d-2e3f4a5b6c7d',
      messageId: EXAMPLE_IDS.message,
      replacementContent: [
        { type: 'text', text: 'Dry run finished: 182,344 rows migrated (not 183,344), rollback verified.' },
        { type: 'artifact_ref', artifactHash: EXAMPLE_HASHES.report },
      ],
      reason: 'The row count in the original Message was mistyped.',
    },
    required: ['amendmentId', 'messageId', 'replacementContent', 'reason'],
  },
  'message.retract': {
    payload: {
      amendmentId: 'urn:uuid:2d8f4e3c-5e6a-4b7c-8d1e-3f4a5b6c7d8e',
      messageId: EXAMPLE_IDS.message,
      reason: 'Posted in the wrong Conversation.',
    },
    required: ['amendmentId', 'messageId', 'reason'],
  },
  'message.redact': {
    payload: {
      amendmentId: 'urn:uuid:3e9a5f4d-6f7b-4c8d-9e2f-4a5b6c7d8e9f',
      messageId: EXAMPLE_IDS.message,
      reason: 'Contained a customer account number (data-protection policy DP-7).',
    },
    required: ['amendmentId', 'messageId', 'reason'],
  },
} satisfies Record<string, KindExamples>;
