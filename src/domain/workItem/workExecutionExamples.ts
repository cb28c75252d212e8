/**
 * The work kinds' example payloads from start to result (Execution Lease, checkpoint, submission,
 * failure), with the members their payload schemas require and their kind-specific variants
 * (`KindExamples`). They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_AT, EXAMPLE_LEASED, EXAMPLE_LATER, EXAMPLE_IDS, EXAMPLE_HASHES, exampleSignature } from '../kinds/exampleStory.js';
import { LONG, REFERENCE_EVIDENCE, RELATIVE_ID } from '../kinds/exampleVariants.js';
import type { KindExamples } from '../kinds/kindTypes.js';

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

export const WORK_EXECUTION_EXAMPLES = {
  'work.start': {
    payload: { workItemId: EXAMPLE_IDS.workItem, ownershipEpoch: 2, executionLeaseSeconds: 600 },
    required: ['workItemId', 'ownershipEpoch'],
    invalid: [
      ['ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
      ['ownershipEpoch as a string', (p) => (p.ownershipEpoch = '2')],
      ['executionLeaseSeconds of 0', (p) => (p.executionLeaseSeconds = 0)],
      ['an executionLeaseId', (p) => (p.executionLeaseId = EXAMPLE_IDS.executionLease)],
    ],
  },
  'work.checkpoint': {
    payload: { ...EXAMPLE_LEASED, checkpoint: CHECKPOINT, resumeWithinSeconds: 1800 },
    required: ['workItemId', 'ownershipEpoch', 'executionLeaseId', 'checkpoint'],
    invalid: [
      ['a checkpoint without phase', (p) => delete p.checkpoint.phase],
      ['a checkpoint without createdAt', (p) => delete p.checkpoint.createdAt],
      ['an empty phase', (p) => (p.checkpoint.phase = '')],
      ['a phase over 500 characters', (p) => (p.checkpoint.phase = LONG(501))],
      ['a bad checkpoint createdAt', (p) => (p.checkpoint.createdAt = '2026-09-01T12:00:00+0100')],
      ['a bad stateArtifactHash', (p) => (p.checkpoint.stateArtifactHash = 'sha256:1234')],
      ['an empty nextStep', (p) => (p.checkpoint.nextStep = '')],
      ['an empty milestone', (p) => (p.checkpoint.completedMilestones = [''])],
      ['a checkpoint with a progress percentage', (p) => (p.checkpoint.percentComplete = 60)],
      ['relative executionLeaseId', (p) => (p.executionLeaseId = 'lease-1')],
      ['resumeWithinSeconds of 0', (p) => (p.resumeWithinSeconds = 0)],
    ],
    valid: [
      ['a minimal checkpoint', (p) => (p.checkpoint = { phase: 'analysis', createdAt: '2026-09-01T12:00:00Z' })],
    ],
  },
  'work.block': {
    payload: {
      ...EXAMPLE_LEASED,
      reason: 'Staging credentials expired; needs a renewed database grant.',
      checkpoint: CHECKPOINT,
      blockedLeaseSeconds: 3600,
    },
    required: ['workItemId', 'ownershipEpoch', 'executionLeaseId', 'reason', 'checkpoint'],
    invalid: [
      ['empty reason', (p) => (p.reason = '')],
      ['a checkpoint without createdAt', (p) => delete p.checkpoint.createdAt],
      ['blockedLeaseSeconds of 0', (p) => (p.blockedLeaseSeconds = 0)],
      ['ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
    ],
  },
  'work.unblock': {
    payload: { workItemId: EXAMPLE_IDS.workItem },
    required: ['workItemId'],
    invalid: [
      ['relative workItemId', (p) => (p.workItemId = RELATIVE_ID)],
      ['numeric workItemId', (p) => (p.workItemId = 7)],
      ['workItemId over 512 characters', (p) => (p.workItemId = `urn:missionweave:work-item:${LONG(500)}`)],
    ],
  },
  'work.submit': {
    payload: {
      ...EXAMPLE_LEASED,
      artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report],
      evidence: [EXAMPLE_EVIDENCE],
    },
    required: ['workItemId', 'ownershipEpoch', 'executionLeaseId', 'artifactHashes', 'evidence'],
    invalid: [
      ['no Artifact hashes', (p) => (p.artifactHashes = [])],
      ['Artifact ids (reference shape)', (p) => { p.artifactIds = [EXAMPLE_IDS.artifact]; delete p.artifactHashes; }],
      ['no Evidence', (p) => (p.evidence = [])],
      ['reference Evidence', (p) => (p.evidence = [REFERENCE_EVIDENCE])],
      ['unsigned Evidence', (p) => delete p.evidence[0].signature],
      ['Evidence signed with another algorithm', (p) => (p.evidence[0].signature.algorithm = 'ES256')],
      ['Evidence without criteria', (p) => (p.evidence[0].criterionIds = [])],
      ['ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
    ],
  },
  'work.accept_result': {
    payload: { workItemId: EXAMPLE_IDS.workItem, evidence: [EXAMPLE_REVIEW_EVIDENCE] },
    required: ['workItemId', 'evidence'],
    invalid: [
      ['no Evidence', (p) => (p.evidence = [])],
      ['reference Evidence', (p) => (p.evidence = [REFERENCE_EVIDENCE])],
      ['Evidence with a bad createdAt', (p) => (p.evidence[0].createdAt = '2026-09-01T12:05:00')],
      ['Evidence as one object', (p) => (p.evidence = EXAMPLE_EVIDENCE)],
    ],
  },
  'work.fail': {
    payload: {
      ...EXAMPLE_LEASED,
      reason: 'Retry budget exhausted: the staging database kept rejecting the schema lock.',
      evidence: [EXAMPLE_FAILURE_EVIDENCE],
    },
    required: ['workItemId', 'reason'], coupled: ['ownershipEpoch', 'executionLeaseId'],
    invalid: [
      ['ownershipEpoch without executionLeaseId', (p) => delete p.executionLeaseId],
      ['executionLeaseId without ownershipEpoch', (p) => delete p.ownershipEpoch],
      ['an empty Evidence list', (p) => (p.evidence = [])],
      ['reference Evidence', (p) => (p.evidence = [REFERENCE_EVIDENCE])],
      ['empty reason', (p) => (p.reason = '')],
      ['ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
    ],
    valid: [
      ['a Coordinator failure without lease scope or Evidence', (p) => { delete p.ownershipEpoch; delete p.executionLeaseId; delete p.evidence; }],
    ],
  },
  'work.cancel': {
    payload: { workItemId: EXAMPLE_IDS.workItem, reason: 'Superseded by the vendor-provided migration.' },
    required: ['workItemId', 'reason'],
    invalid: [
      ['empty reason', (p) => (p.reason = '')],
      ['relative workItemId', (p) => (p.workItemId = RELATIVE_ID)],
    ],
  },
  'ext.missionweaveprotocol.core.work_execution_lease_renew': {
    payload: { ...EXAMPLE_LEASED, leaseSeconds: 600 },
    required: ['workItemId', 'ownershipEpoch', 'executionLeaseId'],
    invalid: [
      ['leaseSeconds of 0', (p) => (p.leaseSeconds = 0)],
      ['relative executionLeaseId', (p) => (p.executionLeaseId = 'lease-1')],
      ['ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
    ],
  },
  // Our own kind (docs/reference-differences.md): the Group Authority's lease closure.
  'ext.missionweave.core.work_lease_close': {
    payload: { workItemId: EXAMPLE_IDS.workItem, ownershipEpoch: 3, leaseId: EXAMPLE_IDS.executionLease, holderAgentId: EXAMPLE_IDS.worker, cause: 'expired' },
    required: ['workItemId', 'ownershipEpoch', 'leaseId', 'holderAgentId', 'cause'],
    invalid: [
      ['an unknown cause', (p) => (p.cause = 'timeout')],
      ['relative leaseId', (p) => (p.leaseId = 'lease-1')],
      ['ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
    ],
  },
} satisfies Record<string, KindExamples>;
