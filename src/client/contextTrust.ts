/**
 * Whose Context Packages an Agent accepts (§13.3): those signed by the Agent its Organization
 * names as its context generator, verified with the six stages of §6.4 over the Registry. Both
 * come from one document, the Registry snapshot — `GET /v1/registry` read with the session, or
 * the one `missionweave registry export` wrote and the Agent pinned — whose
 * `snapshot.contextGenerator` member names that Agent. A snapshot naming none (another Group
 * Authority, or one pinned as an already-loaded `KeyRegistry`) leaves the Agent accepting no
 * package at all: a package from any other Agent, or from the Group Authority service itself, is
 * refused.
 */

import type { RegistryInput } from '../protocol/signing/verifySignedDocument.js';
import { parseStrictJson } from '../protocol/strictJson.js';
import { loadRegistry } from './eventVerifier.js';
import { MAX_REGISTRY_BYTES } from './limits.js';

export interface ContextTrust {
  /** Stage-4 evidence: the Organization's key bindings. */
  readonly registry: RegistryInput;
  /** The Agent ID of the Organization's context generator; undefined when the snapshot names none. */
  readonly contextGenerator: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The context generator a Registry snapshot names (`snapshot.contextGenerator`; a top-level
 * `contextGenerator` in an export made before the snapshot was signed), if it names an Agent.
 */
export function contextGeneratorIn(snapshot: unknown): string | undefined {
  const facts = isRecord(snapshot) && isRecord(snapshot['snapshot']) ? snapshot['snapshot'] : snapshot;
  const generator = isRecord(facts) ? facts['contextGenerator'] : undefined;
  return isRecord(generator) && generator['type'] === 'agent' && typeof generator['id'] === 'string' ? generator['id'] : undefined;
}

/** The trust a Registry snapshot (its text, bytes or parsed value) gives; throws `RegistryProblem` if it does not load. */
export function contextTrustOf(snapshot: unknown): ContextTrust {
  const value = typeof snapshot === 'string' || snapshot instanceof Uint8Array ? parseStrictJson(typeof snapshot === 'string' ? Buffer.from(snapshot, 'utf8') : snapshot, { maxBytes: MAX_REGISTRY_BYTES, maxDepth: 16 }) : snapshot;
  return { registry: loadRegistry(value), contextGenerator: contextGeneratorIn(value) };
}
