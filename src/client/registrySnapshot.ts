/**
 * The Organization's signed Registry snapshot (`GET /v1/registry`, `missionweave registry export`)
 * checked by a party that holds nothing of ours but the Organization's published Registry key —
 * its key ID and raw Ed25519 public key, as `missionweave init` prints them — and the bytes it was
 * handed. The document is `{registry, snapshot, signature}`: `registry` in the normative Registry
 * fixture schema's form, `snapshot` our facts beside it (`revision`, `contextGenerator`,
 * `createdAt`, `createdBy`), `signature` the §6.4 envelope over the JCS bytes of the other two.
 *
 * The check: the envelope names the published key and repeats `snapshot.createdAt` byte for byte;
 * the signature is a strict 64-byte Ed25519 signature that verifies under the published key; the
 * Registry loads as complete stage-4 evidence (§6.4); and it binds that key to the
 * `snapshot.createdBy` service, with the same public key, valid at `createdAt`. Any failure throws
 * a `RegistryProblem`, so an Event verifier over a refused snapshot fails stage 4.
 */

import { decodeBase64url } from '../protocol/base64url.js';
import { classifyPoint, importPublicKey, isCanonicalScalar, verifyEd25519 } from '../protocol/ed25519.js';
import { canonicalBytesWithout } from '../protocol/jcs.js';
import { isPrincipalType, samePrincipal, type Principal } from '../protocol/principal.js';
import { KeyRegistry, keyValidAt, RegistryProblem } from '../protocol/signing/keyRegistry.js';
import { parseStrictJson, type JsonObject, type JsonValue } from '../protocol/strictJson.js';
import { isUtcZTimestamp, parseTimestamp } from '../protocol/timestamp.js';
import { MAX_REGISTRY_BYTES } from './limits.js';

/** The Organization's published Registry service key. */
export interface PublishedRegistryKey {
  readonly keyId: string;
  /** The raw 32-byte Ed25519 public key, canonical unpadded base64url. */
  readonly publicKey: string;
}

export interface VerifiedRegistrySnapshot {
  /** The Registry revision the snapshot states. */
  readonly revision: number;
  readonly createdAt: string;
  /** The Registry service that signed it. */
  readonly createdBy: Principal;
  /** The Organization's key bindings, validated as stage-4 evidence. */
  readonly registry: KeyRegistry;
  /** The Agent ID of the context generator it names, if it names one. */
  readonly contextGenerator: string | undefined;
  /** The whole checked document. */
  readonly document: JsonObject;
}

/** The Registry evidence a snapshot document carries: its `registry` member, or the document itself when it is bare evidence. */
export function registryEvidenceIn(document: unknown): unknown {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return document;
  const registry = (document as Record<string, unknown>)['registry'];
  return typeof registry === 'object' && registry !== null && !Array.isArray(registry) ? registry : document;
}

