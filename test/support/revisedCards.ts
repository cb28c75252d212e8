/**
 * An Agent's card registered again as version 2, for tests of revocation and Registry catch-up:
 * the same key, `status` as given, and the key's `revokedAt` or `validUntil` set when `at` is.
 */

import { issueAgentCard } from '../../src/app/issueDocuments.js';
import { signDocument } from '../../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { ORGANIZATION_ID, type Actor, type Harness } from './harness.js';

export function revisedCard(h: Harness, agent: Actor, status: 'active' | 'revoked', at?: string, boundary: 'revokedAt' | 'validUntil' = 'revokedAt'): JsonObject {
  const binding = h.authority.registry.current.registry.resolve(agent.key.keyId)?.binding;
  if (binding === undefined) throw new Error('the Agent has no key binding');
  const card = issueAgentCard(
    {
      agentId: agent.principal.id,
      organizationId: ORGANIZATION_ID,
      cardVersion: 2,
      displayName: 'reader',
      owner: h.registry.principal,
      endpoint: 'wss://127.0.0.1:8443',
      keys: [{ keyId: binding.keyId, publicKey: binding.publicKey, validFrom: binding.validFrom }],
      capabilities: ['code.review@1.0.0'],
      maxConcurrency: 2,
      issuedAt: h.now(),
    },
    h.registry.key,
  );
  const { signature: _signature, publicKeys, ...unsigned } = card as JsonObject & { publicKeys: JsonObject[] };
  const keys = publicKeys.map((key) => (at === undefined ? key : { ...key, [boundary]: at }));
  return signDocument('agent-card', { ...unsigned, status, publicKeys: keys }, h.registry.key) as unknown as JsonObject;
}
