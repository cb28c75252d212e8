/**
 * Strict Ed25519 for the Signed Document Verification Profile (§6.4).
 *
 * Public keys are checked once, at enrolment: canonical encoding, on the curve, not the
 * identity, prime order. Signatures are then verified with `node:crypto` (OpenSSL), about 30×
 * faster than pure-JS arithmetic here. OpenSSL checks the cofactorless equation by re-encoding
 * [S]B − [k]A and comparing it with the received R bytes; with A and B in the prime-order
 * subgroup, a match proves R is canonical and of prime order too, so the expensive stage-3
 * analysis of R runs only when verification fails, to classify the failure.
 */

import { createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { Point } from '@noble/ed25519';

/** p = 2^255 − 19, the field prime. */
const P = (1n << 255n) - 19n;
/** L = 2^252 + 27742317777372353535851937790883648493, the prime order of the base point. */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

/** L as 32 little-endian bytes, for a constant-cost S < L check without BigInt. */
const L_BYTES = Buffer.from(L.toString(16).padStart(64, '0'), 'hex').reverse();

export type PointRejection =
  | 'wrong-length'
  | 'noncanonical-encoding'
  | 'negative-zero'
  | 'off-curve'
  | 'identity'
  | 'small-order'
  | 'mixed-order';

function littleEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] as number);
  return n;
}

/**
 * Classifies a 32-byte compressed Edwards25519 encoding under strict RFC 8032 decoding and the
 * subgroup rules. Returns `null` for a canonical prime-order point, or the identity when
 * `allowIdentity` (the identity is permitted for R, never for a public key).
 */
export function classifyPoint(bytes: Uint8Array, allowIdentity: boolean): PointRejection | null {
  if (bytes.length !== 32) return 'wrong-length';
  const signBit = ((bytes[31] as number) & 0x80) !== 0;
  const masked = Uint8Array.from(bytes);
  masked[31] = (masked[31] as number) & 0x7f;
  const y = littleEndian(masked);
  if (y >= P) return 'noncanonical-encoding';
  // x = 0 exactly when y = ±1; RFC 8032 §5.1.3 step 4 rejects the sign bit set on x = 0.
  if (signBit && (y === 1n || y === P - 1n)) return 'negative-zero';
  let point: Point;
  try {
    point = Point.fromBytes(bytes, false);
  } catch {
    return 'off-curve';
  }
  if (point.is0()) return allowIdentity ? null : 'identity';
  if (point.isSmallOrder()) return 'small-order';
  if (!point.isTorsionFree()) return 'mixed-order';
  return null;
}

/** True when the little-endian scalar S satisfies 0 ≤ S < L (never reduced, §6.4). */
export function isCanonicalScalar(sBytes: Uint8Array): boolean {
  if (sBytes.length !== 32) return false;
  for (let i = 31; i >= 0; i--) {
    const a = sBytes[i] as number;
    const b = L_BYTES[i] as number;
    if (a !== b) return a < b;
  }
  return false;
}

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 key bytes follow it. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Imports 32 raw public-key bytes for `node:crypto`. Call once per key and keep the object. */
export function importPublicKey(raw: Uint8Array): KeyObject {
  return createPublicKey({
    key: Buffer.concat([SPKI_PREFIX, raw]),
    format: 'der',
    type: 'spki',
  });
}

/** The cofactorless RFC 8032 check through OpenSSL. */
export function verifyEd25519(key: KeyObject, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return cryptoVerify(null, message, key, signature);
  } catch {
    return false;
  }
}
