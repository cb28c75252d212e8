/**
 * The stateless front of the Command pipeline: strict parse, envelope schema, the six
 * cryptographic stages, the payload schema of the kind, extension criticality and the data schema
 * of the core extensions the Authority interprets. Nothing
 * here touches the database, so it runs off the write path's critical section.
 */

import { isDeepStrictEqual } from 'node:util';
import type { EmbeddedDocument } from '../domain/kinds/kindTypes.js';
import type { CommandEnvelope } from '../domain/model.js';
import type { SchemaRegistry } from '../protocol/schemas/registry.js';
import type { MissionWeaveCommand } from '../protocol/schemas/wireTypes.js';
import { parseStrictJson, type JsonObject, type JsonValue } from '../protocol/strictJson.js';
import { verifyParsedDocument, type RegistryInput } from '../protocol/signing/verifySignedDocument.js';
import type { VerificationFailure } from '../protocol/signing/verification.js';
import type { KeyRegistry, ResolvedKey } from '../protocol/signing/keyRegistry.js';
import type { DocumentKind } from '../protocol/signing/profiles.js';
import { isProtocolError } from '../protocol/errorCodes.js';
import { OFFLINE_EXECUTION_EXTENSION } from '../protocol/offlineExecution.js';
import { wireError, type WireError } from './wireError.js';

/**
 * What the stateless front reads of the kinds (from their entries): which are Organization-scoped
 * (no Group, no Group sequence, §15.1), which embed a Signed Document verified with the same six
 * stages before any decision, and which Extension Profiles are interpreted — a critical extension
 * of any other profile is refused (§18).
 */
export interface FrontRules {
  scopeOf(kind: string): 'group' | 'organization';
  embeddedOf(kind: string): EmbeddedDocument | undefined;
  readonly extensionUris: ReadonlySet<string>;
}

/**
 * Core extensions whose data has one of our object schemas, checked here so that a decider reads
 * only schema-valid data: the bounded offline execution binding (§11.5).
 */
const EXTENSION_SCHEMAS: ReadonlyMap<string, string> = new Map([[OFFLINE_EXECUTION_EXTENSION, 'offline-execution-binding']]);

/** Agent Cards are verified with their issuer's authority in the Organization transaction. */
const VERIFIED_LATER: ReadonlySet<DocumentKind> = new Set(['agent-card']);

/** What later steps need of a Command's verification: its signing hash and resolved key. */
export interface CommandVerification {
  readonly signingHash: string;
  readonly keyId: string;
  readonly key: ResolvedKey;
}

/**
 * A Signed Document embedded in the Command, six-stage verified: what its first admission needs
 * (§6.4), which happens with the Command's, at the same trusted acceptance time. `index`: its
 * position in an array member (absent for a single document).
 */
export interface EmbeddedVerification {
  readonly document: DocumentKind;
  readonly signingHash: string;
  readonly keyId: string;
  readonly key: ResolvedKey;
  readonly index?: number;
}

export interface VerifiedCommand {
  readonly envelope: CommandEnvelope;
  readonly document: JsonObject;
  readonly verified: CommandVerification;
  /** JCS text of the complete signed Command, as stored with its receipt. */
  readonly canonical: string;
  readonly scope: 'group' | 'organization';
  /** The Registry revision stage 4 used; a write transaction re-verifies if it moved on. */
  readonly registryRevision: number;
  /** The embedded documents, in payload order: one, or each element of an array member. */
  readonly embedded?: readonly EmbeddedVerification[];
  /**
   * The W3C trace context the Command came with (an HTTPS request's `traceparent`), which its
   * primary Event carries in the trace-context extension (src/app/tracing/tracing.ts).
   */
  readonly traceContext?: { readonly traceparent: string; readonly tracestate?: string };
}

/** Registry evidence at one revision. */
export interface RegistryAtRevision {
  readonly registry: RegistryInput;
  readonly revision: number;
}

export type FrontResult =
  | { readonly ok: true; readonly command: VerifiedCommand }
  | { readonly ok: false; readonly error: WireError; readonly diagnostic?: VerificationFailure };

/** A schema-valid Command document is its envelope (command.schema.json's generated type). */
function envelopeOf(document: JsonObject): CommandEnvelope {
  return document as MissionWeaveCommand;
}

