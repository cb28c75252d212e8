/**
 * The budget kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_LEASED, EXAMPLE_IDS } from '../kinds/exampleStory.js';
import type { KindExamples } from '../kinds/kindTypes.js';

export const BUDGET_EXAMPLES = {
  // Our own kind: the escalation after budget exhaustion (§12).
  'ext.missionweave.core.budget_revise': {
    payload: {
      workItemId: EXAMPLE_IDS.workItem,
      budget: { currency: 'EUR', financialLimit: 120, modelTokenLimit: 450000, toolCallLimit: 600 },
      reason: 'The backfill needs more tool calls than planned; the exhausted WorkItem resumes.',
    },
    required: ['budget', 'reason'],
  },
  'ext.missionweaveprotocol.core.resource_usage_record': {
    payload: {
      ...EXAMPLE_LEASED,
      usageDelta: {
        financialMicrounits: 1250000,
        modelTokens: 48000,
        toolCalls: 17,
        computeSeconds: 420,
        wallClockSeconds: 900,
        externalActions: 0,
      },
    },
    required: ['workItemId', 'ownershipEpoch', 'executionLeaseId', 'usageDelta'],
  },
} satisfies Record<string, KindExamples>;
