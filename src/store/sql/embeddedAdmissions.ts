/**
 * First-Admission Records of Signed Documents other than Commands and Events (migrations 0005,
 * 0018): those embedded in a Command, and those presented on their own (an Extension Profile).
 * One lookup for a batch's signing hashes, and one append-or-return-existing statement whose
 * count tells the caller whether a concurrent transaction appended first (it then re-runs and
 * finds the record).
 */

import type { Queryable } from '../pool.js';

export interface EmbeddedAdmissionRow {
  readonly signingHash: string;
  readonly admissionRecordId: string;
  readonly documentKind: string;
  readonly keyId: string;
  readonly principalType: string;
  readonly principalId: string;
  readonly trustedAcceptedAt: string;
  readonly acceptedById: string;
  /** The Command that carried the document; null for a document presented on its own. */
  readonly actionId: string | null;
}

const COLUMNS = `signing_hash as "signingHash", admission_record_id as "admissionRecordId", document_kind as "documentKind",
  key_id as "keyId", principal_type as "principalType", principal_id as "principalId",
  trusted_accepted_at as "trustedAcceptedAt", accepted_by_id as "acceptedById", action_id as "actionId"`;

export async function readEmbeddedAdmissions(db: Queryable, organizationId: string, signingHashes: readonly string[]): Promise<Map<string, EmbeddedAdmissionRow>> {
  if (signingHashes.length === 0) return new Map();
  const result = await db.query<EmbeddedAdmissionRow>(
    `select ${COLUMNS} from embedded_admissions where organization_id = $1 and signing_hash = any($2::text[])`,
    [organizationId, signingHashes],
  );
  return new Map(result.rows.map((row) => [row.signingHash, row]));
}

/**
 * Appends the records; returns how many were new (fewer means another transaction won), counted
 * by the rows returned: on Citus this INSERT … SELECT is pulled to the coordinator, whose
 * `rowCount` is the rows selected, those that conflicted included.
 */
export async function insertEmbeddedAdmissions(db: Queryable, organizationId: string, rows: readonly EmbeddedAdmissionRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db.query(
    `insert into embedded_admissions (organization_id, signing_hash, admission_record_id, document_kind, key_id, principal_type,
                                      principal_id, trusted_accepted_at, accepted_by_id, action_id)
     select $1, "signingHash", "admissionRecordId", "documentKind", "keyId", "principalType", "principalId",
            "trustedAcceptedAt", "acceptedById", "actionId"
     from json_to_recordset($2::json) as x("signingHash" text, "admissionRecordId" text, "documentKind" text, "keyId" text,
          "principalType" text, "principalId" text, "trustedAcceptedAt" text, "acceptedById" text, "actionId" text)
     on conflict do nothing returning 1 as inserted`,
    [organizationId, JSON.stringify(rows)],
  );
  return result.rows.length;
}
