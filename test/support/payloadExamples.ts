/**
 * One schema-valid example payload per Command kind (schemas/payloads/<kind>.schema.json).
 *
 * The examples tell one story — a billing-ledger migration Mission — so ids line up across
 * kinds. Nested signed documents (Evidence, Artifact, Approval, Agent Card, Group Snapshot)
 * are schema-valid with a syntactically valid signature envelope; their signatures do not
 * verify. Tests that mutate an example must clone it first (`structuredClone`).
 */

export type PayloadExample = Record<string, unknown>;

const AT = '2026-09-01T12:00:00Z';
const LATER = '2026-09-01T12:05:00Z';
const DEADLINE = '2026-09-30T17:00:00Z';

export const EXAMPLE_IDS = {
  mission: 'urn:missionweave:mission:ledger-migration',
  group: 'urn:missionweave:group:ledger-migration',
  mainConversation: 'urn:missionweave:conversation:ledger-migration-planning',
  followUpMission: 'urn:missionweave:mission:ledger-migration-fixes',
  followUpGroup: 'urn:missionweave:group:ledger-migration-fixes',
  childMission: 'urn:missionweave:mission:ledger-backfill',
  childGroup: 'urn:missionweave:group:ledger-backfill',
  workItem: 'urn:missionweave:work-item:schema-port',
  workConversation: 'urn:missionweave:conversation:schema-port',
  dependencyWorkItem: 'urn:missionweave:work-item:ledger-spec',
  parentWorkItem: 'urn:missionweave:work-item:ledger-backfill',
  proposal: 'urn:missionweave:work-proposal:schema-port',
  owner: 'urn:missionweave:human:dana-okafor',
  coordinator: 'urn:missionweave:agent:coordinator-1',
  replacementCoordinator: 'urn:missionweave:agent:coordinator-2',
  worker: 'urn:missionweave:agent:sql-worker-7',
  reviewer: 'urn:missionweave:agent:reviewer-3',
  registry: 'urn:missionweave:service:agent-registry',
  groupAuthority: 'urn:missionweave:service:group-authority',
  organization: 'urn:missionweave:organization:acme',
  executionLease: 'urn:uuid:6d1f0c4e-8a9b-4c2d-9e7f-1a2b3c4d5e6f',
  delegationGrant: 'urn:missionweave:delegation-grant:backfill-subtree',
  contextPackage: 'urn:missionweave:context-package:schema-port-v1',
  message: 'urn:uuid:0b6f2d1a-3c4e-4f5a-8b9c-0d1e2f3a4b5c',
  approval: 'urn:missionweave:approval:ledger-migration-r3',
  executionApproval: 'urn:missionweave:approval:schema-port-migrate',
  overrideGrant: 'urn:missionweave:override:message-rate-1',
  evidence: 'urn:missionweave:evidence:schema-port-tests',
  artifact: 'urn:missionweave:artifact:schema-port-migration',
  snapshot: 'urn:missionweave:snapshot:ledger-migration-final',
} as const;

export const EXAMPLE_HASHES = {
  migration: 'sha256:3b7c4f1e9a2d8c6b5e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d',
  report: 'sha256:9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a4938271605f4e3d2c1b0a',
  spec: 'sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  checkpointState: 'sha256:fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210',
  state: 'sha256:aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55',
} as const;

/** A syntactically valid Ed25519 signature envelope (64 zero bytes, unpadded base64url). */
export function exampleSignature(keyId: string, createdAt: string = AT): Record<string, unknown> {
  return { algorithm: 'Ed25519', keyId, createdAt, value: 'A'.repeat(86) };
}

export const EXAMPLE_BUDGET = {
  currency: 'EUR',
  financialLimit: 1200,
  modelTokenLimit: 4000000,
  toolCallLimit: 5000,
  computeSecondsLimit: 864000,
  wallClockSecondsLimit: 1209600,
};

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
  createdAt: LATER,
  signature: exampleSignature('urn:missionweave:key:sql-worker-7', LATER),
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
  signature: exampleSignature('urn:missionweave:key:reviewer-3', LATER),
};

