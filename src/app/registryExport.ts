/**
 * The published Registry snapshot: every signing-key binding of the Organization (Agents',
 * humans' and services' public keys, never a private one) with its `validFrom` and complete
 * validity history, at one Registry revision. §6.4 leaves the wire artifact to the deployment
 * (“does not standardize … a portable Agent Registry snapshot wire artifact”); ours is the
 * conformance bundles' Registry fixture shape, `{organizationId, bindings}`, plus the
 * `revision` it was read at and the context generator (below), so `KeyRegistry.fromEvidence`
 * (the stage-4 loader of `verifySignedDocument` and `replay --verify`) loads it unchanged. Being the whole
 * Organization, never a key-filtered projection, it is complete evidence in the §6.4 sense.
 *
 * It also names the Organization's context generator (`contextGenerator`, when the node has one:
 * src/app/context/contextGenerator.ts), the one Agent whose Context Packages (§13.3) an Agent of
 * this Organization accepts; a verifier loading the bindings ignores the member.
 */

import type { Principal } from '../protocol/principal.js';
import type { KeyBindingEvidence } from '../protocol/signing/keyRegistry.js';
import type { Queryable } from '../store/pool.js';
import type { RegistryCache } from './registryCache.js';
import type { RegistrySnapshot } from './registrySnapshot.js';

export interface RegistryExport {
  readonly organizationId: string;
  /** The Organization's `registry_revision` the bindings were read at. */
  readonly revision: number;
  readonly bindings: readonly KeyBindingEvidence[];
  /** The Agent that generates and signs this Organization's Context Packages. */
  readonly contextGenerator?: Principal;
}

/** The export document of one Registry snapshot, bindings in key-ID order. */
export function registryExport(snapshot: RegistrySnapshot, contextGenerator?: Principal): RegistryExport {
  const { organizationId, bindings } = snapshot.registry.evidence();
  const sorted = [...bindings].sort((a, b) => (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0));
  return {
    organizationId,
    revision: snapshot.revision,
    bindings: sorted.map((b) => ({
      keyId: b.keyId,
      principal: { type: b.principal.type, id: b.principal.id },
      algorithm: b.algorithm,
      publicKey: b.publicKey,
      validFrom: b.validFrom,
      validityHistory: b.validityHistory.map((r) => ({ ...r })),
    })),
    ...(contextGenerator === undefined ? {} : { contextGenerator: { type: contextGenerator.type, id: contextGenerator.id } }),
  };
}

/**
 * The current Registry as the database holds it now: the cache catches up with the stored
 * revision first, so a key enrolled on another node a moment ago is included.
 */
export async function readRegistryExport(cache: RegistryCache, db: Queryable, contextGenerator?: Principal): Promise<RegistryExport> {
  return registryExport(await cache.refresh(db), contextGenerator);
}
