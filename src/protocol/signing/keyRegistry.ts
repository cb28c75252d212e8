/**
 * Registry evidence for stage 4 of the Signed Document Verification Profile (§6.4).
 *
 * A `KeyRegistry` is one Organization's complete set of signing-key bindings at one revision,
 * validated as a whole before any key is selected: every binding strictly decoded (canonical
 * base64url, canonical on-curve prime-order Ed25519 point), immutable (one key ID, one
 * Principal, one algorithm, one key), no key-ID reuse, no public-key reuse or alias across the
 * Organization, and an append-only validity history whose boundaries only ever move earlier.
 * Point checks cost milliseconds, so a registry grows by `extend`, which checks only the new
 * bindings against the indexes of the old ones.
 */

import type { KeyObject } from 'node:crypto';
import { decodeBase64url } from '../base64url.js';
import { classifyPoint, importPublicKey } from '../ed25519.js';
import { isUri } from '../identifier.js';
import { isPrincipalType, samePrincipal, type Principal } from '../principal.js';
import { compareInstants, parseTimestamp, type Instant } from '../timestamp.js';
import { LayeredMap } from '../layeredMap.js';

export interface ValidityStatusRecord {
  readonly sequence: number;
  readonly recordedAt: string;
  readonly validUntil?: string;
  readonly revokedAt?: string;
}

/** One signing-key binding as the Registry declares it. */
export interface KeyBindingEvidence {
  readonly keyId: string;
  readonly principal: Principal;
  readonly algorithm: string;
  readonly publicKey: string;
  readonly validFrom: string;
  readonly validityHistory: readonly ValidityStatusRecord[];
}

/** A complete Organization-scoped Registry revision. */
export interface RegistryEvidence {
  readonly organizationId: string;
  readonly bindings: readonly KeyBindingEvidence[];
}

/** A validated binding, ready for verification. */
export interface ResolvedKey {
  readonly binding: KeyBindingEvidence;
  readonly keyId: string;
  readonly principal: Principal;
  readonly publicKey: Buffer;
  readonly keyObject: KeyObject;
  readonly validFrom: Instant;
  /** Earliest retained `validUntil`, if any. */
  readonly validUntil: Instant | undefined;
  /** Earliest retained `revokedAt`, if any. */
  readonly revokedAt: Instant | undefined;
}

export class RegistryProblem extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'RegistryProblem';
  }
}

