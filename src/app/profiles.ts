/**
 * Extension Profiles (§18) as the app runs them: their payload schemas are compiled with the
 * core schemas once, at start (in every crypto worker too), and their URIs are the critical
 * extensions this Group Authority interprets.
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

/** The schemas of the core and of `extra` profile payloads, compiled once. */
export function schemaRegistryWith(extra: readonly SchemaDocument[]): SchemaRegistry {
  return extra.length === 0 ? schemaRegistry() : SchemaRegistry.compile([...readSchemaDocuments(), ...extra]);
}

/** The worker's kinds plus the profiles' extension URIs: what a crypto worker needs of the kinds. */
export function workerFrontRules(kinds: KindRegistry, extensionUris: readonly string[]): FrontRules {
  return {
    scopeOf: (kind) => kinds.scopeOf(kind),
    embeddedOf: (kind) => kinds.embeddedOf(kind),
    extensionUris: new Set(extensionUris),
  };
}
