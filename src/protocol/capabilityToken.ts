/**
 * The capability token of §12 on the wire: the grant's claims, signed by the Group Authority's
 * Event-signing key, as one opaque string `mwcap1.<claims>.<signature>` — `<claims>` the
 * base64url of the claims' JCS bytes, `<signature>` the base64url Ed25519 signature over the
 * ASCII bytes `mwcap1.<claims>` (the JWS shape: what is signed is exactly what is sent, so a
 * verifier never re-canonicalizes). The claims are public (the Group records them in
 * `ext.missionweave.core.capability_granted`); the signature makes the token a bearer secret,
 * and it exists only in the answer to the requesting Session and in the tool host's hands.
 *
 * Also the §16 idempotency key: an external side effect carries a key derived from the Mission,
 * WorkItem, Ownership Epoch and the Worker's logical operation ID, stable across retries of that
 * operation (a renewed or restarted Execution Lease does not change it), so the receiving tool
 * recognises a retried effect. Shared by the Authority and the SDK, so it lives here.
 */

import type { KeyObject } from 'node:crypto';
import { sign as cryptoSign } from 'node:crypto';
import { decodeBase64url, encodeBase64url } from './base64url.js';
import { sha256ContentHash, type ContentHash } from './contentHash.js';
import { canonicalBytes, canonicalize } from './jcs.js';
import { verifyEd25519 } from './ed25519.js';
import type { Principal } from './principal.js';
import { parseStrictJson } from './strictJson.js';

export const CAPABILITY_TOKEN_PREFIX = 'mwcap1';

/**
 * The longest token text accepted for decoding: the claims hold at most 256 tools and 256
 * resource grants (the payload schema's bounds), far below this; anything longer is refused
 * before any parsing, so a hostile token costs its reader one length check.
 */
export const MAX_CAPABILITY_TOKEN_CHARS = 256 * 1024;

/**
 * One resource and the operations the token allows on it (`common#/$defs/resourceGrant`), with the
 * highest data classification it may see there when its WorkItem's ancestry states one.
 */
export interface CapabilityResource {
  readonly resource: string;
  readonly operations: readonly string[];
  readonly constraints?: { readonly maxDataClassification?: string };
}

/** Ceilings in the ledger's usage units; an absent dimension allows nothing (`budgetMath.ts`). */
export type CapabilityLimits = Partial<Record<'financialMicrounits' | 'modelTokens' | 'toolCalls' | 'computeSeconds' | 'wallClockSeconds' | 'externalActions', number>>;

/** What a token binds (§12), as the Group records the grant. */
export interface CapabilityGrantClaims {
  readonly tokenId: string;
  readonly issuer: Principal;
  readonly agentId: string;
  readonly sessionEpoch: number;
  readonly missionId: string;
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
  readonly tools: readonly string[];
  readonly resources: readonly CapabilityResource[];
  readonly limits: CapabilityLimits;
  readonly issuedAt: string;
  readonly expiresAt: string;
}

/** The signed claims: the grant plus the key that signed it. */
export interface CapabilityClaims extends CapabilityGrantClaims {
  readonly keyId: string;
}

export type DecodedToken =
  | { readonly ok: true; readonly claims: CapabilityClaims; readonly signingInput: Buffer; readonly signature: Buffer }
  | { readonly ok: false; readonly reason: 'token-malformed' };

/** Signs `claims` with the Authority key into a token. */
export function encodeCapabilityToken(claims: CapabilityClaims, privateKey: KeyObject): string {
  const signingInput = `${CAPABILITY_TOKEN_PREFIX}.${encodeBase64url(canonicalBytes(claims))}`;
  const signature = cryptoSign(null, Buffer.from(signingInput, 'ascii'), privateKey);
  return `${signingInput}.${encodeBase64url(signature)}`;
}

function isClaims(value: unknown): value is CapabilityClaims {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const c = value as Record<string, unknown>;
  const strings = ['tokenId', 'keyId', 'agentId', 'missionId', 'groupId', 'workItemId', 'executionLeaseId', 'issuedAt', 'expiresAt'];
  const integers = ['sessionEpoch', 'ownershipEpoch'];
  return (
    strings.every((name) => typeof c[name] === 'string') &&
    integers.every((name) => Number.isSafeInteger(c[name])) &&
    Array.isArray(c['tools']) &&
    Array.isArray(c['resources']) &&
    typeof c['limits'] === 'object' &&
    c['limits'] !== null &&
    typeof c['issuer'] === 'object' &&
    c['issuer'] !== null
  );
}

/** Splits and parses a token without judging its signature; anything else is `token-malformed`. */
export function decodeCapabilityToken(token: string): DecodedToken {
  const malformed = { ok: false, reason: 'token-malformed' } as const;
  if (typeof token !== 'string' || token.length > MAX_CAPABILITY_TOKEN_CHARS) return malformed;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== CAPABILITY_TOKEN_PREFIX) return malformed;
  const claimBytes = decodeBase64url(parts[1] as string);
  const signature = decodeBase64url(parts[2] as string);
  if (claimBytes === null || signature === null || signature.length !== 64) return malformed;
  let claims: unknown;
  try {
    claims = parseStrictJson(claimBytes, { maxBytes: MAX_CAPABILITY_TOKEN_CHARS, maxDepth: 8 });
  } catch {
    return malformed;
  }
  // Only the canonical spelling is a token: one set of claims has exactly one token per key.
  if (!isClaims(claims) || canonicalize(claims) !== claimBytes.toString('utf8')) return malformed;
  return { ok: true, claims, signingInput: Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii'), signature };
}

/** Whether the token's signature is the key's. */
export function verifyCapabilitySignature(decoded: Extract<DecodedToken, { ok: true }>, publicKey: KeyObject): boolean {
  return verifyEd25519(publicKey, decoded.signingInput, decoded.signature);
}

/** The ID a log line or an error may name instead of a token (never the token). */
export function capabilityTokenIdOf(token: string): string | undefined {
  const decoded = decodeCapabilityToken(token);
  return decoded.ok ? decoded.claims.tokenId : undefined;
}

/** What a §16 idempotency key is derived from. */
export interface IdempotencyScope {
  readonly missionId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
}

/**
 * The stable idempotency key of one logical external operation (§16, §11.4): the sha256 of the
 * JCS object of the scope and the Worker's operation ID. Hashing bounds its length whatever the
 * identifiers are, and a tool needs only equality.
 */
export function idempotencyKeyOf(scope: IdempotencyScope, operationId: string): ContentHash {
  return sha256ContentHash(canonicalBytes({ missionId: scope.missionId, workItemId: scope.workItemId, ownershipEpoch: scope.ownershipEpoch, operationId }));
}
