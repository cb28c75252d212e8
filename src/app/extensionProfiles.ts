/**
 * Registering an Extension Profile (§18): the Organization-approved document is verified with
 * the six stages of a Signed Document (its schema, then `approvedBy`'s key over its JCS bytes,
 * §6.4) before it is stored, so a Group can pin only a profile the Organization signed. Who may
 * approve: a human or an Organization service of the Registry — an Agent's key proves the Agent
 * wrote the document, not that the Organization approved it.
 */

import type { AnyExtensionProfile } from '../domain/kinds/profile.js';
import type { Pool } from '../store/pool.js';
import { insertProfile, readProfiles, type ProfileRow } from '../store/sql/extensionProfiles.js';
import type { SchemaRegistry } from '../protocol/schemas/registry.js';
import { verifyParsedDocument, type RegistryInput } from '../protocol/signing/verifySignedDocument.js';
import { parseStrictJson, type JsonObject, type JsonValue } from '../protocol/strictJson.js';
import { isProtocolError } from '../protocol/errorCodes.js';
import { wireError, type WireError } from './wireError.js';

export type ProfileRegistration =
  | { readonly ok: true; readonly profile: ProfileRow; readonly inserted: boolean }
  | { readonly ok: false; readonly error: WireError };

export interface ProfileRegistrationDeps {
  readonly pool: Pool;
  readonly registry: RegistryInput;
  readonly schemas: SchemaRegistry;
  /** The trusted registration time (RFC 3339 UTC). */
  readonly now: string;
  /** The profiles this node's code implements: a document for one of them must declare its kinds. */
  readonly codeProfiles?: readonly AnyExtensionProfile[];
}

/** `ext.<organization>.<profile>.` of one kind name (the schema guarantees three segments or more). */
function namespaceOf(kind: string): string {
  return `${kind.split('.').slice(0, 3).join('.')}.`;
}

/**
 * §18: a profile's kinds live in the one namespace the profile defines. The schema checks each
 * name's shape; this checks they agree, so two profiles cannot share or split a namespace.
 */
function checkNamespace(document: JsonObject): WireError | null {
  const kinds = [...(document['commandKinds'] as string[]), ...(document['eventKinds'] as string[])];
  const namespaces = new Set(kinds.map(namespaceOf));
  if (namespaces.size <= 1) return null;
  return wireError('SCHEMA_VALIDATION_FAILED', `a profile's kinds share one ext.<organization>.<profile>. namespace; these use ${[...namespaces].sort().join(', ')}`);
}

/**
 * A document for a profile major this node implements must declare exactly the kinds the code
 * handles: a kind the Organization approved but the code lacks would be refused as unknown, and a
 * kind the code handles but the document omits would run without the Organization's approval.
 */
function checkCodeKinds(document: JsonObject, codeProfiles: readonly AnyExtensionProfile[]): WireError | null {
  const major = majorOf(document['version'] as string);
  const code = codeProfiles.find((p) => p.uri === document['profileUri'] && (p.majorVersion ?? 1) === major);
  if (code === undefined) return null;
  const same = (declared: unknown, implemented: readonly string[]) => {
    const names = new Set(declared as string[]);
    return names.size === new Set(implemented).size && implemented.every((k) => names.has(k));
  };
  const commands = code.kinds.map((k) => k.kind);
  const events = code.kinds.flatMap((k) => k.events.map((e) => e.kind));
  if (same(document['commandKinds'], commands) && same(document['eventKinds'], events)) return null;
  return wireError('INVALID_COMMAND', `this node implements ${code.uri} major ${major} with Command kinds ${commands.join(', ')} and Event kinds ${[...new Set(events)].join(', ')}; the document must declare exactly these`);
}

/** The major of a schema-valid semantic version. */
export function majorOf(version: string): number {
  return Number(version.split('.')[0]);
}

/** Verifies and stores one profile document given as untrusted bytes. */
export async function registerProfile(deps: ProfileRegistrationDeps, bytes: Uint8Array): Promise<ProfileRegistration> {
  let value: JsonValue;
  try {
    value = parseStrictJson(bytes);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return { ok: false, error: wireError(error.code, error.message) };
  }
  const result = verifyParsedDocument('extension-profile', value, deps.registry, deps.schemas);
  if (!result.ok) {
    const { failure } = result;
    // Only the schema stage's detail is for the caller; the others stay protected (§6.4).
    return { ok: false, error: wireError(failure.code, failure.stage === 'schema' ? failure.detail : '', { diagnostic: { stage: failure.stage, reason: failure.reason } }) };
  }
  const document = result.verified.document;
  const approver = result.verified.principal;
  if (approver.type === 'agent') return { ok: false, error: wireError('AUTH_FORBIDDEN', 'an Extension Profile is approved by a human or an Organization service, not an Agent') };
  const namespace = checkNamespace(document);
  if (namespace !== null) return { ok: false, error: namespace };
  const mismatch = checkCodeKinds(document, deps.codeProfiles ?? []);
  if (mismatch !== null) return { ok: false, error: mismatch };
  const version = document['version'] as string;
  const row: ProfileRow = {
    profileUri: document['profileUri'] as string,
    version,
    majorVersion: majorOf(version),
    critical: document['critical'] === true,
    signingHash: result.verified.signingHash,
    document: result.verified.canonicalText,
    registeredAt: deps.now,
  };
  const { stored, inserted } = await insertProfile(deps.pool, row);
  if (!inserted && stored.signingHash !== row.signingHash) {
    return { ok: false, error: wireError('INVALID_COMMAND', `${row.profileUri} ${version} is registered with another document; a new document needs a new version`) };
  }
  return { ok: true, profile: stored, inserted };
}

/** The registered profiles, every version, for operators and for pinning. */
export function listProfiles(pool: Pool, profileUri?: string): Promise<ProfileRow[]> {
  return readProfiles(pool, profileUri);
}
