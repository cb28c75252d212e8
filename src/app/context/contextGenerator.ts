/**
 * The context generator (§13.3): the Organization-operated Agent that builds and signs every
 * Context Package this Group Authority hands out. The published schema names an Agent as a
 * package's `generatedBy`, and §6.4's signer binding makes the signing key that Agent's, so the
 * Group Authority service does not sign packages itself: it runs this Agent, whose key sits in the
 * operator folder beside the services' keys and whose Agent Card the Registry issues and registers
 * like any other (owned, as the Agents `agent add` makes without `--owner`, by the Registry).
 *
 * Registration is idempotent and safe on several nodes at once: a node whose key is already bound
 * to the generator does nothing; a node that loses the race to register card version n sees
 * `REVISION_CONFLICT`, reads the Registry again and finds its key bound (the nodes share the
 * folder's key), whenever the other node's card landed (test/contextGenerator.int); a folder whose key was replaced registers the next card version with the new key
 * (the old key's binding stays, as a replaced service key's does).
 */

import { createHash } from 'node:crypto';
import { CARD_REGISTER } from '../../domain/organization/organization.js';
import { publicKeyBase64url, type SigningKey } from '../../protocol/signing/signDocument.js';
import type { Pool } from '../../store/pool.js';
import { readAgentCardVersion } from '../../store/sql/organization.js';
import type { GroupAuthority } from '../groupAuthority.js';
import { issueAgentCard, signCommand, timestampOf } from '../issueDocuments.js';
import type { ContextGenerator } from '../settings.js';

/**
 * The generator's Agent ID. Agents `agent add` makes are `urn:missionweave:agent:<handle>`, and a
 * handle holds no colon, so no operator-added Agent can take this ID.
 */
export const CONTEXT_GENERATOR_AGENT_ID = 'urn:missionweave:agent:organization:context-generator';

/** The one capability its card declares: it generates Context Packages, and does no Mission work. */
export const CONTEXT_GENERATION_CAPABILITY = 'missionweave.context-generation@0.1.0';

/**
 * Registrations tried before giving up: each lost race means another node registered the card,
 * which the next look finds; losing three in a row means something else keeps rewriting it.
 */
const MAX_REGISTRATION_ATTEMPTS = 3;

/**
 * The key ID, derived from the public key, so that every node reading the same key file names
 * it alike and no configuration file has to be rewritten when a folder gains a generator.
 */
export function contextGeneratorKeyId(publicKey: string): string {
  return `urn:missionweave:key:context-generator:${createHash('sha256').update(publicKey).digest('hex').slice(0, 32)}`;
}

/** The generator of `privateKey`: the fixed Agent ID and the key ID its public key names. */
export function contextGeneratorOf(privateKey: SigningKey['privateKey']): ContextGenerator {
  return { principal: { type: 'agent', id: CONTEXT_GENERATOR_AGENT_ID }, key: { keyId: contextGeneratorKeyId(publicKeyBase64url(privateKey)), privateKey } };
}

export interface GeneratorRegistration {
  readonly generator: ContextGenerator;
  /** The Registry service's key: it issues the card and signs the registration Command. */
  readonly registryKey: SigningKey;
  /** The wss endpoint the card names (the Group Authority's own; the generator takes no sessions). */
  readonly endpoint: string;
}

export type RegistrationOutcome = 'already-registered' | 'registered';

function isBound(authority: GroupAuthority, generator: ContextGenerator): boolean {
  const resolved = authority.registry.current.registry.resolve(generator.key.keyId);
  return resolved !== undefined && resolved.principal.type === 'agent' && resolved.principal.id === generator.principal.id;
}

/** Makes sure the Registry binds the generator's key to the generator Agent; throws if it cannot. */
export async function registerContextGenerator(authority: GroupAuthority, pool: Pool, registration: GeneratorRegistration): Promise<RegistrationOutcome> {
  const { generator, registryKey, endpoint } = registration;
  const { services } = authority.settings;
  for (let attempt = 0; attempt < MAX_REGISTRATION_ATTEMPTS; attempt += 1) {
    // The card version is read before the Registry: a card another node registers between the
    // two reads is then either seen bound, or makes ours conflict (REVISION_CONFLICT). Read in
    // the other order, such a card went unseen and ours took the next version with the same key.
    const cardVersion = (await readAgentCardVersion(pool, generator.principal.id)) + 1;
    await authority.refreshRegistry();
    if (isBound(authority, generator)) return attempt === 0 ? 'already-registered' : 'registered';
    const nowMillis = authority.clock.nowMillis();
    // Bound from the current whole second, so packages signed from now on fall inside its validity.
    const validFrom = timestampOf(Math.floor(nowMillis / 1000) * 1000).replace('.000Z', 'Z');
    const card = issueAgentCard(
      {
        agentId: generator.principal.id,
        organizationId: services.organizationId,
        cardVersion,
        displayName: 'context generator',
        owner: services.registry,
        endpoint,
        keys: [{ keyId: generator.key.keyId, publicKey: publicKeyBase64url(generator.key.privateKey), validFrom }],
        capabilities: [CONTEXT_GENERATION_CAPABILITY],
        maxConcurrency: 1,
        issuedAt: timestampOf(nowMillis),
      },
      registryKey,
    );
    const outcome = await authority.submit(signCommand({ actor: services.registry, kind: CARD_REGISTER, payload: { card }, issuedAt: timestampOf(nowMillis) }, registryKey));
    if (outcome.ok) return 'registered';
    // Another node registered this version a moment ago: the next look finds what it bound.
    if (outcome.error.code !== 'REVISION_CONFLICT') throw new Error(`the context generator's Agent Card was refused: ${outcome.error.code} ${outcome.error.message}`);
  }
  throw new Error(`the context generator's Agent Card was not registered after ${MAX_REGISTRATION_ATTEMPTS} attempts`);
}