function relatedActionId(value: JsonValue): string | undefined {
  const actionId = typeof value === 'object' && value !== null && !Array.isArray(value) ? value['actionId'] : undefined;
  return typeof actionId === 'string' && actionId.length <= 512 ? actionId : undefined;
}

/** Runs every stateless check on an already strictly parsed Command. */
export function verifyCommandValue(value: JsonValue, evidence: RegistryAtRevision, schemas: SchemaRegistry, rules: FrontRules): FrontResult {
  const result = verifyParsedDocument('command', value, evidence.registry, schemas);
  if (!result.ok) {
    const { failure } = result;
    const actionId = failure.stage === 'schema' ? undefined : relatedActionId(value);
    return {
      ok: false,
      diagnostic: failure,
      error: wireError(failure.code, failure.stage === 'schema' ? failure.detail : '', actionId === undefined ? {} : { relatedActionId: actionId }),
    };
  }
  const document = result.verified.document;
  const envelope = envelopeOf(document);
  const related = { relatedActionId: envelope.actionId };
  const payload = schemas.validatePayload(envelope.kind, envelope.payload);
  if (payload === null) {
    return { ok: false, error: wireError('INVALID_COMMAND', `command kind ${envelope.kind} is not supported`, related) };
  }
  if (!payload.ok) {
    // §19 names missing Work Contract information apart from other schema failures (§10.1).
    const code = payload.contractIncomplete === true ? 'WORK_CONTRACT_INCOMPLETE' : 'SCHEMA_VALIDATION_FAILED';
    return { ok: false, error: wireError(code, `payload ${payload.error}`, related) };
  }
  const embedded = verifyEmbedded(rules.embeddedOf(envelope.kind), envelope.payload, evidence, schemas, related);
  if (!embedded.ok) return embedded;
  const extensions = (document['extensions'] ?? {}) as Record<string, { critical?: boolean; data?: JsonValue }>;
  for (const [profile, extension] of Object.entries(extensions)) {
    if (extension.critical === true && !rules.extensionUris.has(profile)) {
      return {
        ok: false,
        error: wireError('UNKNOWN_CRITICAL_EXTENSION', `critical extension ${profile} is not supported`, { ...related, details: { profileUri: profile } }),
      };
    }
    const schema = rules.extensionUris.has(profile) ? EXTENSION_SCHEMAS.get(profile) : undefined;
    const data = schema === undefined ? undefined : schemas.validateObject(schema, extension.data);
    if (data !== undefined && !data.ok) return { ok: false, error: wireError('SCHEMA_VALIDATION_FAILED', `extension ${profile} data ${data.error}`, related) };
  }
  return { ok: true, command: commandOf(document, result.verified.canonicalText, result.verified, evidence.revision, rules, embedded.documents) };
}

type EmbeddedResult = { readonly ok: true; readonly documents: readonly EmbeddedVerification[] | undefined } | Extract<FrontResult, { ok: false }>;

/**
 * The six stages on the Command's embedded documents, after its own signature and payload schema
 * passed, so only a correctly signed Command of a known sender spends them. An array member's
 * elements are verified in order and the first failure refuses the Command with the code a single
 * document's would get, its details naming the element's index: one refusal costs at most one
 * failed verification, and a Command at most `maxItems` successful ones, all in the Command's own
 * turn of the verification gate (verificationGate.ts). An element equal to an earlier one (the
 * same signature over the same members) reuses its verification, so repeating one signed document
 * costs the sender as much as it costs us.
 */
