/**
 * First admission of a Signed Document presented on its own rather than inside a Command — an
 * Extension Profile an operator registers (§18) — through the same §6.4 layer as every other
 * document: after its six stages, the Admission Log (`embedded_admissions`, keyed by
 * Organization and signing hash) is looked up; a found record must bind the same document kind,
 * key and Principal and have been accepted inside the key's interval; only an authoritative
 * absence lets a new record be appended, at the trusted acceptance time, and only when the key is
 * valid then too — so a signer cannot backdate the protected time to before its key was revoked.
 * The protected time may not lie ahead of the trusted time by more than the clock-skew window.
 *
 * Everything happens in the caller's transaction, so a document refused after its admission
 * (authorization, its own rules) leaves no record.
 */

import { admitFirst, type AdmissionLog, type AdmissionOutcome, type AuthenticatedRecord, type FirstAdmissionRecord } from '../protocol/signing/admission.js';
import type { Principal } from '../protocol/principal.js';
import type { SchemaRegistry } from '../protocol/schemas/registry.js';
import type { VerifiedDocument } from '../protocol/signing/verification.js';
import type { Queryable } from '../store/pool.js';
import { insertEmbeddedAdmissions, readEmbeddedAdmissions, type EmbeddedAdmissionRow } from '../store/sql/embeddedAdmissions.js';
import { newUrn } from './eventFactory.js';
import type { AuthoritySettings } from './settings.js';

function recordOf(row: EmbeddedAdmissionRow, organizationId: string): FirstAdmissionRecord {
  return {
    protocolVersion: '0.1',
    admissionRecordId: row.admissionRecordId,
    organizationId,
    // Written from a verified document's kind; the record's schema check still reads it.
    documentKind: row.documentKind as FirstAdmissionRecord['documentKind'],
    signingHash: row.signingHash,
    keyId: row.keyId,
    principal: { type: row.principalType, id: row.principalId } as Principal,
    trustedAcceptedAt: row.trustedAcceptedAt,
    acceptedBy: { type: 'service', id: row.acceptedById },
  };
}

/** The Admission Log in this database, as the accepting service `service` authenticates it. */
function databaseAdmissionLog(db: Queryable, organizationId: string, service: Principal): AdmissionLog {
  const authenticated = (row: EmbeddedAdmissionRow): AuthenticatedRecord => ({
    recordBytes: Buffer.from(JSON.stringify(recordOf(row, organizationId))),
    authenticatedService: service,
  });
  const find = async (signingHash: string) => (await readEmbeddedAdmissions(db, organizationId, [signingHash])).get(signingHash);
  return {
    async lookup(_organizationId, signingHash) {
      const row = await find(signingHash);
      return row === undefined ? { status: 'authoritative-absence' } : { status: 'found', ...authenticated(row) };
    },
    async appendOrReturnExisting(candidate) {
      const row: EmbeddedAdmissionRow = {
        signingHash: candidate.signingHash,
        admissionRecordId: candidate.admissionRecordId,
        documentKind: candidate.documentKind,
        keyId: candidate.keyId,
        principalType: candidate.principal.type,
        principalId: candidate.principal.id,
        trustedAcceptedAt: candidate.trustedAcceptedAt,
        acceptedById: candidate.acceptedBy.id,
        actionId: null,
      };
      if ((await insertEmbeddedAdmissions(db, organizationId, [row])) === 1) return { status: 'committed', ...authenticated(row) };
      const existing = await find(candidate.signingHash);
      return existing === undefined ? { status: 'indeterminate' } : { status: 'existing', ...authenticated(existing) };
    },
  };
}

/** First admission of `verified` at the trusted instant `nowMillis`, in `db`'s transaction. */
export async function admitStandalone(
  db: Queryable,
  verified: VerifiedDocument,
  nowMillis: number,
  settings: Pick<AuthoritySettings, 'services' | 'freshness'>,
  schemas: SchemaRegistry,
): Promise<AdmissionOutcome> {
  const aheadSeconds = verified.protectedInstant.seconds - nowMillis / 1000;
  if (aheadSeconds > settings.freshness.maxFutureSkewSeconds) {
    return { ok: false, stage: 'admission', reason: 'protected-time-too-far-ahead', code: 'AUTH_INVALID_SIGNATURE' };
  }
  const { services } = settings;
  const log = databaseAdmissionLog(db, services.organizationId, services.authority);
  const trusted = () => ({ admissionRecordId: newUrn(), trustedAcceptedAt: new Date(nowMillis).toISOString(), acceptedBy: services.authority });
  return admitFirst(verified, log, trusted, schemas);
}