export const EXAMPLE_ARTIFACT = {
  artifactId: EXAMPLE_IDS.artifact,
  contentHash: EXAMPLE_HASHES.migration,
  uri: 'https://artifacts.acme.example/sha256/3b7c4f1e9a2d8c6b5e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d',
  sizeBytes: 18211,
  mediaType: 'application/sql',
  schemaUri: 'urn:missionweave:schema:sql-migration',
  producer: {
    agentId: EXAMPLE_IDS.worker,
    agentCardVersion: 4,
    capabilities: [{ id: 'acme.sql-migration', version: '1.4.0' }],
  },
  missionId: EXAMPLE_IDS.mission,
  groupId: EXAMPLE_IDS.group,
  workItemId: EXAMPLE_IDS.workItem,
  sourceArtifactHashes: [EXAMPLE_HASHES.spec],
  toolVersions: [{ name: 'sqitch', version: '1.4.1' }],
  modelVersions: [{ provider: 'acme', model: 'sql-coder', version: '2026-08-15' }],
  classification: 'confidential',
  createdAt: AT,
  signature: exampleSignature('urn:missionweave:key:sql-worker-7'),
};

export const EXAMPLE_APPROVAL = {
  approvalId: EXAMPLE_IDS.approval,
  kind: 'mission_final',
  decision: 'approved',
  missionId: EXAMPLE_IDS.mission,
  groupId: EXAMPLE_IDS.group,
  missionRevision: 3,
  artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report],
  acceptancePolicyVersion: '2.0.1',
  approver: { type: 'human', id: EXAMPLE_IDS.owner },
  comments: 'Evidence reviewed; approved for cut-over.',
  conditions: [],
  occurredAt: '2026-09-25T09:30:00Z',
  signature: exampleSignature('urn:missionweave:key:dana-okafor', '2026-09-25T09:30:00Z'),
};

export const EXAMPLE_AGENT_CARD = {
  agentId: EXAMPLE_IDS.worker,
  organizationId: EXAMPLE_IDS.organization,
  cardVersion: 4,
  displayName: 'SQL Migration Worker 7',
  description: 'Writes and verifies reversible PostgreSQL migrations.',
  owner: { type: 'human', id: 'urn:missionweave:human:platform-lead' },
  status: 'active',
  protocolVersions: ['0.1'],
  endpoints: [{ transport: 'wss', uri: 'wss://agents.acme.example/sql-worker-7' }],
  publicKeys: [
    {
      keyId: 'urn:missionweave:key:sql-worker-7',
      algorithm: 'Ed25519',
      publicKey: 'A'.repeat(43),
      validFrom: '2026-08-01T00:00:00Z',
    },
  ],
  capabilities: [
    {
      id: 'acme.sql-migration',
      version: '1.4.0',
      inputSchema: 'https://schemas.acme.example/capabilities/sql-migration-input.json',
      inputSchemaHash: EXAMPLE_HASHES.spec,
      outputSchema: 'https://schemas.acme.example/capabilities/sql-migration-output.json',
      outputSchemaHash: EXAMPLE_HASHES.report,
      constraints: { postgres: '>=15' },
      verifiedEvidence: ['urn:missionweave:evidence:capability-sql-migration-2026'],
    },
  ],
  maxConcurrency: 3,
  issuedAt: '2026-08-01T00:00:00Z',
  signature: exampleSignature('urn:missionweave:key:agent-registry', '2026-08-01T00:00:00Z'),
};

