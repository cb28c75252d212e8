/**
 * The work of the console's browser tests (test/console*.browser.e2e.test.ts): what the SDK
 * Coordinator authorizes and offers, so that the Worker's Artifact can be submitted for approval.
 */

/** The capability the Coordinator and the Worker are registered with, and the contract requires. */
export const CAPABILITY = { id: 'code.review', version: '1.0.0' };

/** A complete Work Contract (§10.1) due tomorrow: one Markdown agenda, one deterministic test. */
export function agendaContract() {
  return {
    contractVersion: 1,
    goal: 'Draft the offsite agenda.',
    requiredDeliverables: [{ deliverableId: 'agenda', description: 'The agenda as Markdown.', mediaType: 'text/markdown', schema: 'urn:missionweave:schema:agenda' }],
    acceptanceCriteria: [{ criterionId: 'agenda-complete', description: 'Every session has a slot.', evidenceRequired: ['deterministic_test'] }],
    inputArtifacts: [],
    dependencyWorkItemIds: [],
    allowedResources: [],
    requiredCapabilities: [CAPABILITY],
    deadline: new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    requestedUrgency: 'normal',
    businessImpact: 'The team knows the plan.',
    retryPolicy: { maxAttempts: 1, backoff: 'none', maxDelay: 'PT1M', retryableFailures: [] },
    budget: { currency: 'EUR', financialLimit: 10 },
    sideEffectRisk: 'none',
    executionApproval: 'not_required',
  };
}

/** The structured basis of an offer to one verified candidate (§10.3). */
export const selectionBasis = () => ({
  requiredCapabilities: [CAPABILITY], verifiedMatches: [CAPABILITY], authorizationEligible: true,
  availabilityEstimate: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), expectedCost: 1, reliabilityEvidence: [], policyRulesApplied: ['single-candidate'],
});
