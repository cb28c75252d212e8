/**
 * Test keys and Registry bindings made on the fly.
 */

import { randomUUID } from 'node:crypto';
import type { Principal } from '../../src/protocol/principal.js';
import type { KeyBindingEvidence } from '../../src/protocol/signing/keyRegistry.js';
import {
  generatePrivateKey,
  publicKeyBase64url,
  type SigningKey,
} from '../../src/protocol/signing/signDocument.js';

export interface TestKey {
  readonly principal: Principal;
  readonly signingKey: SigningKey;
  readonly binding: KeyBindingEvidence;
}

export function makeKey(principal: Principal, overrides: Partial<KeyBindingEvidence> = {}): TestKey {
  const privateKey = generatePrivateKey();
  const keyId = overrides.keyId ?? `urn:uuid:${randomUUID()}`;
  const binding: KeyBindingEvidence = {
    keyId,
    principal,
    algorithm: 'Ed25519',
    publicKey: publicKeyBase64url(privateKey),
    validFrom: '2026-01-01T00:00:00Z',
    validityHistory: [],
    ...overrides,
  };
  return { principal, signingKey: { keyId, privateKey }, binding };
}

export const ORGANIZATION = 'urn:missionweave:organization:test';

export function evidence(...keys: TestKey[]): { organizationId: string; bindings: KeyBindingEvidence[] } {
  return { organizationId: ORGANIZATION, bindings: keys.map((k) => k.binding) };
}

/** A schema-valid unsigned Agent Command. */
export function unsignedCommand(actor: Principal, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocolVersion: '0.1',
    actionId: `urn:uuid:${randomUUID()}`,
    actor,
    sessionEpoch: 1,
    membershipEpoch: 1,
    groupId: 'urn:missionweave:group:test',
    kind: 'message.post',
    correlationId: `urn:uuid:${randomUUID()}`,
    issuedAt: '2026-07-15T00:00:00Z',
    payload: {
      messageId: `urn:uuid:${randomUUID()}`,
      conversationId: 'urn:missionweave:conversation:test',
      content: 'hello',
    },
    ...overrides,
  };
}