export const EXAMPLE_GROUP_SNAPSHOT = {
  snapshotId: EXAMPLE_IDS.snapshot,
  groupId: EXAMPLE_IDS.group,
  throughSequence: 3,
  eventIds: [
    'urn:missionweave:event:ledger-migration-1',
    'urn:missionweave:event:ledger-migration-2',
    'urn:missionweave:event:ledger-migration-3',
  ],
  stateHash: EXAMPLE_HASHES.state,
  policyLog: [
    {
      entryId: 'urn:missionweave:policy-log:final-approval',
      decision: 'Verified the signed final human Approval.',
      actor: { type: 'service', id: EXAMPLE_IDS.groupAuthority },
      occurredAt: '2026-09-25T09:30:01Z',
      details: { approvalId: EXAMPLE_IDS.approval },
    },
  ],
  createdBy: { type: 'service', id: EXAMPLE_IDS.groupAuthority },
  createdAt: '2026-09-26T00:00:00Z',
  signature: exampleSignature('urn:missionweave:key:group-authority', '2026-09-26T00:00:00Z'),
};

const DEFINITION_OF_DONE = [
  {
    criterionId: 'ledger-parity',
    description: 'Ledger balances equal legacy balances for every account after migration.',
    evidenceRequired: ['deterministic_test', 'business_rule'],
  },
  {
    criterionId: 'owner-sign-off',
    description: 'The finance owner signs off the cut-over report.',
    evidenceRequired: ['human_review'],
  },
];

const MISSION_CREATE = {
  missionId: EXAMPLE_IDS.mission,
  groupId: EXAMPLE_IDS.group,
  coordinatorId: EXAMPLE_IDS.coordinator,
  title: 'Migrate billing to the ledger',
  objective: 'Move all billing records to the double-entry ledger without downtime and with a tested rollback.',
  definitionOfDone: DEFINITION_OF_DONE,
  budget: EXAMPLE_BUDGET,
  deadline: DEADLINE,
  permissions: ['db.read', 'db.migrate'],
  coordinatorLeaseSeconds: 600,
  mainConversationId: EXAMPLE_IDS.mainConversation,
  approvalPolicy: { finalHumanApproval: true, highRiskExecutionApproval: true, policyVersion: '2.0.1' },
};

const CHECKPOINT = {
  phase: 'dry-run on staging',
  completedMilestones: ['schema diff generated', 'migration script drafted'],
  nextStep: 'run rollback test',
  stateArtifactHash: EXAMPLE_HASHES.checkpointState,
  createdAt: AT,
};

const LEASED = {
  workItemId: EXAMPLE_IDS.workItem,
  ownershipEpoch: 2,
  executionLeaseId: EXAMPLE_IDS.executionLease,
};

