/**
 * What the kinds' payload variants (`KindExamples.invalid` / `valid`) build from: over-long
 * strings, relative ids, the reference runtime's own shapes where the spec defines another
 * (docs/reference-differences.md), and timestamps RFC 3339 refuses.
 */

import { EXAMPLE_HASHES, EXAMPLE_IDS } from './exampleStory.js';

export const RELATIVE_ID = 'work-items/schema-port';
export const LONG = (n: number): string => 'x'.repeat(n);
export const HASH = EXAMPLE_HASHES.migration;
/** Shapes the reference runtime sends where the spec defines its own (docs/reference-differences.md). */
export const REFERENCE_BUDGET = { financialMicrounits: 5000000, modelTokens: 100000 };
export const REFERENCE_EVIDENCE = { kind: 'deterministic-tests', description: 'pytest passed', success: true };
export const REFERENCE_CONTRACT = {
  goal: 'Port the billing schema',
  deliverables: ['migration script'],
  acceptanceCriteria: ['migration tests pass'],
  deadline: '2026-09-20T17:00:00Z',
};
export const REFERENCE_SELECTION_BASIS = {
  requiredCapabilities: [{ id: 'acme.sql-migration', minimumVersion: 1 }],
  verifiedCapabilityMatches: ['acme.sql-migration'],
  authorizationEligible: true,
  expectedCostMicrounits: 42500000,
};
export const REFERENCE_ARTIFACT = {
  id: EXAMPLE_IDS.artifact,
  contentHash: HASH,
  mediaType: 'application/sql',
  producingAgentId: EXAMPLE_IDS.worker,
  agentCardVersion: 4,
  missionId: EXAMPLE_IDS.mission,
  groupId: EXAMPLE_IDS.group,
  workItemId: EXAMPLE_IDS.workItem,
  createdAt: '2026-09-01T12:00:00Z',
  dataClassification: 'internal',
  signature: 'c2ln',
};
export const REFERENCE_AGENT_CARD = {
  agentId: EXAMPLE_IDS.worker,
  version: 4,
  displayName: 'SQL Migration Worker 7',
  owner: 'human:platform-lead',
  publicKey: 'A'.repeat(43),
  capabilities: [{ id: 'acme.sql-migration', version: 1 }],
  issuedAt: '2026-08-01T00:00:00Z',
  signature: 'c2ln',
};
export const PROVISIONAL = {
  provisional: true,
  contextPackageId: EXAMPLE_IDS.contextPackage,
  provisionalExpiresAt: '2026-09-01T13:00:00Z',
};
export const CONTENT_PARTS = [
  { type: 'text', text: 'Schema diff attached.' },
  { type: 'artifact_ref', artifactHash: HASH },
  { type: 'data_ref', schema: 'https://schemas.acme.example/row-counts.json', data: { invoices: 182344 } },
];
export const BAD_TIMESTAMPS = [
  ['date only', '2026-09-01'],
  ['no offset', '2026-09-01T12:00:00'],
  ['leap second', '2026-06-30T23:59:60Z'],
  ['unknown local offset', '2026-09-01T12:00:00-00:00'],
  ['space separator', '2026-09-01 12:00:00Z'],
  ['epoch seconds', 1788264000],
] as const;
