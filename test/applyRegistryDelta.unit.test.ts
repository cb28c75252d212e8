/**
 * A crypto worker's Registry moved forward by a delta (src/app/workers/applyRegistryDelta.ts):
 * new bindings, validity records for known ones, and a binding new and updated in one delta —
 * the same Registry the main thread builds from the whole evidence.
 */

import { describe, expect, it } from 'vitest';
import { applyRegistryDelta } from '../src/app/workers/applyRegistryDelta.js';
import { KeyRegistry, type KeyBindingEvidence } from '../src/protocol/signing/keyRegistry.js';
import { generatePrivateKey, publicKeyBase64url } from '../src/protocol/signing/signDocument.js';

const ORG = 'urn:missionweave:organization:delta';

function binding(n: number, validityHistory: KeyBindingEvidence['validityHistory'] = []): KeyBindingEvidence {
  return { keyId: `urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, principal: { type: 'agent', id: `urn:missionweave:agent:a${n}` }, algorithm: 'Ed25519', publicKey: publicKeyBase64url(generatePrivateKey()), validFrom: '2026-01-01T00:00:00Z', validityHistory };
}

const revoked = (sequence: number) => ({ sequence, recordedAt: '2026-06-01T00:00:00Z', revokedAt: '2026-06-01T00:00:00Z' });

describe('applyRegistryDelta', () => {
  it('adds new bindings and the missing validity records of known ones, as the whole evidence would', () => {
    const known = binding(1);
    const start = KeyRegistry.fromEvidence({ organizationId: ORG, bindings: [known] });
    const many = Array.from({ length: 300 }, (_, i) => binding(i + 2));
    const later = binding(1000);
    const delta = [...many, { ...known, validityHistory: [revoked(1)] }, later, { ...later, validityHistory: [revoked(1)] }];
    const moved = applyRegistryDelta(start, delta);
    const whole = KeyRegistry.fromEvidence({ organizationId: ORG, bindings: [{ ...known, validityHistory: [revoked(1)] }, ...many, { ...later, validityHistory: [revoked(1)] }] });
    for (const b of [known, ...many, later]) {
      expect(moved.resolve(b.keyId)?.binding, b.keyId).toEqual(whole.resolve(b.keyId)?.binding);
    }
    expect(moved.resolve(known.keyId)?.revokedAt).toBeDefined();
    expect(moved.resolve(later.keyId)?.revokedAt).toBeDefined();
    // The starting Registry is untouched (immutable).
    expect(start.resolve(known.keyId)?.revokedAt).toBeUndefined();
    expect(start.resolve(later.keyId)).toBeUndefined();
  });

  it('leaves the Registry as it is for a delta it already holds', () => {
    const b = binding(7, [revoked(1)]);
    const start = KeyRegistry.fromEvidence({ organizationId: ORG, bindings: [b] });
    expect(applyRegistryDelta(start, [b]).resolve(b.keyId)?.binding).toEqual(b);
  });
});
