/**
 * Producing Signed Documents: the signature covers the JCS bytes of the document without its
 * top-level `signature`, and `signature.createdAt` repeats the protected signed time byte for
 * byte (§6.4).
 */

import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign as cryptoSign,
  type KeyObject,
} from 'node:crypto';
import { encodeBase64url } from '../base64url.js';
import { canonicalMembers, joinCanonicalMembers, withCanonicalMember } from '../jcs.js';
import { isUtcZTimestamp } from '../timestamp.js';
import type { Signature } from '../schemas/wireTypes.js';
import { PROFILES, type DocumentKind } from './profiles.js';

/** `common#/$defs/signature`. */
export type SignatureEnvelope = Readonly<Signature>;

export interface SigningKey {
  readonly keyId: string;
  readonly privateKey: KeyObject;
}

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Imports a 32-byte Ed25519 seed. */
export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The raw 32-byte public key of a private or public key object, as canonical base64url. */
export function publicKeyBase64url(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const jwk = publicKey.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new Error('not an Ed25519 key');
  return jwk.x;
}

/** A fresh Ed25519 private key. */
export function generatePrivateKey(): KeyObject {
  return generateKeyPairSync('ed25519').privateKey;
}

/** Signs raw bytes (used for HELLO challenges and tests). */
export function signBytes(privateKey: KeyObject, bytes: Uint8Array): string {
  return encodeBase64url(cryptoSign(null, bytes, privateKey));
}

/**
 * Returns a copy of `unsigned` with a v0.1 signature envelope. The document's protected signed
 * time must already be a UTC `Z` timestamp; it is copied into `signature.createdAt`.
 */
export function signDocument<T extends Record<string, unknown>>(
  kind: DocumentKind,
  unsigned: T,
  key: SigningKey,
): T & { signature: SignatureEnvelope } {
  return signDocumentWithBytes(kind, unsigned, key).document;
}

/**
 * As `signDocument`, also returning the exact signing bytes (for the signing hash) and the
 * signed document's canonical text, each member serialized once.
 */
export function signDocumentWithBytes<T extends Record<string, unknown>>(
  kind: DocumentKind,
  unsigned: T,
  key: SigningKey,
): { document: T & { signature: SignatureEnvelope }; signingBytes: Buffer; text: string } {
  const protectedTime = unsigned[PROFILES[kind].protectedTime];
  if (typeof protectedTime !== 'string' || !isUtcZTimestamp(protectedTime)) {
    throw new Error(`${kind}: ${PROFILES[kind].protectedTime} must be a UTC Z timestamp`);
  }
  const rest = { ...unsigned } as Record<string, unknown>;
  delete rest['signature'];
  const members = canonicalMembers(rest);
  const signingBytes = Buffer.from(joinCanonicalMembers(members), 'utf8');
  const value = signBytes(key.privateKey, signingBytes);
  const signature: SignatureEnvelope = {
    algorithm: 'Ed25519',
    keyId: key.keyId,
    createdAt: protectedTime,
    value,
  };
  const text = joinCanonicalMembers(withCanonicalMember(members, 'signature', signature));
  return { document: { ...(rest as T), signature }, signingBytes, text };
}
