/**
 * What a Registry change names (src/app/registryCache.ts): the delta sent to the crypto workers
 * and the Agents whose open sessions are re-checked. A snapshot this process extended names its
 * changes without a scan; a reloaded one falls back to the full comparison.
 */

import { describe, expect, it } from 'vitest';
import type { AgentFacts } from '../src/domain/model.js';
import { affectedAgents, registryDelta, type RegistrySnapshot } from '../src/app/registrySnapshot.js';
import { LayeredMap, withLayeredEntry } from '../src/protocol/layeredMap.js';
import { KeyRegistry, type KeyBindingEvidence } from '../src/protocol/signing/keyRegistry.js';
import { generatePrivateKey, publicKeyBase64url } from '../src/protocol/signing/signDocument.js';

const ORG = 'urn:missionweave:organization:changes';

function binding(n: number): KeyBindingEvidence {
  return { keyId: `urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, principal: { type: 'agent', id: `urn:missionweave:agent:a${n}` }, algorithm: 'Ed25519', publicKey: publicKeyBase64url(generatePrivateKey()), validFrom: '2026-01-01T00:00:00Z', validityHistory: [] };
}

const facts = (n: number, status: AgentFacts['status'] = 'active'): AgentFacts => ({ agentId: `urn:missionweave:agent:a${n}`, cardVersion: 1, status, capabilities: new Map() });

function snapshotOf(count: number): RegistrySnapshot {
  const bindings = Array.from({ length: count }, (_, i) => binding(i));
  return {
    revision: 1,
    registry: KeyRegistry.fromEvidence({ organizationId: ORG, bindings }, { pointsAlreadyProven: true }),
    agents: LayeredMap.of(bindings.map((_, i): [string, AgentFacts] => [`urn:missionweave:agent:a${i}`, facts(i)])),
  };
}

describe('Registry changes between two snapshots', () => {
  const previous = snapshotOf(200);

  it('given a card registered here (one binding, one Agent), when compared, then the delta and the affected Agents are exactly that', () => {
    const added = binding(500);
    const next: RegistrySnapshot = { revision: 2, registry: previous.registry.extend([added]), agents: withLayeredEntry(previous.agents, 'urn:missionweave:agent:a500', facts(500)) };
    expect(registryDelta(previous, next)).toEqual([added]);
    expect(affectedAgents(previous, next)).toEqual(new Set(['urn:missionweave:agent:a500']));
  });

  it('given a revoked key and a deactivated card here, when compared, then the affected Agents are their owners only', () => {
    const keyOf7 = `urn:uuid:00000000-0000-4000-8000-${String(7).padStart(12, '0')}`;
    const next: RegistrySnapshot = {
      revision: 2,
      registry: previous.registry.recordValidity(keyOf7, { recordedAt: '2026-06-01T00:00:00Z', revokedAt: '2026-06-01T00:00:00Z' }),
      agents: withLayeredEntry(previous.agents, 'urn:missionweave:agent:a9', facts(9, 'revoked')),
    };
    expect(registryDelta(previous, next).map((b) => b.keyId)).toEqual([keyOf7]);
    expect(affectedAgents(previous, next)).toEqual(new Set(['urn:missionweave:agent:a7', 'urn:missionweave:agent:a9']));
  });

  it('given a snapshot reloaded from the database (new maps), when compared, then the Agents are unknown (every session is re-checked) and the delta is found by a full scan', () => {
    const added = binding(600);
    const reloaded: RegistrySnapshot = {
      revision: 2,
      registry: KeyRegistry.fromEvidence({ organizationId: ORG, bindings: [...previous.registry.evidence().bindings, added] }, { pointsAlreadyProven: true }),
      agents: LayeredMap.of([...previous.agents, ['urn:missionweave:agent:a600', facts(600)]]),
    };
    expect(affectedAgents(previous, reloaded)).toBeUndefined();
    expect(registryDelta(previous, reloaded).map((b) => b.keyId)).toEqual([added.keyId]);
  });
});
