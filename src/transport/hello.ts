/**
 * The HELLO handshake (§6.3): a fresh, one-use server challenge whose bytes are the JCS of a
 * transcript binding the Agent, its key, both nonces, the protocol version, a challenge ID and an
 * expiry. The client signs exactly the decoded challenge bytes (as the public reference
 * runtime's clients do), and the server verifies against the transcript it kept, never against
 * anything the client echoes.
 */

import { randomBytes } from 'node:crypto';
import type { RegistrySnapshot } from '../app/registrySnapshot.js';
import { decodeBase64url, encodeBase64url } from '../protocol/base64url.js';
import { isCanonicalScalar, verifyEd25519 } from '../protocol/ed25519.js';
import { canonicalBytes } from '../protocol/jcs.js';
import { keyValidAt } from '../protocol/signing/keyRegistry.js';
import type { SemanticStage } from '../protocol/signing/verification.js';
import { instantFromMillis } from '../protocol/timestamp.js';

export interface ClientInit {
  readonly agentId: string;
  readonly keyId: string;
  readonly clientNonce: string;
}

export interface PendingChallenge extends ClientInit {
  readonly serverNonce: string;
  readonly challengeId: string;
  readonly expiresAtMillis: number;
  /** The exact bytes the client must sign. */
  readonly transcript: Buffer;
  /** base64url of `transcript`, as sent. */
  readonly challenge: string;
}

export function issueChallenge(init: ClientInit, nowMillis: number, ttlMs: number): PendingChallenge {
  const serverNonce = randomBytes(32).toString('base64url');
  const challengeId = randomBytes(18).toString('base64url');
  const expiresAtMillis = nowMillis + ttlMs;
  const transcript = canonicalBytes({
    agentId: init.agentId,
    challengeId,
    clientNonce: init.clientNonce,
    expiresAt: new Date(expiresAtMillis).toISOString(),
    keyId: init.keyId,
    protocolVersion: '0.1',
    serverNonce,
  });
  return { ...init, serverNonce, challengeId, expiresAtMillis, transcript, challenge: encodeBase64url(transcript) };
}

export interface ClientResponse extends ClientInit {
  readonly serverNonce: string;
  readonly challengeSignature: string;
}

/**
 * Why a response does not authenticate, or `null` when it does. Reasons are protected
 * diagnostics; the wire only ever says AUTH_INVALID_SIGNATURE.
 */
export function rejectResponse(pending: PendingChallenge, response: ClientResponse, registry: RegistrySnapshot, nowMillis: number): string | null {
  if (nowMillis >= pending.expiresAtMillis) return 'challenge-expired';
  const echoed =
    response.agentId === pending.agentId &&
    response.keyId === pending.keyId &&
    response.clientNonce === pending.clientNonce &&
    response.serverNonce === pending.serverNonce;
  if (!echoed) return 'transcript-mismatch';
  const refused = credentialRefusal(registry, pending.agentId, pending.keyId, nowMillis);
  if (refused !== null) return refused;
  const key = registry.registry.resolve(pending.keyId);
  if (key === undefined) return 'unknown-key';
  const signature = decodeBase64url(response.challengeSignature);
  if (signature === null || signature.length !== 64 || !isCanonicalScalar(signature.subarray(32))) return 'signature-malformed';
  return verifyEd25519(key.keyObject, pending.transcript, signature) ? null : 'signature-mismatch';
}

/**
 * Why the Registry no longer lets this Agent authenticate with this key now, or `null`: the key
 * is bound to the Agent and valid now (§6.4), and the Agent's latest card is active (§6.1).
 * HELLO checks it once; an open session is held to it on every Registry change (sessions.ts).
 */
export function credentialRefusal(registry: RegistrySnapshot, agentId: string, keyId: string, nowMillis: number): string | null {
  const key = registry.registry.resolve(keyId);
  if (key === undefined) return 'unknown-key';
  if (key.principal.type !== 'agent' || key.principal.id !== agentId) return 'key-bound-to-another-principal';
  if (!keyValidAt(key, instantFromMillis(nowMillis))) return 'key-not-valid-now';
  if (registry.agents.get(agentId)?.status !== 'active') return 'agent-card-not-active';
  return null;
}

/** The §6.4 semantic stage each refusal reason of HELLO falls in, for the Policy Log. */
export const HELLO_REFUSAL_STAGES: Readonly<Record<string, SemanticStage>> = {
  'response-schema-invalid': 'schema',
  'no-pending-challenge': 'admission',
  'challenge-expired': 'admission',
  'transcript-mismatch': 'signature-envelope',
  'unknown-key': 'key-resolution',
  'key-bound-to-another-principal': 'key-resolution',
  'key-not-valid-now': 'key-resolution',
  'agent-card-not-active': 'admission',
  'signature-malformed': 'signature-envelope',
  'signature-mismatch': 'signature',
};

/** An opaque session token: 32 random bytes. The connection itself carries the session. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}