function problem(reason: string, message: string): never {
  throw new RegistryProblem(reason, message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function instantOf(text: unknown, what: string): Instant {
  const instant = typeof text === 'string' ? parseTimestamp(text) : null;
  return instant ?? problem('registry-timestamp-invalid', `${what} is not a protocol timestamp`);
}

/** Applies the append-only history: boundaries may appear or move earlier, never later. */
function effectiveBoundaries(history: unknown, keyId: string): [Instant?, Instant?] {
  if (!Array.isArray(history)) return problem('validity-history-invalid', `${keyId}: no history`);
  let validUntil: Instant | undefined;
  let revokedAt: Instant | undefined;
  history.forEach((entry: unknown, index) => {
    if (!isRecord(entry) || entry['sequence'] !== index + 1) {
      problem('validity-history-invalid', `${keyId}: history is not the sequence 1..n`);
    }
    instantOf(entry['recordedAt'], `${keyId} recordedAt`);
    if (entry['validUntil'] === undefined && entry['revokedAt'] === undefined) {
      problem('validity-history-invalid', `${keyId}: a status record changes nothing`);
    }
    if (entry['validUntil'] !== undefined) {
      const next = instantOf(entry['validUntil'], `${keyId} validUntil`);
      if (validUntil !== undefined && compareInstants(next, validUntil) > 0) {
        problem('validity-extended', `${keyId}: validUntil moved later`);
      }
      validUntil = next;
    }
    if (entry['revokedAt'] !== undefined) {
      const next = instantOf(entry['revokedAt'], `${keyId} revokedAt`);
      if (revokedAt !== undefined && compareInstants(next, revokedAt) > 0) {
        problem('validity-extended', `${keyId}: revokedAt moved later`);
      }
      revokedAt = next;
    }
  });
  return [validUntil, revokedAt];
}

function sameHistory(a: readonly ValidityStatusRecord[], b: readonly ValidityStatusRecord[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface EvidenceOptions {
  /**
   * The bindings come from our own Registry store, where each was strictly checked before it
   * was accepted: skip re-proving each public key's prime order (milliseconds per key).
   * Encoding, uniqueness and history rules are still checked.
   */
  readonly pointsAlreadyProven?: boolean;
}

/** Validates one binding in isolation (everything but Organization-wide uniqueness). */
function validateBinding(raw: unknown, options: EvidenceOptions): ResolvedKey {
  if (!isRecord(raw)) return problem('binding-malformed', 'a binding is not an object');
  const { keyId, principal, algorithm, publicKey, validFrom, validityHistory } = raw;
  if (typeof keyId !== 'string' || !isUri(keyId)) {
    return problem('binding-key-id-invalid', 'a binding key ID is not an absolute URI');
  }
  if (!isRecord(principal) || !isPrincipalType(principal['type'])) {
    return problem('binding-principal-invalid', `${keyId}: principal is malformed`);
  }
  const principalId = principal['id'];
  if (typeof principalId !== 'string' || !isUri(principalId)) {
    return problem('binding-principal-invalid', `${keyId}: principal ID is not an absolute URI`);
  }
  if (algorithm !== 'Ed25519') {
    return problem('binding-algorithm-unsupported', `${keyId}: algorithm is not Ed25519`);
  }
  const keyBytes = typeof publicKey === 'string' ? decodeBase64url(publicKey) : null;
  if (keyBytes === null) return problem('public-key-encoding', `${keyId}: not canonical base64url`);
  const rejection = options.pointsAlreadyProven === true ? (keyBytes.length === 32 ? null : 'wrong-length') : classifyPoint(keyBytes, false);
  if (rejection !== null) return problem(`public-key-${rejection}`, `${keyId}: public key ${rejection}`);
  const from = instantOf(validFrom, `${keyId} validFrom`);
  const [validUntil, revokedAt] = effectiveBoundaries(validityHistory, keyId);
  const binding: KeyBindingEvidence = {
    keyId,
    principal: { type: principal['type'], id: principalId },
    algorithm,
    publicKey: publicKey as string,
    validFrom: validFrom as string,
    validityHistory: validityHistory as ValidityStatusRecord[],
  };
  return {
    binding,
    keyId,
    principal: binding.principal,
    publicKey: keyBytes,
    keyObject: importPublicKey(keyBytes),
    validFrom: from,
    validUntil,
    revokedAt,
  };
}

/**
 * The Organization's key bindings, immutable. Its indexes are `LayeredMap`s: a card
 * registration extends the Registry by one or two bindings, and copying the maps of every key
 * (as plain maps) cost 8.3 ms per registration at 30,000 keys, on the main thread and again in
 * every crypto worker; `extend` now costs O(√keys), and `changedSince` tells a delta without
 * scanning every binding.
 */
export class KeyRegistry {
  private constructor(
    readonly organizationId: string,
    private readonly byKeyId: LayeredMap<ResolvedKey>,
    private readonly byPublicKey: LayeredMap<string>,
  ) {}

  /** Validates complete evidence; throws `RegistryProblem` on the first invalid binding. */
  static fromEvidence(evidence: unknown, options: EvidenceOptions = {}): KeyRegistry {
    if (!isRecord(evidence) || !Array.isArray(evidence['bindings'])) {
      return problem('registry-malformed', 'registry evidence is malformed');
    }
    const organizationId = evidence['organizationId'];
    if (typeof organizationId !== 'string' || !isUri(organizationId)) {
      return problem('registry-organization-invalid', 'organizationId is not an absolute URI');
    }
    return new KeyRegistry(organizationId, LayeredMap.of(), LayeredMap.of()).extend(evidence['bindings'], options);
  }

  /** A new registry with more bindings, each validated against this one's indexes and the ones before it. */
  extend(bindings: readonly unknown[], options: EvidenceOptions = {}): KeyRegistry {
    const addedById = new Map<string, ResolvedKey>();
    const addedByPublicKey = new Map<string, string>();
    const byKeyId = (keyId: string) => addedById.get(keyId) ?? this.byKeyId.get(keyId);
    for (const raw of bindings) {
      const key = validateBinding(raw, options);
      const existing = byKeyId(key.keyId);
      if (existing !== undefined) {
        const same =
          samePrincipal(existing.principal, key.principal) &&
          existing.publicKey.equals(key.publicKey) &&
          existing.binding.validFrom === key.binding.validFrom &&
          sameHistory(existing.binding.validityHistory, key.binding.validityHistory);
        if (!same) problem('key-id-reused', `${key.keyId} is bound twice`);
        continue;
      }
      const hex = key.publicKey.toString('hex');
      const holder = addedByPublicKey.get(hex) ?? this.byPublicKey.get(hex);
      if (holder !== undefined) {
        const other = byKeyId(holder) as ResolvedKey;
        problem(
          samePrincipal(other.principal, key.principal) ? 'key-id-alias' : 'public-key-reused',
          `${key.keyId} reuses the public key of ${holder}`,
        );
      }
      addedById.set(key.keyId, key);
      addedByPublicKey.set(hex, key.keyId);
    }
    return new KeyRegistry(this.organizationId, this.byKeyId.withAll(addedById), this.byPublicKey.withAll(addedByPublicKey));
  }

  /**
   * A new registry where `keyId` gained one validity-status record (appended with the next
   * sequence); refused when it would clear or extend validity.
   */
  recordValidity(keyId: string, change: Omit<ValidityStatusRecord, 'sequence'>): KeyRegistry {
    const existing = this.byKeyId.get(keyId);
    if (existing === undefined) return problem('unknown-key', `${keyId} is not bound`);
    const history = [...existing.binding.validityHistory, { ...change, sequence: existing.binding.validityHistory.length + 1 }];
    const [validUntil, revokedAt] = effectiveBoundaries(history, keyId);
    const binding: KeyBindingEvidence = { ...existing.binding, validityHistory: history };
    return new KeyRegistry(this.organizationId, this.byKeyId.with(keyId, { ...existing, binding, validUntil, revokedAt }), this.byPublicKey);
  }

  /**
   * The bindings added or changed since `earlier`, when this registry descends from it without
   * a merge of its index between them (O(changes)); undefined when only a full comparison can tell.
   */
  changedSince(earlier: KeyRegistry): KeyBindingEvidence[] | undefined {
    return this.byKeyId.changedSince(earlier.byKeyId)?.map(([, key]) => key.binding);
  }

  /** The validated binding of a key ID, or `undefined` when authoritatively absent. */
  resolve(keyId: string): ResolvedKey | undefined {
    return this.byKeyId.get(keyId);
  }

  get size(): number {
    return this.byKeyId.size;
  }

  /** The Registry evidence this registry holds, binding by binding. */
  evidence(): RegistryEvidence {
    return {
      organizationId: this.organizationId,
      bindings: [...this.byKeyId.values()].map((key) => key.binding),
    };
  }
}

/** `validFrom <= t`, and `t` before any `validUntil` and `revokedAt` (§6.4 half-open rule). */
export function keyValidAt(key: ResolvedKey, t: Instant): boolean {
  if (compareInstants(key.validFrom, t) > 0) return false;
  if (key.validUntil !== undefined && compareInstants(t, key.validUntil) >= 0) return false;
  if (key.revokedAt !== undefined && compareInstants(t, key.revokedAt) >= 0) return false;
  return true;
}
