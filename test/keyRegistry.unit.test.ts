/**
 * Registry evidence: immutable bindings, Organization-wide uniqueness, append-only validity
 * history, strict point checks at enrolment, and incremental extension.
 */

import { describe, expect, it } from 'vitest';
import { KeyRegistry, RegistryProblem } from '../src/protocol/signing/keyRegistry.js';
import { evidence, makeKey, ORGANIZATION } from './support/keys.js';

const alice = { type: 'agent', id: 'urn:missionweave:agent:alice' } as const;
const bob = { type: 'human', id: 'urn:missionweave:human:bob' } as const;

function reasonOf(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    if (error instanceof RegistryProblem) return error.reason;
    throw error;
  }
  return 'accepted';
}

describe('KeyRegistry', () => {
  it('resolves every valid binding and reports authoritative absence', () => {
    const a = makeKey(alice);
    const b = makeKey(bob);
    const registry = KeyRegistry.fromEvidence(evidence(a, b));
    expect(registry.size).toBe(2);
    expect(registry.resolve(a.binding.keyId)?.principal).toEqual(alice);
    expect(registry.resolve('urn:missionweave:key:none')).toBeUndefined();
  });

  it('treats a repeated identical declaration as one logical binding', () => {
    const a = makeKey(alice);
    expect(KeyRegistry.fromEvidence(evidence(a, a)).size).toBe(1);
  });

  it('refuses key-ID reuse, public-key reuse across Principals, and key-ID aliases', () => {
    const a = makeKey(alice);
    const rebound = makeKey(alice, { keyId: a.binding.keyId });
    expect(reasonOf(() => KeyRegistry.fromEvidence(evidence(a, rebound)))).toBe('key-id-reused');
    const crossPrincipal = makeKey(bob, { publicKey: a.binding.publicKey });
    expect(reasonOf(() => KeyRegistry.fromEvidence(evidence(a, crossPrincipal)))).toBe('public-key-reused');
    const alias = makeKey(alice, { publicKey: a.binding.publicKey });
    expect(reasonOf(() => KeyRegistry.fromEvidence(evidence(a, alias)))).toBe('key-id-alias');
  });

  it('refuses an invalid unrelated binding: evidence is validated as a whole', () => {
    const good = makeKey(alice);
    const cases: [Record<string, unknown>, string][] = [
      [{ keyId: 'urn:missionweave:key:x\n' }, 'binding-key-id-invalid'],
      [{ principal: { type: 'agent', id: 'urn:a:%zz' } }, 'binding-principal-invalid'],
      [{ principal: { type: 'robot', id: 'urn:a:b' } }, 'binding-principal-invalid'],
      [{ algorithm: 'ES256' }, 'binding-algorithm-unsupported'],
      [{ publicKey: 'AAAA=' }, 'public-key-encoding'],
      [{ publicKey: 'AAAA' }, 'public-key-wrong-length'],
      [{ publicKey: 'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, 'public-key-identity'],
      [{ publicKey: '7P_______________________________________38' }, 'public-key-small-order'],
      [{ validFrom: '2026-02-30T00:00:00Z' }, 'registry-timestamp-invalid'],
    ];
    for (const [override, reason] of cases) {
      const bad = { ...makeKey(bob).binding, ...override };
      expect(reasonOf(() => KeyRegistry.fromEvidence({ organizationId: ORGANIZATION, bindings: [good.binding, bad] })), JSON.stringify(override)).toBe(reason);
    }
    expect(reasonOf(() => KeyRegistry.fromEvidence({ organizationId: 'acme', bindings: [good.binding] }))).toBe('registry-organization-invalid');
    expect(reasonOf(() => KeyRegistry.fromEvidence({ organizationId: ORGANIZATION }))).toBe('registry-malformed');
  });

  it('keeps validity history append-only: boundaries may only move earlier', () => {
    const record = (sequence: number, field: 'validUntil' | 'revokedAt', at: string) => ({ sequence, recordedAt: '2026-07-20T00:00:00Z', [field]: at });
    const earlier = makeKey(alice, { validityHistory: [record(1, 'validUntil', '2026-08-01T00:00:00Z'), record(2, 'validUntil', '2026-07-25T00:00:00Z')] });
    expect(KeyRegistry.fromEvidence(evidence(earlier)).resolve(earlier.binding.keyId)?.validUntil?.seconds).toBe(Date.UTC(2026, 6, 25) / 1000);
    const later = makeKey(alice, { validityHistory: [record(1, 'revokedAt', '2026-07-25T00:00:00Z'), record(2, 'revokedAt', '2026-08-01T00:00:00Z')] });
    expect(reasonOf(() => KeyRegistry.fromEvidence(evidence(later)))).toBe('validity-extended');
    const gap = makeKey(alice, { validityHistory: [record(2, 'validUntil', '2026-07-25T00:00:00Z')] });
    expect(reasonOf(() => KeyRegistry.fromEvidence(evidence(gap)))).toBe('validity-history-invalid');
    const empty = makeKey(alice, { validityHistory: [{ sequence: 1, recordedAt: '2026-07-20T00:00:00Z' }] });
    expect(reasonOf(() => KeyRegistry.fromEvidence(evidence(empty)))).toBe('validity-history-invalid');
  });

  it('extends incrementally, checking new bindings against the old indexes', () => {
    const a = makeKey(alice);
    const base = KeyRegistry.fromEvidence(evidence(a));
    const b = makeKey(bob);
    const grown = base.extend([b.binding]);
    expect(grown.size).toBe(2);
    expect(base.size).toBe(1);
    expect(reasonOf(() => grown.extend([makeKey(bob, { publicKey: a.binding.publicKey }).binding]))).toBe('public-key-reused');
    expect(grown.evidence().bindings.map((x) => x.keyId).sort()).toEqual([a.binding.keyId, b.binding.keyId].sort());
  });
});
