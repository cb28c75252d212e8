/**
 * The story every core kind's example payload tells (`KindExamples`): a billing-ledger migration
 * Mission, so that ids line up across kinds and modules. Nested signed documents are schema-valid
 * with a syntactically valid signature envelope; their signatures do not verify. Tests that
 * mutate an example must clone it first (`structuredClone`).
 */

export const EXAMPLE_AT = '2026-09-01T12:00:00Z';
export const EXAMPLE_LATER = '2026-09-01T12:05:00Z';
export const EXAMPLE_DEADLINE = '2026-09-30T17:00:00Z';

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
export function exampleSignature(keyId: string, createdAt: string = EXAMPLE_AT): Record<string, unknown> {
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

/** The lease fence of the story's running WorkItem (its Ownership Epoch and Execution Lease). */
export const EXAMPLE_LEASED = {
  workItemId: EXAMPLE_IDS.workItem,
  ownershipEpoch: 2,
  executionLeaseId: EXAMPLE_IDS.executionLease,
};
