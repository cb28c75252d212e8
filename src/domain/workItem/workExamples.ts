/**
 * The work kinds' example payloads from proposal to accepted offer, with the members their payload
 * schemas require and their kind-specific variants (`KindExamples`); the execution kinds' are in
 * `workExecutionExamples.ts`. They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_IDS, EXAMPLE_HASHES } from '../kinds/exampleStory.js';
import { LONG, REFERENCE_BUDGET, REFERENCE_CONTRACT, REFERENCE_SELECTION_BASIS, RELATIVE_ID } from '../kinds/exampleVariants.js';
import type { KindExamples } from '../kinds/kindTypes.js';

export const EXAMPLE_WORK_CONTRACT = {
  contractVersion: 1,
  goal: 'Port the billing schema to the ledger format with a reversible migration.',
  requiredDeliverables: [
    {
      deliverableId: 'migration-script',
      description: 'Idempotent SQL migration with a rollback script.',
      mediaType: 'application/sql',
      schema: 'urn:missionweave:schema:sql-migration',
    },
  ],
  acceptanceCriteria: [
    {
      criterionId: 'migration-roundtrip',
      description: 'The migration applies and rolls back cleanly on a masked copy of production data.',
      evidenceRequired: ['deterministic_test', 'artifact_integrity'],
    },
  ],
  inputArtifacts: [EXAMPLE_HASHES.spec],
  dependencyWorkItemIds: [EXAMPLE_IDS.dependencyWorkItem],
  allowedResources: [
    { resource: 'urn:missionweave:resource:billing-db-staging', operations: ['db.read', 'db.migrate'] },
  ],
  requiredCapabilities: [{ id: 'acme.sql-migration', version: '1.4.0' }],
  deadline: '2026-09-20T17:00:00Z',
  requestedUrgency: 'normal',
  businessImpact: 'Unblocks the ledger cut-over planned for the end of the quarter.',
  retryPolicy: {
    maxAttempts: 3,
    backoff: 'exponential',
    maxDelay: 'PT10M',
    retryableFailures: ['TRANSIENT_TOOL_FAILURE'],
  },
  budget: { currency: 'EUR', financialLimit: 80, modelTokenLimit: 300000, toolCallLimit: 400 },
  sideEffectRisk: 'reversible',
  executionApproval: 'policy_required',
};

export const WORK_EXAMPLES = {
  'membership.grant_delegation': {
    payload: {
      grantId: EXAMPLE_IDS.delegationGrant,
      granteeAgentId: EXAMPLE_IDS.worker,
      targetWorkItemId: EXAMPLE_IDS.parentWorkItem,
      allowedCapabilities: [
        { id: 'acme.sql-migration', version: '1.2.0' },
        { id: 'acme.data-validation', version: '3.0.0' },
      ],
      budget: {
        currency: 'EUR',
        financialLimit: 150,
        modelTokenLimit: 500000,
        toolCallLimit: 800,
        computeSecondsLimit: 36000,
        wallClockSecondsLimit: 172800,
        externalSideEffectLimit: 0,
      },
      maxDescendantDepth: 2,
      expiresAt: '2026-09-10T00:00:00Z',
    },
    required: ['grantId', 'granteeAgentId', 'targetWorkItemId', 'allowedCapabilities', 'budget', 'maxDescendantDepth', 'expiresAt'],
    invalid: [
      ['relative granteeAgentId', (p) => (p.granteeAgentId = 'sql-worker-7')],
      ['no allowed capabilities', (p) => (p.allowedCapabilities = [])],
      ['a repeated capability', (p) => (p.allowedCapabilities = [p.allowedCapabilities[0], p.allowedCapabilities[0]])],
      ['a reference capability requirement', (p) => (p.allowedCapabilities = [{ id: 'acme.sql-migration', minimumVersion: 2 }])],
      ['a non-semver capability version', (p) => (p.allowedCapabilities[0].version = '2')],
      ['a budget without toolCallLimit', (p) => delete p.budget.toolCallLimit],
      ['a budget without currency', (p) => delete p.budget.currency],
      ['a budget without externalSideEffectLimit', (p) => delete p.budget.externalSideEffectLimit],
      ['a budget in reference microunits', (p) => (p.budget = { ...REFERENCE_BUDGET, currency: 'EUR' })],
      ['negative maxDescendantDepth', (p) => (p.maxDescendantDepth = -1)],
      ['bad expiresAt', (p) => (p.expiresAt = 'tomorrow')],
    ],
    valid: [
      ['zero ceilings and depth', (p) => Object.assign(p, { maxDescendantDepth: 0, budget: { ...p.budget, financialLimit: 0, modelTokenLimit: 0 } })],
    ],
  },
  'work.propose': {
    payload: {
      proposalId: EXAMPLE_IDS.proposal,
      contract: EXAMPLE_WORK_CONTRACT,
      dependencyIds: [EXAMPLE_IDS.dependencyWorkItem],
      parentWorkItemId: EXAMPLE_IDS.parentWorkItem,
    },
    required: ['proposalId', 'contract'],
    invalid: [
      ['a reference Work Contract', (p) => (p.contract = REFERENCE_CONTRACT)],
      ['a contract without acceptanceCriteria', (p) => delete p.contract.acceptanceCriteria],
      ['a contract with no acceptance criteria', (p) => (p.contract.acceptanceCriteria = [])],
      ['a contract with no required capabilities', (p) => (p.contract.requiredCapabilities = [])],
      ['a repeated dependency', (p) => (p.dependencyIds = [EXAMPLE_IDS.dependencyWorkItem, EXAMPLE_IDS.dependencyWorkItem])],
      ['a relative dependency', (p) => (p.dependencyIds = ['ledger-spec'])],
      ['relative parentWorkItemId', (p) => (p.parentWorkItemId = 'ledger-backfill')],
    ],
  },
  'work.authorize': {
    payload: {
      workItemId: EXAMPLE_IDS.workItem,
      contract: EXAMPLE_WORK_CONTRACT,
      dependencyIds: [EXAMPLE_IDS.dependencyWorkItem],
      proposalId: EXAMPLE_IDS.proposal,
      parentWorkItemId: EXAMPLE_IDS.parentWorkItem,
      delegationGrantId: EXAMPLE_IDS.delegationGrant,
      exclusive: true,
      conversationId: EXAMPLE_IDS.workConversation,
    },
    required: ['workItemId', 'contract'],
    invalid: [
      ['exclusive as a string', (p) => (p.exclusive = 'true')],
      ['relative conversationId', (p) => (p.conversationId = 'schema-port')],
      ['relative delegationGrantId', (p) => (p.delegationGrantId = 'grant-1')],
      ['relative proposalId', (p) => (p.proposalId = 'proposal-1')],
      ['exclusive inside the contract (reference shape)', (p) => (p.contract.exclusive = true)],
      ['a contract with a reference budget', (p) => (p.contract.budget = REFERENCE_BUDGET)],
      ['a repeated dependency', (p) => (p.dependencyIds = [EXAMPLE_IDS.dependencyWorkItem, EXAMPLE_IDS.dependencyWorkItem])],
    ],
    valid: [
      ['a non-exclusive WorkItem', (p) => (p.exclusive = false)],
    ],
  },
  'work.offer': {
    payload: {
      workItemId: EXAMPLE_IDS.workItem,
      candidateAgentIds: [EXAMPLE_IDS.worker, 'urn:missionweave:agent:sql-worker-9'],
      selectionBasis: {
        requiredCapabilities: [{ id: 'acme.sql-migration', version: '1.4.0' }],
        verifiedMatches: [{ id: 'acme.sql-migration', version: '1.5.2' }],
        authorizationEligible: true,
        availabilityEstimate: '2026-09-01T13:00:00Z',
        expectedCost: 42.5,
        reliabilityEvidence: ['urn:missionweave:evidence:capability-sql-migration-2026'],
        policyRulesApplied: ['prefer-verified-capability', 'urgent-bounded-candidate-set'],
      },
      offerExpiresInSeconds: 1800,
      delegationGrantId: EXAMPLE_IDS.delegationGrant,
    },
    required: ['workItemId', 'candidateAgentIds', 'selectionBasis'],
    invalid: [
      ['no candidates', (p) => (p.candidateAgentIds = [])],
      ['a repeated candidate', (p) => (p.candidateAgentIds = [EXAMPLE_IDS.worker, EXAMPLE_IDS.worker])],
      ['a relative candidate', (p) => (p.candidateAgentIds = ['sql-worker-7'])],
      ['a reference selection basis', (p) => (p.selectionBasis = REFERENCE_SELECTION_BASIS)],
      ['a selection basis without policyRulesApplied', (p) => delete p.selectionBasis.policyRulesApplied],
      ['a selection basis with no verified matches', (p) => (p.selectionBasis.verifiedMatches = [])],
      ['a negative expectedCost', (p) => (p.selectionBasis.expectedCost = -1)],
      ['a bad availabilityEstimate', (p) => (p.selectionBasis.availabilityEstimate = 'soon')],
      ['a relative reliability Evidence id', (p) => (p.selectionBasis.reliabilityEvidence = ['evidence-1'])],
      ['offerExpiresInSeconds of 0', (p) => (p.offerExpiresInSeconds = 0)],
    ],
    valid: [
      ['a selection basis with no reliability Evidence', (p) => (p.selectionBasis.reliabilityEvidence = [])],
    ],
  },
  'work.accept_offer': {
    payload: { workItemId: EXAMPLE_IDS.workItem, ownershipLeaseSeconds: 900 },
    required: ['workItemId'],
    invalid: [
      ['ownershipLeaseSeconds of 0', (p) => (p.ownershipLeaseSeconds = 0)],
      ['ownershipLeaseSeconds over a year', (p) => (p.ownershipLeaseSeconds = 31536001)],
      ['relative workItemId', (p) => (p.workItemId = RELATIVE_ID)],
    ],
  },
  'approval.grant_execution': {
    payload: {
      approvalId: EXAMPLE_IDS.executionApproval,
      workItemId: EXAMPLE_IDS.workItem,
      ownershipEpoch: 2,
      operations: ['db.migrate'],
      resources: ['urn:missionweave:resource:billing-db-staging'],
      budget: { toolCallLimit: 50, externalSideEffectLimit: 1 },
      expiresInSeconds: 3600,
      comments: 'Staging only; production needs a separate approval.',
    },
    required: ['approvalId', 'workItemId', 'ownershipEpoch', 'operations'],
    invalid: [
      ['no operations', (p) => (p.operations = [])],
      ['a repeated operation', (p) => (p.operations = ['db.migrate', 'db.migrate'])],
      ['an operation with spaces', (p) => (p.operations = ['Deploy Prod'])],
      ['a relative resource', (p) => (p.resources = ['billing-db'])],
      ['a budget without any limit', (p) => (p.budget = {})],
      ['a budget in reference microunits', (p) => (p.budget = REFERENCE_BUDGET)],
      ['expiresInSeconds of 0', (p) => (p.expiresInSeconds = 0)],
      ['comments over 4000 characters', (p) => (p.comments = LONG(4001))],
      ['ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
    ],
    valid: [
      ['a production deployment with several operations', (p) => (p.operations = ['deploy:production', 'db.migrate'])],
    ],
  },
  'ext.missionweaveprotocol.core.work_dependency_add': {
    payload: {
      workItemId: EXAMPLE_IDS.workItem,
      dependencyId: EXAMPLE_IDS.dependencyWorkItem,
    },
    required: ['workItemId', 'dependencyId'],
    invalid: [
      ['relative dependencyId', (p) => (p.dependencyId = 'ledger-spec')],
      ['dependencyId as a list', (p) => (p.dependencyId = [EXAMPLE_IDS.dependencyWorkItem])],
      ['numeric workItemId', (p) => (p.workItemId = 1)],
    ],
  },
} satisfies Record<string, KindExamples>;
