/**
 * The Registry snapshot the Organization publishes (`GET /v1/registry`, `registry export`): every
 * signing-key binding (Agents', humans' and services' public keys, never a private one) with its
 * `validFrom` and complete validity history at one Registry revision — the whole Organization,
 * never a key-filtered projection, so complete evidence in the §6.4 sense.
 *
 * §6.4 leaves the wire artifact to the deployment (it “does not standardize … a portable Agent
 * Registry snapshot wire artifact … or cryptographic completeness proof”). Ours is one JCS
 * document of three members:
 *
 * - `registry`: exactly the normative Registry fixture schema's form, `{organizationId, bindings}`,
 *   which a verifier (ours: `KeyRegistry.fromEvidence`) takes as stage-4 evidence as it is;
 * - `snapshot`: our facts, beside it and never inside it — the Registry `revision`, the
 *   `contextGenerator` Agent whose Context Packages (§13.3) this Organization's Agents accept, and
 *   the signing's `createdAt` and `createdBy` (the Registry service);
 * - `signature`: the §6.4 envelope over the JCS bytes of the other two, by the Registry service's
 *   key, `createdAt` byte-equal to `snapshot.createdAt`. Whoever holds only that published key
 *   checks that the bindings are the Organization's at that revision (`client/registrySnapshot.ts`).
 *
 * One copy is signed per revision, by the first node or CLI that publishes it, and stored
 * (`registry_publications`); every later reader of that revision gets the stored bytes, so the
 * export and the HTTPS body are the same bytes.
 */

import { canonicalBytes, canonicalize } from '../protocol/jcs.js';
import type { Principal } from '../protocol/principal.js';
import type { KeyBindingEvidence, RegistryEvidence } from '../protocol/signing/keyRegistry.js';
import { signBytes, type SignatureEnvelope, type SigningKey } from '../protocol/signing/signDocument.js';
import { formatTimestamp } from '../protocol/timestamp.js';
import type { Queryable } from '../store/pool.js';
import { insertRegistryPublication, readRegistryPublication } from '../store/sql/registryPublications.js';
import type { RegistryCache } from './registryCache.js';
import type { RegistrySnapshot } from './registrySnapshot.js';

/** Our facts about a published Registry, beside the schema's form. */
export interface RegistrySnapshotFacts {
  /** The Organization's `registry_revision` the bindings were read at. */
  readonly revision: number;
  /** The Agent that generates and signs this Organization's Context Packages. */
  readonly contextGenerator?: Principal;
  readonly createdAt: string;
  /** The Registry service, whose key signs the snapshot. */
  readonly createdBy: Principal;
}

export interface SignedRegistrySnapshot {
  readonly registry: RegistryEvidence;
  readonly snapshot: RegistrySnapshotFacts;
  readonly signature: SignatureEnvelope;
}

/** A published Registry snapshot: its revision, its exact JCS text and that text parsed. */
export interface PublishedRegistry {
  readonly revision: number;
  readonly text: string;
  readonly document: SignedRegistrySnapshot;
}

/** Who publishes: the Registry service and its key, the context generator, the clock. */
export interface RegistryPublisherSettings {
  readonly organizationId: string;
  readonly registryService: Principal;
  readonly registryKey: SigningKey | undefined;
  readonly contextGenerator: Principal | undefined;
  readonly nowMillis: () => number;
}

/** One binding with exactly the fixture schema's members, its history's too. */
function schemaBinding(b: KeyBindingEvidence): KeyBindingEvidence {
  return {
    keyId: b.keyId,
    principal: { type: b.principal.type, id: b.principal.id },
    algorithm: b.algorithm,
    publicKey: b.publicKey,
    validFrom: b.validFrom,
    validityHistory: b.validityHistory.map((r) => ({
      sequence: r.sequence,
      recordedAt: r.recordedAt,
      ...(r.validUntil === undefined ? {} : { validUntil: r.validUntil }),
      ...(r.revokedAt === undefined ? {} : { revokedAt: r.revokedAt }),
    })),
  };
}

/** The Registry of a snapshot in the normative fixture schema's form, bindings in key-ID order. */
export function registryDocument(snapshot: RegistrySnapshot): RegistryEvidence {
  const { organizationId, bindings } = snapshot.registry.evidence();
  const sorted = [...bindings].sort((a, b) => (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0));
  return { organizationId, bindings: sorted.map(schemaBinding) };
}

/** Signs the snapshot with the Registry service's key at `createdAt`; returns it and its JCS text. */
export function signRegistrySnapshot(snapshot: RegistrySnapshot, settings: RegistryPublisherSettings, key: SigningKey, createdAt: string): PublishedRegistry {
  const { contextGenerator, registryService } = settings;
  const unsigned = {
    registry: registryDocument(snapshot),
    snapshot: {
      revision: snapshot.revision,
      ...(contextGenerator === undefined ? {} : { contextGenerator: { type: contextGenerator.type, id: contextGenerator.id } }),
      createdAt,
      createdBy: { type: registryService.type, id: registryService.id },
    },
  };
  const signature: SignatureEnvelope = { algorithm: 'Ed25519', keyId: key.keyId, createdAt, value: signBytes(key.privateKey, canonicalBytes(unsigned)) };
  const document = { ...unsigned, signature };
  return { revision: snapshot.revision, text: canonicalize(document), document };
}

/**
 * Publishes the Registry of one Organization: the stored copy of the current revision, signed and
 * stored first when none is; the last copy read is kept in memory, so a reader of an unchanged
 * Registry costs one small read of the revision.
 */
export class RegistryPublisher {
  private last: PublishedRegistry | undefined;

  constructor(private readonly settings: RegistryPublisherSettings) {}

  /** The published snapshot of the Registry as the database holds it now. */
  async current(cache: RegistryCache, db: Queryable): Promise<PublishedRegistry> {
    const snapshot = await cache.refresh(db);
    if (this.last !== undefined && this.last.revision >= snapshot.revision) return this.last;
    const { organizationId, registryKey } = this.settings;
    let stored = await readRegistryPublication(db, organizationId);
    if (stored === undefined || stored.revision < snapshot.revision) {
      if (registryKey === undefined) throw new Error('this node has no Registry service key to sign the Registry snapshot with');
      const signed = signRegistrySnapshot(snapshot, this.settings, registryKey, formatTimestamp(this.settings.nowMillis()));
      await insertRegistryPublication(db, organizationId, { revision: signed.revision, document: signed.text });
      // Another node or the CLI may have published this revision first: its copy is the one.
      stored = (await readRegistryPublication(db, organizationId)) ?? { revision: signed.revision, document: signed.text };
    }
    const published: PublishedRegistry = { revision: stored.revision, text: stored.document, document: JSON.parse(stored.document) as SignedRegistrySnapshot };
    if (this.last === undefined || published.revision > this.last.revision) this.last = published;
    return published;
  }
}
