/**
 * The policy kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_IDS } from '../kinds/exampleStory.js';
import type { KindExamples } from '../kinds/kindTypes.js';

export const POLICY_EXAMPLES = {
  'policy.grant_cooperation_override': {
    payload: {
      grantId: EXAMPLE_IDS.overrideGrant,
      policyName: 'message_rate',
      beneficiary: { type: 'agent', id: EXAMPLE_IDS.worker },
      targetCommandKind: 'message.post',
      targetActionId: 'urn:uuid:4fab6a5e-7a8c-4d9e-8f3a-5b6c7d8e9fa0',
      reason: 'Incident summary must go out although the hourly message rate is reached.',
      expiresAt: '2026-09-01T13:00:00Z',
    },
    required: ['grantId', 'policyName', 'beneficiary', 'targetCommandKind', 'targetActionId', 'reason', 'expiresAt'],
  },
} satisfies Record<string, KindExamples>;