export const PAYLOAD_EXAMPLES: Record<string, PayloadExample> = {
  'mission.create': MISSION_CREATE,
  'mission.create_follow_up': {
    ...MISSION_CREATE,
    missionId: EXAMPLE_IDS.followUpMission,
    groupId: EXAMPLE_IDS.followUpGroup,
    mainConversationId: 'urn:missionweave:conversation:ledger-migration-fixes-planning',
    title: 'Fix rounding in migrated invoices',
    objective: 'Correct the rounding of migrated multi-currency invoices found after approval.',
    followUpOfMissionId: EXAMPLE_IDS.mission,
  },
  'mission.create_child': {
    missionId: EXAMPLE_IDS.childMission,
    groupId: EXAMPLE_IDS.childGroup,
    parentWorkItemId: EXAMPLE_IDS.parentWorkItem,
    coordinatorId: EXAMPLE_IDS.replacementCoordinator,
    title: 'Backfill historical ledger entries',
    objective: 'Backfill five years of ledger entries from the billing archive.',
    definitionOfDone: [DEFINITION_OF_DONE[0]],
    budget: { currency: 'EUR', financialLimit: 300, modelTokenLimit: 1000000 },
    deadline: '2026-09-25T17:00:00Z',
    permissions: ['db.read'],
    failurePolicy: 'fail_parent_work_item',
    coordinatorLeaseSeconds: 300,
    mainConversationId: 'urn:missionweave:conversation:ledger-backfill-planning',
  },
  'mission.assign_coordinator': { coordinatorId: EXAMPLE_IDS.replacementCoordinator, leaseSeconds: 900 },
  'mission.renew_coordinator': { leaseSeconds: 300 },
  'mission.submit_for_approval': { artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report] },
  'mission.approve': {
    approvalId: EXAMPLE_IDS.approval,
    missionRevision: 3,
    artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report],
    acceptancePolicyVersion: '2.0.1',
    comments: 'Evidence reviewed; approved for cut-over.',
    approval: EXAMPLE_APPROVAL,
  },
  'mission.request_changes': {
    missionRevision: 2,
    feedback: 'The parity report omits accounts closed before 2022; include them.',
  },
  'mission.cancel': { reason: 'The ledger vendor contract was terminated.' },
  'mission.terminate': { reason: 'The legacy archive cannot be read; no alternative source exists.' },
  'membership.change': {
    principal: { type: 'agent', id: EXAMPLE_IDS.worker },
    roles: ['worker'],
    provisional: false,
    visibilityAfterSequence: 12,
    scopes: ['message.post', 'work.accept_offer', 'work.execute'],
  },
  'membership.end': { principal: { type: 'agent', id: EXAMPLE_IDS.reviewer } },
  'membership.grant_delegation': {
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
  'message.post': {
    messageId: EXAMPLE_IDS.message,
    conversationId: EXAMPLE_IDS.workConversation,
    content: 'Dry run finished: 182,344 rows migrated, rollback verified. Report attached as an Artifact.',
    mentions: [{ type: 'agent', id: EXAMPLE_IDS.coordinator }],
    references: [EXAMPLE_IDS.workItem],
  },
  'message.correct': {
    amendmentId: 'urn:uuid:1c7e3d2b-4d5f-4a6b-9c0d-2e3f4a5b6c7d',
    messageId: EXAMPLE_IDS.message,
    replacementContent: [
      { type: 'text', text: 'Dry run finished: 182,344 rows migrated (not 183,344), rollback verified.' },
      { type: 'artifact_ref', artifactHash: EXAMPLE_HASHES.report },
    ],
    reason: 'The row count in the original Message was mistyped.',
  },
  'message.retract': {
    amendmentId: 'urn:uuid:2d8f4e3c-5e6a-4b7c-8d1e-3f4a5b6c7d8e',
    messageId: EXAMPLE_IDS.message,
    reason: 'Posted in the wrong Conversation.',
  },
  'message.redact': {
    amendmentId: 'urn:uuid:3e9a5f4d-6f7b-4c8d-9e2f-4a5b6c7d8e9f',
    messageId: EXAMPLE_IDS.message,
    reason: 'Contained a customer account number (data-protection policy DP-7).',
  },
  'work.propose': {
    proposalId: EXAMPLE_IDS.proposal,
    contract: EXAMPLE_WORK_CONTRACT,
    dependencyIds: [EXAMPLE_IDS.dependencyWorkItem],
    parentWorkItemId: EXAMPLE_IDS.parentWorkItem,
  },
  'work.authorize': {
    workItemId: EXAMPLE_IDS.workItem,
    contract: EXAMPLE_WORK_CONTRACT,
    dependencyIds: [EXAMPLE_IDS.dependencyWorkItem],
    proposalId: EXAMPLE_IDS.proposal,
    parentWorkItemId: EXAMPLE_IDS.parentWorkItem,
    delegationGrantId: EXAMPLE_IDS.delegationGrant,
    exclusive: true,
    conversationId: EXAMPLE_IDS.workConversation,
  },
  'work.offer': {
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
  'work.accept_offer': { workItemId: EXAMPLE_IDS.workItem, ownershipLeaseSeconds: 900 },
  'work.start': { workItemId: EXAMPLE_IDS.workItem, ownershipEpoch: 2, executionLeaseSeconds: 600 },
  'work.checkpoint': { ...LEASED, checkpoint: CHECKPOINT, resumeWithinSeconds: 1800 },
  'work.block': {
    ...LEASED,
    reason: 'Staging credentials expired; needs a renewed database grant.',
    checkpoint: CHECKPOINT,
    blockedLeaseSeconds: 3600,
  },
  'work.unblock': { workItemId: EXAMPLE_IDS.workItem },
  'work.submit': {
    ...LEASED,
    artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report],
    evidence: [EXAMPLE_EVIDENCE],
  },
  'work.accept_result': { workItemId: EXAMPLE_IDS.workItem, evidence: [EXAMPLE_REVIEW_EVIDENCE] },
  'work.fail': {
    ...LEASED,
    reason: 'Retry budget exhausted: the staging database kept rejecting the schema lock.',
    evidence: [EXAMPLE_FAILURE_EVIDENCE],
  },
  'work.cancel': { workItemId: EXAMPLE_IDS.workItem, reason: 'Superseded by the vendor-provided migration.' },
  'artifact.publish': { artifact: EXAMPLE_ARTIFACT, ownershipEpoch: 2, executionLeaseId: EXAMPLE_IDS.executionLease },
  'approval.grant_execution': {
    approvalId: EXAMPLE_IDS.executionApproval,
    workItemId: EXAMPLE_IDS.workItem,
    ownershipEpoch: 2,
    operations: ['db.migrate'],
    resources: ['urn:missionweave:resource:billing-db-staging'],
    budget: { toolCallLimit: 50, externalSideEffectLimit: 1 },
    expiresInSeconds: 3600,
    comments: 'Staging only; production needs a separate approval.',
  },
  'policy.grant_cooperation_override': {
    grantId: EXAMPLE_IDS.overrideGrant,
    policyName: 'message_rate',
    beneficiary: { type: 'agent', id: EXAMPLE_IDS.worker },
    targetCommandKind: 'message.post',
    targetActionId: 'urn:uuid:4fab6a5e-7a8c-4d9e-8f3a-5b6c7d8e9fa0',
    reason: 'Incident summary must go out although the hourly message rate is reached.',
    expiresAt: '2026-09-01T13:00:00Z',
  },
  'ext.missionweaveprotocol.registry.agent_card_register': { card: EXAMPLE_AGENT_CARD },
  'ext.missionweaveprotocol.identity.session_open': { agentId: EXAMPLE_IDS.worker },
  'ext.missionweave.core.child_mission_settle': { parentWorkItemId: EXAMPLE_IDS.workItem, childMissionId: EXAMPLE_IDS.childMission },
  'ext.missionweave.core.budget_revise': {
    workItemId: EXAMPLE_IDS.workItem,
    budget: { currency: 'EUR', financialLimit: 120, modelTokenLimit: 450000, toolCallLimit: 600 },
    reason: 'The backfill needs more tool calls than planned; the exhausted WorkItem resumes.',
  },
  'ext.missionweaveprotocol.core.profile_pin': { profileUri: 'urn:missionweave:profile:example:tally:1', majorVersion: 1 },
  'ext.missionweaveprotocol.core.work_dependency_add': {
    workItemId: EXAMPLE_IDS.workItem,
    dependencyId: EXAMPLE_IDS.dependencyWorkItem,
  },
  'ext.missionweaveprotocol.core.work_execution_lease_renew': { ...LEASED, leaseSeconds: 600 },
  'ext.missionweaveprotocol.core.resource_usage_record': {
    ...LEASED,
    usageDelta: {
      financialMicrounits: 1250000,
      modelTokens: 48000,
      toolCalls: 17,
      computeSeconds: 420,
      wallClockSeconds: 900,
      externalActions: 0,
    },
  },
  'ext.missionweaveprotocol.core.group_archive': { snapshot: EXAMPLE_GROUP_SNAPSHOT },
  'ext.missionweave.core.work_lease_close': { workItemId: EXAMPLE_IDS.workItem, ownershipEpoch: 3, leaseId: EXAMPLE_IDS.executionLease, holderAgentId: EXAMPLE_IDS.worker, cause: 'expired' },
  'ext.missionweave.core.capability_grant': {
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
};
