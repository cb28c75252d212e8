/** The Work Contract (§10.1) and offer basis (§10.3) of a PoC stage. */

import type { WorkAuthorizePayload, WorkOfferPayload } from '#src/client/workDocuments.js';
import type { Stage } from './pocPlan.js';

export const CAPABILITY = { id: 'software.dev', version: '1.0.0' } as const;

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** How long one handler step lasts (ms): set per run by poc.ts through the environment. */
export function stepMs(): number {
  return Number(process.env['MW_POC_STEP_MS'] ?? '400');
}

/** `hours`: the deadline from now, within the Mission's (a child Mission's is 18 h away). */
export function contractOf(stage: Stage, dependencyWorkItemIds: readonly string[], hours = 19): WorkAuthorizePayload['contract'] {
  return {
    contractVersion: 1,
    goal: `[${stage.key}] ${stage.key.replace(/-/g, ' ')} of the software-development Mission.`,
    requiredDeliverables: [{ deliverableId: 'result', description: `The ${stage.key} result as JSON.`, mediaType: 'application/json', schema: 'urn:missionweave:schema:poc-stage' }],
    acceptanceCriteria: [{ criterionId: `${stage.key}-done`, description: `The ${stage.key} stage is complete.`, evidenceRequired: ['deterministic_test'] }],
    inputArtifacts: [],
    dependencyWorkItemIds: [...dependencyWorkItemIds],
    allowedResources: [],
    requiredCapabilities: [{ ...CAPABILITY }],
    deadline: iso(Date.now() + hours * 3_600_000),
    requestedUrgency: stage.urgency,
    businessImpact: `Stage ${stage.key} of the proof of concept.`,
    retryPolicy: { maxAttempts: 2, backoff: 'none', maxDelay: 'PT1M', retryableFailures: ['TRANSIENT_TOOL_FAILURE'] },
    budget: { currency: 'EUR', financialLimit: 1 },
    sideEffectRisk: 'none',
    executionApproval: 'not_required',
    constraints: { steps: stage.steps, stepMs: stepMs(), effort: stage.effort },
  } as WorkAuthorizePayload['contract'];
}

export function selectionBasisOf(): WorkOfferPayload['selectionBasis'] {
  return {
    requiredCapabilities: [{ ...CAPABILITY }],
    verifiedMatches: [{ ...CAPABILITY }],
    authorizationEligible: true,
    availabilityEstimate: iso(Date.now()),
    expectedCost: 1,
    reliabilityEvidence: [],
    policyRulesApplied: ['poc-plan'],
  };
}
