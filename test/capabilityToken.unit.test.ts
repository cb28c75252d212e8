/**
 * The capability token's wire form (§12) and the tool-side offline check: a token verifies only
 * with the Authority key the Registry binds to the issuing service, unaltered, unexpired, and
 * for what it binds; the §16 idempotency key is stable per logical operation.
 */

import { describe, expect, it } from 'vitest';
import { verifyCapabilityOffline } from '../src/client/toolVerifier.js';
import { decodeCapabilityToken, encodeCapabilityToken, idempotencyKeyOf, MAX_CAPABILITY_TOKEN_CHARS, type CapabilityClaims } from '../src/protocol/capabilityToken.js';
import { KeyRegistry } from '../src/protocol/signing/keyRegistry.js';
import { generatePrivateKey, publicKeyBase64url } from '../src/protocol/signing/signDocument.js';

const AUTHORITY = { type: 'service' as const, id: 'urn:missionweave:service:group-authority' };
const authorityKey = generatePrivateKey();
const otherKey = generatePrivateKey();
const NOW = Date.parse('2026-09-01T12:00:00.000Z');

const claims: CapabilityClaims = {
  tokenId: 'urn:missionweave:capability:t1',
  keyId: 'urn:missionweave:key:authority-1',
  issuer: AUTHORITY,
  agentId: 'urn:missionweave:agent:worker-7',
  sessionEpoch: 2,
  missionId: 'urn:missionweave:mission:m1',
  groupId: 'urn:missionweave:group:g1',
  workItemId: 'urn:missionweave:work-item:w1',
  ownershipEpoch: 3,
  executionLeaseId: 'urn:missionweave:lease:e1',
  tools: ['acme.sql-migration'],
  resources: [{ resource: 'urn:missionweave:resource:db', operations: ['db.read'] }],
  limits: { toolCalls: 1 },
  issuedAt: '2026-09-01T12:00:00.000Z',
  expiresAt: '2026-09-01T12:05:00.000Z',
};

function binding(keyId: string, principal: { type: 'service' | 'agent'; id: string }, key = authorityKey) {
  return { keyId, principal, algorithm: 'Ed25519', publicKey: publicKeyBase64url(key), validFrom: '2026-01-01T00:00:00Z', validityHistory: [] };
}

const registry = KeyRegistry.fromEvidence({ organizationId: 'urn:missionweave:organization:acme', bindings: [binding(claims.keyId, AUTHORITY)] });
const token = encodeCapabilityToken(claims, authorityKey);

