/**
 * The Agent Registry's signing-key bindings and validity history, and the Organization row
 * whose `registry_revision` tells every node whether its registry cache is current.
 */

import type { KeyBindingEvidence, ValidityStatusRecord } from '../../protocol/signing/keyRegistry.js';
import type { Queryable } from '../pool.js';

export async function ensureOrganization(db: Queryable, organizationId: string): Promise<void> {
  await db.query('insert into organization_state (organization_id) values ($1) on conflict do nothing', [organizationId]);
}

export interface OrganizationRow {
  readonly registryRevision: number;
  readonly lastPosition: number;
}

/** Locks the Organization row: Organization-scoped Commands are serialized on it. */
export async function lockOrganization(db: Queryable, organizationId: string): Promise<OrganizationRow> {
  const result = await db.query<OrganizationRow>({
    name: 'lock-organization',
    text: `select registry_revision as "registryRevision", last_position as "lastPosition"
           from organization_state where organization_id = $1 for update`,
    values: [organizationId],
  });
  const row = result.rows[0];
  if (row === undefined) throw new Error(`organization ${organizationId} is not initialised`);
  return row;
}

export async function readRegistryRevision(db: Queryable, organizationId: string): Promise<number> {
  const result = await db.query<{ registry_revision: number }>({
    name: 'read-registry-revision',
    text: 'select registry_revision from organization_state where organization_id = $1',
    values: [organizationId],
  });
  return result.rows[0]?.registry_revision ?? 0;
}

export async function updateOrganization(db: Queryable, organizationId: string, row: OrganizationRow): Promise<void> {
  await db.query(
    'update organization_state set registry_revision = $2, last_position = $3 where organization_id = $1',
    [organizationId, row.registryRevision, row.lastPosition],
  );
}

/** Every binding with its full validity history. */
export async function readBindings(db: Queryable): Promise<KeyBindingEvidence[]> {
  const bindings = await db.query<BindingRow>('select key_id, principal_type, principal_id, algorithm, public_key, valid_from from key_bindings order by key_id');
  const records = await db.query<RecordRow>('select key_id, sequence, recorded_at, valid_until, revoked_at from key_validity_records order by key_id, sequence');
  return evidenceOf(bindings.rows, records.rows);
}

/**
 * The bindings bound or given a validity record at a Registry revision in (`after`, `upTo`],
 * each with its validity history as of `upTo` — what a Registry copy at `after` lacks
 * (`applyRegistryDelta` adds them; src/app/registryCatchUp.ts).
 */
export async function readBindingsChangedBetween(db: Queryable, after: number, upTo: number): Promise<KeyBindingEvidence[]> {
  const changed = `select key_id from key_bindings where registry_revision > $1 and registry_revision <= $2
                   union select key_id from key_validity_records where registry_revision > $1 and registry_revision <= $2`;
  const bindings = await db.query<BindingRow>(
    `select key_id, principal_type, principal_id, algorithm, public_key, valid_from from key_bindings
     where key_id in (${changed}) order by key_id`,
    [after, upTo],
  );
  const records = await db.query<RecordRow>(
    `select key_id, sequence, recorded_at, valid_until, revoked_at from key_validity_records
     where key_id in (${changed}) and registry_revision <= $2 order by key_id, sequence`,
    [after, upTo],
  );
  return evidenceOf(bindings.rows, records.rows);
}

interface BindingRow {
  key_id: string;
  principal_type: 'agent' | 'human' | 'service';
  principal_id: string;
  algorithm: string;
  public_key: string;
  valid_from: string;
}

interface RecordRow {
  key_id: string;
  sequence: number;
  recorded_at: string;
  valid_until: string | null;
  revoked_at: string | null;
}

function evidenceOf(bindings: readonly BindingRow[], records: readonly RecordRow[]): KeyBindingEvidence[] {
  const history = new Map<string, ValidityStatusRecord[]>();
  for (const r of records) {
    const record: ValidityStatusRecord = {
      sequence: r.sequence,
      recordedAt: r.recorded_at,
      ...(r.valid_until === null ? {} : { validUntil: r.valid_until }),
      ...(r.revoked_at === null ? {} : { revokedAt: r.revoked_at }),
    };
    const list = history.get(r.key_id);
    if (list === undefined) history.set(r.key_id, [record]);
    else list.push(record);
  }
  return bindings.map((b) => ({
    keyId: b.key_id,
    principal: { type: b.principal_type, id: b.principal_id },
    algorithm: b.algorithm,
    publicKey: b.public_key,
    validFrom: b.valid_from,
    validityHistory: history.get(b.key_id) ?? [],
  }));
}

export async function insertBinding(db: Queryable, binding: KeyBindingEvidence, revision: number): Promise<void> {
  await db.query(
    `insert into key_bindings (key_id, principal_type, principal_id, algorithm, public_key, valid_from, registry_revision)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [binding.keyId, binding.principal.type, binding.principal.id, binding.algorithm, binding.publicKey, binding.validFrom, revision],
  );
  for (const record of binding.validityHistory) await insertValidityRecord(db, binding.keyId, record, revision);
}

export async function insertValidityRecord(db: Queryable, keyId: string, record: ValidityStatusRecord, revision: number): Promise<void> {
  await db.query(
    `insert into key_validity_records (key_id, sequence, recorded_at, valid_until, revoked_at, registry_revision)
     values ($1, $2, $3, $4, $5, $6)`,
    [keyId, record.sequence, record.recordedAt, record.validUntil ?? null, record.revokedAt ?? null, revision],
  );
}
