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
    invalid: [
      ['an empty budget', (p) => (p.budget = {})],
      ['a budget delta', (p) => (p.budget = { toolCallLimit: -5 })],
      ['an empty reason', (p) => (p.reason = '')],
      ['relative workItemId', (p) => (p.workItemId = 'w1')],
    ],
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
    invalid: [
      ['an empty usage delta', (p) => (p.usageDelta = {})],
      ['an all-zero usage delta', (p) => (p.usageDelta = { modelTokens: 0, toolCalls: 0 })],
      ['a negative dimension', (p) => (p.usageDelta = { modelTokens: 10, toolCalls: -1 })],
      ['a fractional dimension', (p) => (p.usageDelta = { computeSeconds: 1.5, toolCalls: 1 })],
      ['an unknown dimension', (p) => (p.usageDelta = { gpuSeconds: 5, toolCalls: 1 })],
      ['a normative budget shape', (p) => (p.usageDelta = { modelTokenLimit: 5, toolCalls: 1 })],
      ['ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
    ],
    valid: [
      ['a single nonzero dimension', (p) => (p.usageDelta = { toolCalls: 1 })],
      ['zeros beside one nonzero dimension', (p) => (p.usageDelta = { modelTokens: 0, externalActions: 1 })],
    ],
  },
} satisfies Record<string, KindExamples>;
