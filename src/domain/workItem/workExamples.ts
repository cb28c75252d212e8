/**
 * The work kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_AT, EXAMPLE_LEASED, EXAMPLE_LATER, EXAMPLE_IDS, EXAMPLE_HASHES, exampleSignature } from '../kinds/exampleStory.js';
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

export const EXAMPLE_EVIDENCE = {
  evidenceId: EXAMPLE_IDS.evidence,
  missionId: EXAMPLE_IDS.mission,
  groupId: EXAMPLE_IDS.group,
  workItemId: EXAMPLE_IDS.workItem,
  type: 'deterministic_test',
  subject: { type: 'artifact', id: EXAMPLE_HASHES.migration },
  criterionIds: ['migration-roundtrip'],
  method: 'Apply, verify and roll back the migration on a masked staging snapshot.',
  result: 'passed',
  details: { applied: true, rolledBack: true, rowsChecked: 182344 },
  artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report],
  generatedBy: { type: 'agent', id: EXAMPLE_IDS.worker },
  toolVersion: 'pg_prove 3.36',
  createdAt: EXAMPLE_LATER,
  signature: exampleSignature('urn:missionweave:key:sql-worker-7', EXAMPLE_LATER),
};

export const EXAMPLE_FAILURE_EVIDENCE = {
  ...EXAMPLE_EVIDENCE,
  evidenceId: 'urn:missionweave:evidence:schema-port-failure',
  type: 'failure_report',
  subject: { type: 'work_item', id: EXAMPLE_IDS.workItem },
  method: 'Attempted the migration three times; the staging database rejected the lock.',
  result: 'failed',
  details: { attempts: 3, lastError: 'lock timeout' },
  artifactHashes: [],
};

export const EXAMPLE_REVIEW_EVIDENCE = {
  ...EXAMPLE_EVIDENCE,
  evidenceId: 'urn:missionweave:evidence:schema-port-review',
  type: 'reviewer_assessment',
  method: 'Reviewed the migration and its test report against the acceptance criterion.',
  details: { findings: 0 },
  generatedBy: { type: 'agent', id: EXAMPLE_IDS.reviewer },
  signature: exampleSignature('urn:missionweave:key:reviewer-3', EXAMPLE_LATER),
};


const CHECKPOINT = {
  phase: 'dry-run on staging',
  completedMilestones: ['schema diff generated', 'migration script drafted'],
  nextStep: 'run rollback test',
  stateArtifactHash: EXAMPLE_HASHES.checkpointState,
  createdAt: EXAMPLE_AT,
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
  },
  'work.propose': {
    payload: {
      proposalId: EXAMPLE_IDS.proposal,
      contract: EXAMPLE_WORK_CONTRACT,
      dependencyIds: [EXAMPLE_IDS.dependencyWorkItem],
      parentWorkItemId: EXAMPLE_IDS.parentWorkItem,
    },
    required: ['proposalId', 'contract'],
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
  },
  'work.accept_offer': {
    payload: { workItemId: EXAMPLE_IDS.workItem, ownershipLeaseSeconds: 900 },
    required: ['workItemId'],
  },
  'work.start': {
    payload: { workItemId: EXAMPLE_IDS.workItem, ownershipEpoch: 2, executionLeaseSeconds: 600 },
    required: ['workItemId', 'ownershipEpoch'],
  },
  'work.checkpoint': {
    payload: { ...EXAMPLE_LEASED, checkpoint: CHECKPOINT, resumeWithinSeconds: 1800 },
    required: ['workItemId', 'ownershipEpoch', 'executionLeaseId', 'checkpoint'],
  },
  'work.block': {
    payload: {
      ...EXAMPLE_LEASED,
      reason: 'Staging credentials expired; needs a renewed database grant.',
      checkpoint: CHECKPOINT,
      blockedLeaseSeconds: 3600,
    },
    required: ['workItemId', 'ownershipEpoch', 'executionLeaseId', 'reason', 'checkpoint'],
  },
  'work.unblock': {
    payload: { workItemId: EXAMPLE_IDS.workItem },
    required: ['workItemId'],
  },
  'work.submit': {
    payload: {
      ...EXAMPLE_LEASED,
      artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report],
      evidence: [EXAMPLE_EVIDENCE],
    },
    required: ['workItemId', 'ownershipEpoch', 'executionLeaseId', 'artifactHashes', 'evidence'],
  },
  'work.accept_result': {
    payload: { workItemId: EXAMPLE_IDS.workItem, evidence: [EXAMPLE_REVIEW_EVIDENCE] },
    required: ['workItemId', 'evidence'],
  },
  'work.fail': {
    payload: {
      ...EXAMPLE_LEASED,
      reason: 'Retry budget exhausted: the staging database kept rejecting the schema lock.',
      evidence: [EXAMPLE_FAILURE_EVIDENCE],
    },
    required: ['workItemId', 'reason'], coupled: ['ownershipEpoch', 'executionLeaseId'],
  },
  'work.cancel': {
    payload: { workItemId: EXAMPLE_IDS.workItem, reason: 'Superseded by the vendor-provided migration.' },
    required: ['workItemId', 'reason'],
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
  },
  'ext.missionweaveprotocol.core.work_dependency_add': {
    payload: {
      workItemId: EXAMPLE_IDS.workItem,
      dependencyId: EXAMPLE_IDS.dependencyWorkItem,
    },
    required: ['workItemId', 'dependencyId'],
  },
  'ext.missionweaveprotocol.core.work_execution_lease_renew': {
    payload: { ...EXAMPLE_LEASED, leaseSeconds: 600 },
    required: ['workItemId', 'ownershipEpoch', 'executionLeaseId'],
  },
  // Our own kind (docs/reference-differences.md): the Group Authority's lease closure.
  'ext.missionweave.core.work_lease_close': {
    payload: { workItemId: EXAMPLE_IDS.workItem, ownershipEpoch: 3, leaseId: EXAMPLE_IDS.executionLease, holderAgentId: EXAMPLE_IDS.worker, cause: 'expired' },
    required: ['workItemId', 'ownershipEpoch', 'leaseId', 'holderAgentId', 'cause'],
  },
} satisfies Record<string, KindExamples>;
