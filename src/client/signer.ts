/**
 * Signing on the Agent's side: a pluggable `Signer` (so a KMS, an HSM or another process can
 * hold the private key, and only the 64-byte Ed25519 signature crosses over), and the helpers
 * an Agent needs to sign its own Signed Documents — Commands, Evidence, Artifact manifests,
 * Approvals (§6.4): the signature covers the JCS bytes of the document without its top-level
 * `signature`, and `signature.createdAt` repeats the protected signed time byte for byte. The
 * signing hash is the `sha256:` content hash of exactly those bytes.
 */

import { createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { encodeBase64url } from '../protocol/base64url.js';
import { sha256ContentHash, type ContentHash } from '../protocol/contentHash.js';
import { canonicalBytesWithout, canonicalMembers, joinCanonicalMembers } from '../protocol/jcs.js';
import type { SignatureEnvelope } from '../protocol/signing/signDocument.js';
import { PROFILES, type DocumentKind } from '../protocol/signing/profiles.js';
import { isUtcZTimestamp } from '../protocol/timestamp.js';

/** Produces pure Ed25519 (RFC 8032) signatures under one registered key. */
export interface Signer {
  /** The Registry key ID the signatures verify under. */
  readonly keyId: string;
  /** The 64-byte Ed25519 signature of exactly `bytes`. */
  sign(bytes: Uint8Array): Promise<Uint8Array> | Uint8Array;
}

/** A Signer over a local Ed25519 private key (a KeyObject or PKCS#8 PEM text). */
export function keySigner(keyId: string, privateKey: KeyObject | string): Signer {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ed25519') throw new TypeError('the key must be an Ed25519 private key');
  return { keyId, sign: (bytes) => cryptoSign(null, bytes, key) };
}

/** Calls the signer and insists on what Ed25519 returns: 64 bytes. */
export async function signatureOf(signer: Signer, bytes: Uint8Array): Promise<Buffer> {
  const signature = await signer.sign(bytes);
  if (!(signature instanceof Uint8Array) || signature.length !== 64) {
    throw new TypeError(`the signer for ${signer.keyId} returned ${signature instanceof Uint8Array ? `${signature.length} bytes` : 'no bytes'}, not a 64-byte Ed25519 signature`);
  }
  return Buffer.from(signature);
}

/** The exact §6.4 signing bytes of a document: its JCS form without the top-level `signature`. */
export function signingBytes(document: Readonly<Record<string, unknown>>): Buffer {
  return canonicalBytesWithout(document as Record<string, unknown>, 'signature');
}

/** The §6.4 signing hash: `sha256:` of the signing bytes. */
export function signingHash(document: Readonly<Record<string, unknown>>): ContentHash {
  return sha256ContentHash(signingBytes(document));
}

export interface SignedResult<T> {
  readonly document: T & { readonly signature: SignatureEnvelope };
  readonly signingBytes: Buffer;
  readonly signingHash: ContentHash;
}

/**
 * Signs a document of one of the §6.4 kinds (`command`, `evidence`, `artifact`, `approval`, …)
 * with a Signer. Its protected signed time (`issuedAt`, `createdAt`, `occurredAt`, … as the
 * profile names it) must already be a UTC `Z` timestamp; any `signature` member is replaced.
 */
export async function signWith<T extends Record<string, unknown>>(kind: DocumentKind, unsigned: T, signer: Signer): Promise<SignedResult<T>> {
  const protectedTime = unsigned[PROFILES[kind].protectedTime];
  if (typeof protectedTime !== 'string' || !isUtcZTimestamp(protectedTime)) {
    throw new TypeError(`${kind}: ${PROFILES[kind].protectedTime} must be a UTC Z timestamp`);
  }
  const rest: Record<string, unknown> = { ...unsigned };
  delete rest['signature'];
  const bytes = Buffer.from(joinCanonicalMembers(canonicalMembers(rest)), 'utf8');
  const signature: SignatureEnvelope = { algorithm: 'Ed25519', keyId: signer.keyId, createdAt: protectedTime, value: encodeBase64url(await signatureOf(signer, bytes)) };
  return { document: { ...(rest as T), signature }, signingBytes: bytes, signingHash: sha256ContentHash(bytes) };
}

/** Signs Evidence (§13.2): protected time `createdAt`, signer `generatedBy`. */
export function signEvidence<T extends Record<string, unknown>>(unsigned: T, signer: Signer): Promise<SignedResult<T>> {
  return signWith('evidence', unsigned, signer);
}

/** Signs an Artifact manifest (§13.1): protected time `createdAt`, signer the Agent `producer.agentId`. */
export function signArtifactManifest<T extends Record<string, unknown>>(unsigned: T, signer: Signer): Promise<SignedResult<T>> {
  return signWith('artifact', unsigned, signer);
}

/** Signs an Approval (§7.3): protected time `occurredAt`, signer `approver`. */
export function signApproval<T extends Record<string, unknown>>(unsigned: T, signer: Signer): Promise<SignedResult<T>> {
  return signWith('approval', unsigned, signer);
}
