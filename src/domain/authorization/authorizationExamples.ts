/**
 * The authorization kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_IDS } from '../kinds/exampleStory.js';
import type { KindExamples } from '../kinds/kindTypes.js';

export const AUTHORIZATION_EXAMPLES = {
  // Our own kind: the Authorization Service's record of a capability grant (§12).
  'ext.missionweave.core.capability_grant': {
    payload: {
      workItemId: EXAMPLE_IDS.workItem,
      agentId: EXAMPLE_IDS.worker,
      sessionEpoch: 2,
      ownershipEpoch: 3,
      executionLeaseId: EXAMPLE_IDS.executionLease,
      tools: ['acme.sql-migration'],
      resources: [{ resource: 'urn:missionweave:resource:billing-db-staging', operations: ['db.read'] }],
      limits: { toolCalls: 1, modelTokens: 2000 },
      expiresInSeconds: 120,
    },
    required: ['workItemId', 'agentId', 'sessionEpoch', 'ownershipEpoch', 'executionLeaseId'],
    invalid: [
      ['sessionEpoch of 0', (p) => (p.sessionEpoch = 0)],
      ['a tool that is no capability ID', (p) => (p.tools = ['Payments Tool'])],
      ['a negative ceiling', (p) => (p.limits = { toolCalls: -1 })],
      ['an unknown dimension', (p) => (p.limits = { gpuSeconds: 1 })],
      ['a lifetime over an hour', (p) => (p.expiresInSeconds = 3601)],
    ],
  },
} satisfies Record<string, KindExamples>;