function refuse(reason: string, message: string): never {
  throw new RegistryProblem(reason, message);
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` is an object with exactly the `required` members and perhaps some `optional` ones. */
function hasMembers(value: JsonValue | undefined, required: readonly string[], optional: readonly string[] = []): value is JsonObject {
  if (!isObject(value)) return false;
  const names = Object.keys(value);
  return required.every((name) => name in value) && names.every((name) => required.includes(name) || optional.includes(name));
}

function principalOf(value: JsonValue | undefined): Principal | undefined {
  if (!hasMembers(value, ['type', 'id']) || !isPrincipalType(value['type']) || typeof value['id'] !== 'string') return undefined;
  return { type: value['type'], id: value['id'] };
}

/** The snapshot's text, bytes or parsed value, strictly parsed within the Registry size bound. */
function parsed(snapshot: unknown): JsonValue {
  if (typeof snapshot !== 'string' && !(snapshot instanceof Uint8Array)) return snapshot as JsonValue;
  const bytes = typeof snapshot === 'string' ? Buffer.from(snapshot, 'utf8') : snapshot;
  try {
    return parseStrictJson(bytes, { maxBytes: MAX_REGISTRY_BYTES, maxDepth: 16 });
  } catch (error) {
    return refuse('registry-snapshot-malformed', (error as Error).message);
  }
}

/** The signature bytes of a §6.4 envelope, strictly decoded (64 bytes, canonical R and S). */
function signatureBytes(value: JsonValue | undefined): Buffer {
  const bytes = typeof value === 'string' ? decodeBase64url(value) : null;
  if (bytes === null || bytes.length !== 64 || classifyPoint(bytes.subarray(0, 32), true) !== null || !isCanonicalScalar(bytes.subarray(32))) {
    return refuse('registry-snapshot-signature-malformed', 'signature.value is not a strict Ed25519 signature');
  }
  return bytes;
}

/** Checks a signed Registry snapshot with the Organization's published key alone; throws `RegistryProblem`. */
export function verifyRegistrySnapshot(snapshot: unknown, published: PublishedRegistryKey): VerifiedRegistrySnapshot {
  const document = parsed(snapshot);
  if (!hasMembers(document, ['registry', 'snapshot', 'signature'])) return refuse('registry-snapshot-malformed', 'a signed Registry snapshot has exactly the members registry, snapshot and signature');
  const facts = document['snapshot'];
  const envelope = document['signature'];
  if (!hasMembers(facts, ['revision', 'createdAt', 'createdBy'], ['contextGenerator'])) return refuse('registry-snapshot-malformed', 'snapshot holds revision, createdAt, createdBy and perhaps contextGenerator');
  const { revision, createdAt } = facts;
  const createdBy = principalOf(facts['createdBy']);
  const generator = facts['contextGenerator'] === undefined ? undefined : principalOf(facts['contextGenerator']);
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0) return refuse('registry-snapshot-malformed', 'snapshot.revision is not a non-negative integer');
  if (typeof createdAt !== 'string' || !isUtcZTimestamp(createdAt)) return refuse('registry-snapshot-malformed', 'snapshot.createdAt is not a UTC Z timestamp');
  if (createdBy?.type !== 'service') return refuse('registry-snapshot-malformed', 'snapshot.createdBy is not a service Principal');
  if (facts['contextGenerator'] !== undefined && generator === undefined) return refuse('registry-snapshot-malformed', 'snapshot.contextGenerator is not a Principal');

  if (!hasMembers(envelope, ['algorithm', 'keyId', 'createdAt', 'value']) || envelope['algorithm'] !== 'Ed25519') return refuse('registry-snapshot-signature-malformed', 'signature is not an Ed25519 signature envelope');
  if (envelope['keyId'] !== published.keyId) return refuse('registry-snapshot-key-not-published', 'the snapshot is not signed with the published Registry key');
  if (envelope['createdAt'] !== createdAt) return refuse('registry-snapshot-time-mismatch', 'signature.createdAt differs from snapshot.createdAt');
  const signature = signatureBytes(envelope['value']);
  const publicKey = decodeBase64url(published.publicKey);
  if (publicKey === null || publicKey.length !== 32 || classifyPoint(publicKey, false) !== null) return refuse('registry-snapshot-key-invalid', 'the published key is not a strict Ed25519 public key');
  if (!verifyEd25519(importPublicKey(publicKey), canonicalBytesWithout(document, 'signature'), signature)) {
    return refuse('registry-snapshot-signature-mismatch', 'the signature does not verify under the published Registry key');
  }

  const registry = KeyRegistry.fromEvidence(document['registry']);
  const signer = registry.resolve(published.keyId);
  if (signer === undefined || !samePrincipal(signer.principal, createdBy) || !signer.publicKey.equals(publicKey)) {
    return refuse('registry-snapshot-signer-unbound', 'the snapshot’s Registry does not bind the published key to its signer');
  }
  const signedAt = parseTimestamp(createdAt);
  if (signedAt === null || !keyValidAt(signer, signedAt)) {
    return refuse('registry-snapshot-signer-not-valid', 'the published key was not valid when the snapshot was signed');
  }
  return { revision, createdAt, createdBy, registry, contextGenerator: generator?.type === 'agent' ? generator.id : undefined, document };
}
