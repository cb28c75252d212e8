/**
 * The First-Admission Records of Group Events (migration 0019): each Event row holds its record's
 * signing hash, ID, trusted acceptance time and key ID, and `event_admission_keys` holds, per key
 * Events are signed with, the Organization, Principal and accepting service its records name. A
 * node states its own key once, at start; the records are read back by signing hash, as the
 * Admission Log's lookup for historical replay (§6.4).
 */

import type { Principal } from '../../protocol/principal.js';
import type { Queryable } from '../pool.js';

export interface EventAdmissionKey {
  readonly keyId: string;
  readonly organizationId: string;
  readonly principal: Principal;
  readonly acceptedBy: Principal;
}

/** States what the records of Events signed with `key.keyId` name; a key stated before keeps its row. */
export async function ensureEventAdmissionKey(db: Queryable, key: EventAdmissionKey): Promise<void> {
  await db.query(
    `insert into event_admission_keys (key_id, organization_id, principal_type, principal_id, accepted_by_type, accepted_by_id)
     values ($1, $2, $3, $4, $5, $6) on conflict (key_id) do nothing`,
    [key.keyId, key.organizationId, key.principal.type, key.principal.id, key.acceptedBy.type, key.acceptedBy.id],
  );
}

/** One stored record's columns; those of its key are null when no key row names its key ID. */
export interface StoredEventAdmission {
  readonly signingHash: string;
  readonly admissionRecordId: string;
  readonly trustedAcceptedAt: string;
  readonly keyId: string;
  readonly organizationId: string | null;
  readonly principalType: string | null;
  readonly principalId: string | null;
  readonly acceptedByType: string | null;
  readonly acceptedById: string | null;
}

/** The stored records of these signing hashes, by signing hash; a hash with none is absent. */
export async function readEventAdmissions(db: Queryable, signingHashes: readonly string[]): Promise<Map<string, StoredEventAdmission>> {
  if (signingHashes.length === 0) return new Map();
  const result = await db.query<StoredEventAdmission>(
    `select e.signing_hash as "signingHash", e.admission_record_id as "admissionRecordId", e.trusted_accepted_at as "trustedAcceptedAt",
            e.key_id as "keyId", k.organization_id as "organizationId", k.principal_type as "principalType", k.principal_id as "principalId",
            k.accepted_by_type as "acceptedByType", k.accepted_by_id as "acceptedById"
     from events e left join event_admission_keys k on k.key_id = e.key_id
     where e.signing_hash = any($1::text[])`,
    [signingHashes],
  );
  return new Map(result.rows.map((row) => [row.signingHash, row]));
}