describe('the capability token', () => {
  it('is mwcap1.<JCS claims>.<Ed25519 signature>, and decodes to exactly its claims', () => {
    expect(token).toMatch(/^mwcap1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    const decoded = decodeCapabilityToken(token);
    expect(decoded.ok && decoded.claims).toEqual(claims);
    expect(verifyCapabilityOffline(token, registry, { agentId: claims.agentId, workItemId: claims.workItemId, tool: 'acme.sql-migration', resource: 'urn:missionweave:resource:db', operation: 'db.read' }, NOW)).toEqual({ ok: true, claims });
  });

  it('is refused tampered, re-encoded, truncated or oversized', () => {
    const [prefix, body, signature] = token.split('.') as [string, string, string];
    const altered = Buffer.from(JSON.stringify({ ...claims, limits: { toolCalls: 99 } })).toString('base64url');
    expect(verifyCapabilityOffline(`${prefix}.${altered}.${signature}`, registry, {}, NOW)).toMatchObject({ ok: false, reason: 'token-malformed' });
    const forgedBody = encodeCapabilityToken({ ...claims, limits: { toolCalls: 99 } }, otherKey).split('.')[1] as string;
    expect(verifyCapabilityOffline(`${prefix}.${forgedBody}.${signature}`, registry, {}, NOW)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyCapabilityOffline(`${prefix}.${body}`, registry, {}, NOW)).toMatchObject({ ok: false, reason: 'token-malformed' });
    expect(verifyCapabilityOffline(`mwcap2.${body}.${signature}`, registry, {}, NOW)).toMatchObject({ ok: false, reason: 'token-malformed' });
    expect(verifyCapabilityOffline('x'.repeat(MAX_CAPABILITY_TOKEN_CHARS + 1), registry, {}, NOW)).toMatchObject({ ok: false, reason: 'token-malformed' });
  });

  it('is refused signed by another key, by an unknown key, or by a key the Registry binds to an Agent', () => {
    expect(verifyCapabilityOffline(encodeCapabilityToken(claims, otherKey), registry, {}, NOW)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyCapabilityOffline(encodeCapabilityToken({ ...claims, keyId: 'urn:missionweave:key:nobody' }, authorityKey), registry, {}, NOW)).toMatchObject({ ok: false, reason: 'unknown-key' });
    const agentKeyed = KeyRegistry.fromEvidence({ organizationId: 'urn:missionweave:organization:acme', bindings: [binding(claims.keyId, { type: 'agent', id: claims.agentId })] });
    expect(verifyCapabilityOffline(token, agentKeyed, {}, NOW)).toMatchObject({ ok: false, reason: 'not-a-service-key' });
  });

  it('is refused expired, and for another Agent, WorkItem, tool or operation', () => {
    expect(verifyCapabilityOffline(token, registry, {}, Date.parse(claims.expiresAt))).toMatchObject({ ok: false, reason: 'expired' });
    expect(verifyCapabilityOffline(token, registry, {}, Date.parse(claims.expiresAt) - 1)).toMatchObject({ ok: true });
    for (const expectation of [{ agentId: 'urn:missionweave:agent:other' }, { workItemId: 'urn:missionweave:work-item:w2' }, { tool: 'acme.payments' }, { operation: 'db.write' }]) {
      expect(verifyCapabilityOffline(token, registry, expectation, NOW)).toMatchObject({ ok: false, reason: 'mismatch' });
    }
  });
});

describe('the token’s data classification bound (§12 "allowed … data")', () => {
  const bounded = encodeCapabilityToken({ ...claims, resources: [{ resource: 'urn:missionweave:resource:db', operations: ['db.read'], constraints: { maxDataClassification: 'internal' } }] }, authorityKey);

  it('allows data at or below the bound its resource carries, and refuses more sensitive data', () => {
    for (const level of ['public', 'internal'] as const) {
      expect(verifyCapabilityOffline(bounded, registry, { resource: 'urn:missionweave:resource:db', operation: 'db.read', dataClassification: level }, NOW)).toMatchObject({ ok: true });
    }
    for (const level of ['confidential', 'restricted'] as const) {
      expect(verifyCapabilityOffline(bounded, registry, { resource: 'urn:missionweave:resource:db', operation: 'db.read', dataClassification: level }, NOW)).toMatchObject({ ok: false, reason: 'mismatch' });
    }
    // A resource without a bound states none: its ancestry left the classification open.
    expect(verifyCapabilityOffline(token, registry, { resource: 'urn:missionweave:resource:db', dataClassification: 'restricted' }, NOW)).toMatchObject({ ok: true });
  });
});

describe('the §16 idempotency key', () => {
  it('is stable for one Mission, WorkItem, Ownership Epoch and operation, and differs when any of them does', () => {
    const key = idempotencyKeyOf(claims, 'send-invoice-1');
    expect(key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(idempotencyKeyOf({ ...claims }, 'send-invoice-1')).toBe(key);
    for (const other of [idempotencyKeyOf(claims, 'send-invoice-2'), idempotencyKeyOf({ ...claims, ownershipEpoch: 4 }, 'send-invoice-1'), idempotencyKeyOf({ ...claims, workItemId: 'urn:x:w2' }, 'send-invoice-1'), idempotencyKeyOf({ ...claims, missionId: 'urn:x:m2' }, 'send-invoice-1')]) {
      expect(other).not.toBe(key);
    }
  });
});
