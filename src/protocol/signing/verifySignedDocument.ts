/**
 * The six cryptographic stages of the Signed Document Verification Profile (§6.4), in order,
 * stopping at the first failure.
 *
 * Stage 3's analysis of R is the one check deferred: a passing OpenSSL verification proves R
 * canonical and of prime order (see ed25519.ts), so R is examined only when a later stage
 * fails, and a bad R then takes precedence as the earlier stage.
 */

import { decodeBase64url } from '../base64url.js';
import { sha256ContentHash } from '../contentHash.js';
import { classifyPoint, importPublicKey, isCanonicalScalar, verifyEd25519 } from '../ed25519.js';
import { isProtocolError } from '../errorCodes.js';
import { canonicalMembers, joinCanonicalMembers } from '../jcs.js';
import { samePrincipal, type Principal } from '../principal.js';
import type { SchemaRegistry } from '../schemas/registry.js';
import { parseStrictJson, type JsonObject, type JsonValue } from '../strictJson.js';
import { isUtcZTimestamp, parseTimestamp } from '../timestamp.js';
import { keyValidAt, KeyRegistry, RegistryProblem } from './keyRegistry.js';
import { PROFILES, type DocumentKind, type SignedDocumentProfile } from './profiles.js';
import { failure, type VerificationResult } from './verification.js';

/**
 * Registry evidence for stage 4: a validated registry, or the problem that made the evidence
 * unusable (reported at stage 4, after stages 1–3 of the document have passed).
 */
export type RegistryInput = KeyRegistry | RegistryProblem;

/** Builds stage-4 evidence from raw Registry data without throwing. */
export function registryInput(evidence: unknown): RegistryInput {
  try {
    return KeyRegistry.fromEvidence(evidence);
  } catch (error) {
    if (error instanceof RegistryProblem) return error;
    throw error;
  }
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Stage 3 selects who must have signed; stage 4 compares it with the key's binding. */
function expectedSigner(profile: SignedDocumentProfile, document: JsonObject): Principal | 'any-service' {
  const signer = profile.signer;
  if (signer.rule === 'service-principal') return 'any-service';
  if (signer.rule === 'principal-object') return document[signer.member] as Principal;
  let value: JsonValue | undefined = document;
  for (const step of signer.path) value = isObject(value) ? value[step] : undefined;
  return { type: 'agent', id: value as string };
}

/** The deferred part of stage 3: examine R; a rejection reason or `null`. */
function rejectR(signature: Buffer): string | null {
  const rejection = classifyPoint(signature.subarray(0, 32), true);
  return rejection === null ? null : `signature-r-${rejection}`;
}

/**
 * A fixed public key (RFC 8032 §7.1, test 1) standing in for the key a stage-4 failure cannot
 * use. Such a refusal still spends stage 5 and the stage-6 equation on it, as a known key's
 * refusal does, so how long a refusal takes does not tell which key IDs exist. Its result is
 * never used: stage 4 has already failed.
 */
const STAND_IN_KEY = importPublicKey(Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex'));

function spendStagesFiveAndSix(document: JsonObject, signature: Buffer): void {
  try {
    verifyEd25519(STAND_IN_KEY, Buffer.from(joinCanonicalMembers(canonicalMembers(document), 'signature'), 'utf8'), signature);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
  }
}

/** Runs stages 2–6 on an already strictly parsed value. */
export function verifyParsedDocument(
  kind: DocumentKind,
  value: JsonValue,
  registry: RegistryInput,
  schemas: SchemaRegistry,
): VerificationResult {
  const profile = PROFILES[kind];

  // Stage 2: the normative schema, including the signature envelope and algorithm.
  const schema = schemas.validateObject(profile.schema, value);
  if (!schema.ok) return failure('schema', 'schema-invalid', schema.error);
  const document = value as JsonObject;
  const envelope = document['signature'] as JsonObject;

  // Stage 3: protected time, byte-equal createdAt, signer rule, signature encoding, S < L.
  const protectedTime = document[profile.protectedTime] as string;
  if (!isUtcZTimestamp(protectedTime)) {
    return failure('signature-envelope', 'protected-time-not-utc-z', `${profile.protectedTime} must end in Z`);
  }
  if (envelope['createdAt'] !== protectedTime) {
    return failure('signature-envelope', 'created-at-mismatch', 'signature.createdAt differs from the protected time');
  }
  const signer = expectedSigner(profile, document);
  const signature = decodeBase64url(envelope['value'] as string);
  if (signature === null) {
    return failure('signature-envelope', 'signature-not-canonical-base64url', 'signature value is not canonical base64url');
  }
  if (signature.length !== 64) {
    return failure('signature-envelope', 'signature-wrong-length', `signature has ${signature.length} bytes`);
  }
  if (!isCanonicalScalar(signature.subarray(32))) {
    return failure('signature-envelope', 'signature-s-out-of-range', 'S is not below L');
  }
  const laterFailure = (result: VerificationResult): VerificationResult => {
    const r = rejectR(signature);
    return r === null ? result : failure('signature-envelope', r, 'R is not a canonical prime-order point');
  };
  const keyFailure = (result: VerificationResult): VerificationResult => {
    spendStagesFiveAndSix(document, signature);
    return laterFailure(result);
  };

  // Stage 4: complete Registry evidence, then the pinned key under the expected signer.
  if (registry instanceof RegistryProblem) {
    return laterFailure(failure('key-resolution', registry.reason, registry.message));
  }
  const keyId = envelope['keyId'] as string;
  const key = registry.resolve(keyId);
  if (key === undefined) return keyFailure(failure('key-resolution', 'unknown-key', 'no such key'));
  const signerMatches = signer === 'any-service' ? key.principal.type === 'service' : samePrincipal(key.principal, signer);
  if (!signerMatches) {
    return keyFailure(failure('key-resolution', 'signer-mismatch', 'key is bound to another Principal'));
  }
  const protectedInstant = parseTimestamp(protectedTime);
  if (protectedInstant === null || !keyValidAt(key, protectedInstant)) {
    return keyFailure(failure('key-resolution', 'key-not-valid-at-protected-time', 'key not valid then'));
  }

  // Stage 5: JCS signing bytes of the received values, refusing anything outside I-JSON.
  let signingBytes: Buffer;
  let canonicalText: string;
  try {
    const members = canonicalMembers(document);
    signingBytes = Buffer.from(joinCanonicalMembers(members, 'signature'), 'utf8');
    canonicalText = joinCanonicalMembers(members);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return laterFailure(failure('canonicalization', error.reason, error.message));
  }

  // Stage 6: the Ed25519 equation.
  if (!verifyEd25519(key.keyObject, signingBytes, signature)) {
    return laterFailure(failure('signature', 'signature-mismatch', 'signature does not verify'));
  }
  return {
    ok: true,
    verified: {
      kind,
      document,
      organizationId: registry.organizationId,
      signingBytes,
      canonicalText,
      signingHash: sha256ContentHash(signingBytes),
      keyId,
      principal: key.principal,
      protectedTime,
      protectedInstant,
      signatureValue: envelope['value'] as string,
      key,
    },
  };
}

/** Runs all six stages on untrusted bytes. */
export function verifySignedDocument(
  kind: DocumentKind,
  bytes: Uint8Array,
  registry: RegistryInput,
  schemas: SchemaRegistry,
): VerificationResult {
  let value: JsonValue;
  try {
    value = parseStrictJson(bytes);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return failure('parse', error.reason, error.message);
  }
  return verifyParsedDocument(kind, value, registry, schemas);
}
