/**
 * The conversation kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_IDS, EXAMPLE_HASHES } from '../kinds/exampleStory.js';
import { CONTENT_PARTS, LONG } from '../kinds/exampleVariants.js';
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
    invalid: [
      ['empty content', (p) => (p.content = '')],
      ['content over 100000 characters', (p) => (p.content = LONG(100001))],
      ['no content parts', (p) => (p.content = [])],
      ['an unknown content part type', (p) => (p.content = [{ type: 'image', data: 'AAAA' }])],
      ['an empty text part', (p) => (p.content = [{ type: 'text', text: '' }])],
      ['an artifact_ref with a bad hash', (p) => (p.content = [{ type: 'artifact_ref', artifactHash: 'sha256:xyz' }])],
      ['a data_ref without schema', (p) => (p.content = [{ type: 'data_ref', data: { rows: 1 } }])],
      ['a data_ref with a relative schema', (p) => (p.content = [{ type: 'data_ref', schema: 'rows.json', data: {} }])],
      ['content as an object', (p) => (p.content = { type: 'text', text: 'hi' })],
      ['a repeated mention', (p) => (p.mentions = [p.mentions[0], p.mentions[0]])],
      ['a "system" mention', (p) => (p.mentions = [{ type: 'system', id: EXAMPLE_IDS.registry }])],
      ['a relative reference', (p) => (p.references = ['work-item-1'])],
      ['a repeated reference', (p) => (p.references = [EXAMPLE_IDS.workItem, EXAMPLE_IDS.workItem])],
      ['relative conversationId', (p) => (p.conversationId = 'schema-port')],
      ['an authority member', (p) => (p.authority = false)],
    ],
    valid: [
      ['content parts of every type', (p) => (p.content = CONTENT_PARTS)],
      ['content of exactly 100000 characters', (p) => (p.content = LONG(100000))],
      ['a human and a service mention', (p) => (p.mentions = [{ type: 'human', id: EXAMPLE_IDS.owner }, { type: 'service', id: EXAMPLE_IDS.groupAuthority }])],
    ],
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
    invalid: [
      ['empty replacementContent', (p) => (p.replacementContent = '')],
      ['no replacement parts', (p) => (p.replacementContent = [])],
      ['empty reason', (p) => (p.reason = '')],
      ['relative messageId', (p) => (p.messageId = 'message-1')],
    ],
    valid: [
      ['plain-text replacement', (p) => (p.replacementContent = 'Dry run finished: 182,344 rows migrated.')],
    ],
  },
  'message.retract': {
    payload: {
      amendmentId: 'urn:uuid:2d8f4e3c-5e6a-4b7c-8d1e-3f4a5b6c7d8e',
      messageId: EXAMPLE_IDS.message,
      reason: 'Posted in the wrong Conversation.',
    },
    required: ['amendmentId', 'messageId', 'reason'],
    invalid: [
      ['empty reason', (p) => (p.reason = '')],
      ['relative amendmentId', (p) => (p.amendmentId = 'retraction-1')],
      ['replacementContent', (p) => (p.replacementContent = 'new text')],
    ],
  },
  'message.redact': {
    payload: {
      amendmentId: 'urn:uuid:3e9a5f4d-6f7b-4c8d-9e2f-4a5b6c7d8e9f',
      messageId: EXAMPLE_IDS.message,
      reason: 'Contained a customer account number (data-protection policy DP-7).',
    },
    required: ['amendmentId', 'messageId', 'reason'],
    invalid: [
      ['empty reason', (p) => (p.reason = '')],
      ['reason over 4000 characters', (p) => (p.reason = LONG(4001))],
      ['relative messageId', (p) => (p.messageId = 'message-1')],
    ],
  },
} satisfies Record<string, KindExamples>;