function verifyEmbedded(embedded: EmbeddedDocument | undefined, payload: JsonObject, evidence: RegistryAtRevision, schemas: SchemaRegistry, related: { relatedActionId: string }): EmbeddedResult {
  const inner = embedded === undefined || VERIFIED_LATER.has(embedded.document) ? undefined : payload[embedded.member];
  if (embedded === undefined || inner === undefined) return { ok: true, documents: undefined };
  // The payload schema made an array member an array; a single document is one unindexed element.
  const elements: readonly (readonly [JsonValue, number | undefined])[] = embedded.many === true && Array.isArray(inner) ? inner.map((e, i) => [e, i] as const) : [[inner, undefined]];
  const documents: EmbeddedVerification[] = [];
  const bySignature = new Map<string, { readonly element: JsonValue; readonly verified: EmbeddedVerification }>();
  for (const [element, index] of elements) {
    const signature = signatureValueOf(element);
    const earlier = signature === undefined ? undefined : bySignature.get(signature);
    if (earlier !== undefined && isDeepStrictEqual(earlier.element, element)) {
      documents.push({ ...earlier.verified, ...(index === undefined ? {} : { index }) });
      continue;
    }
    const check = verifyParsedDocument(embedded.document, element, evidence.registry, schemas);
    if (!check.ok) {
      const { failure } = check;
      const details = index === undefined ? {} : { details: { index } };
      return { ok: false, diagnostic: failure, error: wireError(failure.code, failure.stage === 'schema' ? failure.detail : '', { ...related, ...details }) };
    }
    const { signingHash, keyId, key } = check.verified;
    const verified: EmbeddedVerification = { document: embedded.document, signingHash, keyId, key, ...(index === undefined ? {} : { index }) };
    documents.push(verified);
    if (signature !== undefined) bySignature.set(signature, { element, verified });
  }
  return { ok: true, documents };
}

/** The signature value of a schema-valid Signed Document. */
function signatureValueOf(element: JsonValue): string | undefined {
  const signature = typeof element === 'object' && element !== null && !Array.isArray(element) ? element['signature'] : undefined;
  const value = typeof signature === 'object' && signature !== null && !Array.isArray(signature) ? signature['value'] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function commandOf(document: JsonObject, canonical: string, verified: CommandVerification, registryRevision: number, rules: FrontRules, embedded: readonly EmbeddedVerification[] | undefined): VerifiedCommand {
  const envelope = envelopeOf(document);
  return {
    envelope,
    document,
    verified: { signingHash: verified.signingHash, keyId: verified.keyId, key: verified.key },
    canonical,
    scope: rules.scopeOf(envelope.kind),
    registryRevision,
    ...(embedded === undefined ? {} : { embedded }),
  };
}

/** What a crypto worker reports of an embedded document: the main thread resolves the key. */
export interface EmbeddedReport {
  readonly document: DocumentKind;
  readonly signingHash: string;
  readonly keyId: string;
  readonly index?: number;
}

/** The worker's report of a verified Command's embedded documents. */
export function embeddedReports(command: VerifiedCommand): EmbeddedReport[] | undefined {
  return command.embedded?.map(({ document, signingHash, keyId, index }) => ({ document, signingHash, keyId, ...(index === undefined ? {} : { index }) }));
}

/**
 * Rebuilds a Command a crypto worker verified, from its canonical text (or the value this thread
 * parsed from the same frame); `undefined` when this
 * thread's Registry does not hold the key (the caller then verifies here).
 */
export function commandFromWorker(canonical: string, signingHash: string, keyId: string, registryRevision: number, registry: KeyRegistry, rules: FrontRules, parsed?: JsonObject, reports?: readonly EmbeddedReport[]): VerifiedCommand | undefined {
  const key = registry.resolve(keyId);
  if (key === undefined) return undefined;
  const embedded: EmbeddedVerification[] = [];
  for (const report of reports ?? []) {
    const embeddedKey = registry.resolve(report.keyId);
    if (embeddedKey === undefined) return undefined;
    embedded.push({ ...report, key: embeddedKey });
  }
  // `parsed`: the same text strictly parsed on this thread already, so not parsed again.
  return commandOf(parsed ?? (JSON.parse(canonical) as JsonObject), canonical, { signingHash, keyId, key }, registryRevision, rules, reports === undefined ? undefined : embedded);
}

/** Runs every stateless check on untrusted bytes. */
export function verifyCommandBytes(bytes: Uint8Array, evidence: RegistryAtRevision, schemas: SchemaRegistry, rules: FrontRules): FrontResult {
  let value: JsonValue;
  try {
    value = parseStrictJson(bytes);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return {
      ok: false,
      diagnostic: { stage: 'parse', reason: error.reason, code: error.code, detail: error.message },
      error: wireError(error.code, error.message),
    };
  }
  return verifyCommandValue(value, evidence, schemas, rules);
}
