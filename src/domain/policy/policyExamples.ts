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
    invalid: [
      ['an unknown policyName', (p) => (p.policyName = 'token_budget')],
      ['an unknown core kind', (p) => (p.targetCommandKind = 'mission.pause')],
      ['an Event kind', (p) => (p.targetCommandKind = 'message.posted')],
      ['an ext kind with two segments', (p) => (p.targetCommandKind = 'ext.acme.send')],
      ['an upper-case ext kind', (p) => (p.targetCommandKind = 'ext.Acme.billing.send')],
      ['a "system" beneficiary', (p) => (p.beneficiary = { type: 'system', id: 'organization' })],
      ['relative targetActionId', (p) => (p.targetActionId = 'action-1')],
      ['empty reason', (p) => (p.reason = '')],
      ['bad expiresAt', (p) => (p.expiresAt = '2026-09-01T13:00:00.Z')],
    ],
    valid: [
      ['an Extension Profile target kind', (p) => (p.targetCommandKind = 'ext.acme.billing.invoice_send')],
      ['a reference ext target kind', (p) => (p.targetCommandKind = 'ext.missionweaveprotocol.core.resource_usage_record')],
      ['a human beneficiary', (p) => (p.beneficiary = { type: 'human', id: EXAMPLE_IDS.owner })],
    ],
  },
} satisfies Record<string, KindExamples>;
