/**
 * Extension Profiles (§18) as the app runs them: their payload schemas join the core schemas in
 * one registry per set of profiles and process (each schema compiled on first use, in every
 * crypto worker too), and their URIs are the critical extensions this Group Authority interprets.
 */

import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import type { AnyExtensionProfile } from '../domain/kinds/profile.js';
import { readSchemaDocuments, schemaRegistry } from '../protocol/schemas/files.js';
import { SchemaRegistry, type SchemaDocument } from '../protocol/schemas/registry.js';
import type { FrontRules } from './verifyCommand.js';

/** Where profile payload schemas live among ours (`$id`); the kind names them. */
export const PROFILE_SCHEMA_BASE = 'https://missionweave.dev/schemas/0.1/profiles/';

/** Each profile kind's payload schema, as a schema document of the registry. */
export function profileSchemaDocuments(profiles: readonly AnyExtensionProfile[]): SchemaDocument[] {
  return profiles.flatMap((profile) =>
    profile.kinds.map((kind) => ({
      role: 'payload' as const,
      name: kind.kind,
      schema: { ...kind.payloadSchema, $id: `${PROFILE_SCHEMA_BASE}${kind.kind}.schema.json` },
    })),
  );
}

/** The registries of this process by their profile payload documents (JSON): a handful at most. */
const withProfiles = new Map<string, SchemaRegistry>();

/**
 * The schemas of the core and of `extra` profile payloads: one registry per set of documents in a
 * process, so a second Group Authority (a test's, a second node in one process) compiles nothing
 * again.
 */
export function schemaRegistryWith(extra: readonly SchemaDocument[]): SchemaRegistry {
  if (extra.length === 0) return schemaRegistry();
  const key = JSON.stringify(extra);
  let registry = withProfiles.get(key);
  if (registry === undefined) {
    registry = SchemaRegistry.compile([...readSchemaDocuments(), ...extra]);
    withProfiles.set(key, registry);
  }
  return registry;
}

/** The worker's kinds plus the profiles' extension URIs: what a crypto worker needs of the kinds. */
export function workerFrontRules(kinds: KindRegistry, extensionUris: readonly string[]): FrontRules {
  return {
    scopeOf: (kind) => kinds.scopeOf(kind),
    embeddedOf: (kind) => kinds.embeddedOf(kind),
    extensionUris: new Set(extensionUris),
  };
}
