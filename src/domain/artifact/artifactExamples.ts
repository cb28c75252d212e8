/**
 * The artifact kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_AT, EXAMPLE_IDS, EXAMPLE_HASHES, exampleSignature } from '../kinds/exampleStory.js';
import { REFERENCE_ARTIFACT } from '../kinds/exampleVariants.js';
import type { KindExamples } from '../kinds/kindTypes.js';

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
  createdAt: EXAMPLE_AT,
  signature: exampleSignature('urn:missionweave:key:sql-worker-7'),
};


export const ARTIFACT_EXAMPLES = {
  'artifact.publish': {
    payload: { artifact: EXAMPLE_ARTIFACT, ownershipEpoch: 2, executionLeaseId: EXAMPLE_IDS.executionLease },
    required: ['artifact', 'ownershipEpoch', 'executionLeaseId'],
    invalid: [
      ['a reference Artifact', (p) => (p.artifact = REFERENCE_ARTIFACT)],
      ['an unsigned Artifact manifest', (p) => delete p.artifact.signature],
      ['an Artifact with inline content', (p) => (p.artifact.content = 'ALTER TABLE invoices …')],
      ['an Artifact with a bad contentHash', (p) => (p.artifact.contentHash = 'sha256:ABC')],
      ['an Artifact without retrieval uri', (p) => delete p.artifact.uri],
      ['ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
      ['relative executionLeaseId', (p) => (p.executionLeaseId = 'lease-1')],
    ],
  },
} satisfies Record<string, KindExamples>;
