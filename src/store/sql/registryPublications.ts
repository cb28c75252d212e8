/**
 * The published Registry snapshot (migration 0020): the newest signed copy, replaced only by one
 * of a higher Registry revision, so that concurrent publishers of one revision keep the first.
 */

import type { Queryable } from '../pool.js';

export interface RegistryPublicationRow {
  readonly revision: number;
  /** The signed snapshot's JCS text, served and exported byte for byte. */
  readonly document: string;
}

export async function readRegistryPublication(db: Queryable, organizationId: string): Promise<RegistryPublicationRow | undefined> {
  const result = await db.query<RegistryPublicationRow>(
    'select revision, document from registry_publications where organization_id = $1',
    [organizationId],
  );
  return result.rows[0];
}

/** Stores `row` unless a copy of the same or a higher revision is already there. */
export async function insertRegistryPublication(db: Queryable, organizationId: string, row: RegistryPublicationRow): Promise<void> {
  await db.query(
    `insert into registry_publications (organization_id, revision, document) values ($1, $2, $3)
     on conflict (organization_id) do update set revision = excluded.revision, document = excluded.document
     where registry_publications.revision < excluded.revision`,
    [organizationId, row.revision, row.document],
  );
}
