/**
 * First admission and historical replay (§6.4): the semantic layer above the six cryptographic
 * stages that anchors a verified Signed Document to a First-Admission Record.
 *
 * The Admission Log is reached through typed adapter results only; every outcome other than a
 * found record, an authoritative absence or a committed/existing append fails closed. A record
 * is never trusted for its own bytes: it is strictly parsed, schema-checked, compared binding
 * by binding with the six-stage evidence and with the authenticated accepting service, and its
 * trusted acceptance time must fall inside the key's validity interval.
 */

import { isProtocolError } from '../errorCodes.js';
import { samePrincipal, type Principal } from '../principal.js';
import type { SchemaRegistry } from '../schemas/registry.js';
import type { MissionWeaveFirstAdmissionRecord } from '../schemas/wireTypes.js';
import { parseStrictJson, type JsonValue } from '../strictJson.js';
import { parseTimestamp } from '../timestamp.js';
import { keyValidAt } from './keyRegistry.js';
import type { VerifiedDocument } from './verification.js';

/** first-admission-record.schema.json's generated type. */
export type FirstAdmissionRecord = Readonly<MissionWeaveFirstAdmissionRecord>;

/** What an Admission Log returns: the record's exact bytes and who authenticated them. */
export interface AuthenticatedRecord {
  readonly recordBytes: Uint8Array;
  readonly authenticatedService: Principal;
}

export type LookupResult =
  | ({ readonly status: 'found' } & AuthenticatedRecord)
  | { readonly status: 'authoritative-absence' }
  | { readonly status: 'unauthenticated' | 'indeterminate' | 'unavailable' | 'integrity-failed' };

export type AppendResult =
  | ({ readonly status: 'committed' | 'existing' } & AuthenticatedRecord)
  | {
      readonly status:
        | 'conflict'
        | 'integrity-failed'
        | 'unauthenticated'
        | 'indeterminate'
        | 'unavailable'
        | 'failed-commit';
    };

/** The Organization's Admission Log, keyed by (organizationId, signingHash). */
export interface AdmissionLog {
  lookup(organizationId: string, signingHash: string): Promise<LookupResult>;
  appendOrReturnExisting(candidate: FirstAdmissionRecord): Promise<AppendResult>;
}

/** Trusted acceptance context the Organization assigns to a new admission. */
export interface TrustedContext {
  readonly admissionRecordId: string;
  readonly trustedAcceptedAt: string;
  readonly acceptedBy: Principal;
}

export type AdmissionOutcome =
  | { readonly ok: true; readonly record: FirstAdmissionRecord }
  | { readonly ok: false; readonly stage: 'admission'; readonly reason: string; readonly code: 'AUTH_INVALID_SIGNATURE' };

function refuse(reason: string): AdmissionOutcome {
  return { ok: false, stage: 'admission', reason, code: 'AUTH_INVALID_SIGNATURE' };
}

const STATUS_REASONS: Record<string, string> = {
  unauthenticated: 'log-authentication-failed',
  indeterminate: 'log-indeterminate',
  unavailable: 'log-unavailable',
  'integrity-failed': 'append-integrity-not-established',
  conflict: 'record-conflict',
  'failed-commit': 'append-failed',
};

function withinKeyInterval(verified: VerifiedDocument, trustedAcceptedAt: string): boolean {
  const instant = parseTimestamp(trustedAcceptedAt);
  return instant !== null && keyValidAt(verified.key, instant);
}

/** An Event is never its own anchor: a record that is itself a Signed Document is refused. */
function isSelfAnchor(verified: VerifiedDocument, record: JsonValue): boolean {
  if (verified.kind !== 'event' || typeof record !== 'object' || record === null) return false;
  return !Array.isArray(record) && ('signature' in record || 'eventId' in record);
}

/** Validates a record returned by the log against the six-stage evidence. */
export function validateRecord(
  verified: VerifiedDocument,
  returned: AuthenticatedRecord,
  schemas: SchemaRegistry,
): AdmissionOutcome {
  let value: JsonValue;
  try {
    value = parseStrictJson(returned.recordBytes);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return refuse('record-unparseable');
  }
  if (isSelfAnchor(verified, value)) return refuse('event-self-anchoring');
  if (!schemas.validateObject('first-admission-record', value).ok) return refuse('record-schema-invalid');
  const record = value as FirstAdmissionRecord;
  const bound =
    record.organizationId === verified.organizationId &&
    record.documentKind === verified.kind &&
    record.signingHash === verified.signingHash &&
    record.keyId === verified.keyId &&
    samePrincipal(record.principal, verified.principal);
  if (!bound) return refuse('record-binding-mismatch');
  if (!samePrincipal(record.acceptedBy, returned.authenticatedService)) {
    return refuse('record-service-mismatch');
  }
  if (!withinKeyInterval(verified, record.trustedAcceptedAt)) {
    return refuse('trusted-time-outside-key-interval');
  }
  return { ok: true, record };
}

/**
 * First admission of a newly presented document. `trustedContext` is consulted only after an
 * authoritative absence; a found record is an idempotent success once validated.
 */
export async function admitFirst(
  verified: VerifiedDocument,
  log: AdmissionLog,
  trustedContext: () => TrustedContext,
  schemas: SchemaRegistry,
): Promise<AdmissionOutcome> {
  const lookup = await log.lookup(verified.organizationId, verified.signingHash);
  if (lookup.status === 'found') return validateRecord(verified, lookup, schemas);
  if (lookup.status !== 'authoritative-absence') return refuse(STATUS_REASONS[lookup.status] as string);
  const context = trustedContext();
  if (parseTimestamp(context.trustedAcceptedAt) === null) return refuse('malformed-trusted-time');
  if (!withinKeyInterval(verified, context.trustedAcceptedAt)) {
    return refuse('trusted-time-outside-key-interval');
  }
  if (context.acceptedBy.type !== 'service') return refuse('accepting-party-not-service');
  const candidate: FirstAdmissionRecord = {
    protocolVersion: '0.1',
    admissionRecordId: context.admissionRecordId,
    organizationId: verified.organizationId,
    documentKind: verified.kind,
    signingHash: verified.signingHash,
    keyId: verified.keyId,
    principal: verified.principal,
    trustedAcceptedAt: context.trustedAcceptedAt,
    acceptedBy: { type: 'service', id: context.acceptedBy.id },
  };
  const appended = await log.appendOrReturnExisting(candidate);
  if (appended.status !== 'committed' && appended.status !== 'existing') {
    return refuse(STATUS_REASONS[appended.status] as string);
  }
  return validateRecord(verified, appended, schemas);
}

/** Historical replay: the document must already be anchored; nothing is appended. */
export async function replayHistorical(
  verified: VerifiedDocument,
  log: AdmissionLog,
  schemas: SchemaRegistry,
): Promise<AdmissionOutcome> {
  const lookup = await log.lookup(verified.organizationId, verified.signingHash);
  if (lookup.status === 'found') return validateRecord(verified, lookup, schemas);
  if (lookup.status === 'authoritative-absence') return refuse('record-missing');
  return refuse(STATUS_REASONS[lookup.status] as string);
}
