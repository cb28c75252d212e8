/**
 * Registering an Extension Profile (§18): the Organization-approved document is admitted like
 * any Signed Document (§6.4) before it is stored, so a Group can pin only a profile the
 * Organization signed: the six stages against the Registry brought up to date with the database
 * (its schema, then `approvedBy`'s key over its JCS bytes), then first admission in the
 * registration's transaction (`standaloneAdmission.ts`: the key valid at the trusted acceptance
 * time too, and a First-Admission Record). Who may approve, judged after admission: a human or an
 * Organization service of the Registry — an Agent's key proves the Agent wrote the document, not
 * that the Organization approved it. A refusal at a verification or admission stage is answered
 * only once its Policy Log record is committed (transport `cli`).
 */

import type { AnyExtensionProfile } from '../domain/kinds/profile.js';
import { inTransaction, type Pool } from '../store/pool.js';
import { insertProfile, readProfiles, type ProfileRow } from '../store/sql/extensionProfiles.js';
import type { VerificationFailure } from '../protocol/signing/verification.js';
import { verifyParsedDocument } from '../protocol/signing/verifySignedDocument.js';
import { parseStrictJson, type JsonObject, type JsonValue } from '../protocol/strictJson.js';
import { isProtocolError } from '../protocol/errorCodes.js';
import type { GroupAuthority } from './groupAuthority.js';
import { unrecordedError } from './recordPolicyLog.js';
import { admitStandalone } from './standaloneAdmission.js';
import { wireError, type WireError } from './wireError.js';

export type ProfileRegistration =
  | { readonly ok: true; readonly profile: ProfileRow; readonly inserted: boolean }
  | { readonly ok: false; readonly error: WireError };

export interface ProfileRegistrationDeps {
  readonly pool: Pool;
  /** Its Registry, schemas, clock (the trusted registration time), settings and Policy Log. */
  readonly authority: GroupAuthority;
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

/** A refusal that rolls the registration's transaction back (its admission record with it). */
class Refused extends Error {
  constructor(readonly error: WireError) {
    super(error.message);
  }
}

/** The claims a refused profile document makes, in the shape the Policy Log reads (`claimsOf`). */
function claimedBy(value: JsonValue): JsonValue {
  const document = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  return { actor: document['approvedBy'] ?? null, signature: document['signature'] ?? null };
}

/**
 * Answers a refusal at a verification or admission stage once its Policy Log record is committed
 * (§6.4); only the schema stage's detail is for the caller, the others stay protected.
 */
async function refused(deps: ProfileRegistrationDeps, failure: Pick<VerificationFailure, 'stage' | 'reason' | 'code'> & { readonly detail?: string }, document: JsonValue | Uint8Array, signingHash?: string): Promise<ProfileRegistration> {
  const recorded = await deps.authority.policyLog.record({
    diagnostic: failure,
    origin: { transport: 'cli' },
    document: document instanceof Uint8Array ? document : claimedBy(document),
    ...(signingHash === undefined ? {} : { signingHash }),
  });
  if (recorded !== 'recorded') return { ok: false, error: unrecordedError(recorded) };
  const message = failure.stage === 'schema' || failure.stage === 'parse' ? (failure.detail ?? '') : '';
  return { ok: false, error: wireError(failure.code, message, { diagnostic: { stage: failure.stage, reason: failure.reason } }) };
}

/** Verifies, admits and stores one profile document given as untrusted bytes. */
export async function registerProfile(deps: ProfileRegistrationDeps, bytes: Uint8Array): Promise<ProfileRegistration> {
  const { authority } = deps;
  let value: JsonValue;
  try {
    value = parseStrictJson(bytes);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return refused(deps, { stage: 'parse', reason: error.reason, code: error.code, detail: error.message }, bytes);
  }
  // §6.4: a first admission needs current Registry evidence.
  await authority.refreshRegistry();
  const result = verifyParsedDocument('extension-profile', value, authority.registry.current.registry, authority.schemas);
  if (!result.ok) return refused(deps, result.failure, value);
  const { verified } = result;
  const nowMillis = authority.clock.nowMillis();
  try {
    return await inTransaction(deps.pool, async (client) => {
      const admitted = await admitStandalone(client, verified, nowMillis, authority.settings, authority.schemas);
      if (!admitted.ok) throw new Refused(wireError('AUTH_INVALID_SIGNATURE', '', { diagnostic: { stage: 'admission', reason: admitted.reason } }));
      const document = verified.document;
      if (verified.principal.type === 'agent') throw new Refused(wireError('AUTH_FORBIDDEN', 'an Extension Profile is approved by a human or an Organization service, not an Agent'));
      const rule = checkNamespace(document) ?? checkCodeKinds(document, deps.codeProfiles ?? []);
      if (rule !== null) throw new Refused(rule);
      const version = document['version'] as string;
      const row: ProfileRow = {
        profileUri: document['profileUri'] as string,
        version,
        majorVersion: majorOf(version),
        critical: document['critical'] === true,
        signingHash: verified.signingHash,
        document: verified.canonicalText,
        registeredAt: admitted.record.trustedAcceptedAt,
      };
      const { stored, inserted } = await insertProfile(client, row);
      if (!inserted && stored.signingHash !== row.signingHash) {
        throw new Refused(wireError('INVALID_COMMAND', `${row.profileUri} ${version} is registered with another document; a new document needs a new version`));
      }
      return { ok: true, profile: stored, inserted } as const;
    });
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    const diagnostic = error.error.diagnostic;
    if (diagnostic === undefined) return { ok: false, error: error.error };
    return refused(deps, { ...diagnostic, code: error.error.code }, value, verified.signingHash);
  }
}

/** The registered profiles, every version, for operators and for pinning. */
export function listProfiles(pool: Pool, profileUri?: string): Promise<ProfileRow[]> {
  return readProfiles(pool, profileUri);
}
