/**
 * The membership kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_IDS } from '../kinds/exampleStory.js';
import type { KindExamples } from '../kinds/kindTypes.js';

export const MEMBERSHIP_EXAMPLES = {
  'membership.change': {
    payload: {
      principal: { type: 'agent', id: EXAMPLE_IDS.worker },
      roles: ['worker'],
      provisional: false,
      visibilityAfterSequence: 12,
      scopes: ['message.post', 'work.accept_offer', 'work.execute'],
    },
    required: ['principal', 'roles'],
  },
  'membership.end': {
    payload: { principal: { type: 'agent', id: EXAMPLE_IDS.reviewer } },
    required: ['principal'],
  },
} satisfies Record<string, KindExamples>;
