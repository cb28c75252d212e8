/**
 * The organization kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_IDS, EXAMPLE_HASHES, exampleSignature } from '../kinds/exampleStory.js';
import { REFERENCE_AGENT_CARD } from '../kinds/exampleVariants.js';
import type { KindExamples } from '../kinds/kindTypes.js';

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


export const ORGANIZATION_EXAMPLES = {
  'ext.missionweaveprotocol.registry.agent_card_register': {
    payload: { card: EXAMPLE_AGENT_CARD },
    required: ['card'],
    invalid: [
      ['a reference Agent Card', (p) => (p.card = REFERENCE_AGENT_CARD)],
      ['an unsigned Agent Card', (p) => delete p.card.signature],
      ['an Agent Card without capabilities', (p) => (p.card.capabilities = [])],
      ['a plain ws:// endpoint', (p) => (p.card.endpoints = [{ transport: 'wss', uri: 'ws://agents.acme.example/w7' }])],
      ['an Agent Card with permissions', (p) => (p.card.permissions = ['db.migrate'])],
    ],
  },
  'ext.missionweaveprotocol.identity.session_open': {
    payload: { agentId: EXAMPLE_IDS.worker },
    required: ['agentId'],
    invalid: [
      ['relative agentId', (p) => (p.agentId = 'sql-worker-7')],
      ['empty agentId', (p) => (p.agentId = '')],
      ['an IRI-only agentId', (p) => (p.agentId = 'urn:missionweave:agent:größe')],
      ['a sessionEpoch', (p) => (p.sessionEpoch = 3)],
    ],
  },
} satisfies Record<string, KindExamples>;
