/**
 * Registered Extension Profiles (migration 0015): storing one approved profile document under
 * its URI and version, and reading them back. A version is written once (§18: a profile's
 * version names one approved document), so a second, different document under it is reported to
 * the caller rather than overwriting the first.
 */

import type { Queryable } from '../pool.js';

export interface ProfileRow {
  readonly profileUri: string;
  readonly version: string;
  readonly majorVersion: number;
  readonly critical: boolean;
  readonly signingHash: string;
  /** The signed document as JCS text. */
  readonly document: string;
  readonly registeredAt: string;
}

interface Row {
  profile_uri: string;
  version: string;
  major_version: number;
  critical: boolean;
  signing_hash: string;
  document: string;
  registered_at: string;
}

function rowOf(r: Row): ProfileRow {
  return {
    profileUri: r.profile_uri,
    version: r.version,
    majorVersion: r.major_version,
    critical: r.critical,
    signingHash: r.signing_hash,
    document: r.document,
    registeredAt: r.registered_at,
  };
}

/** Inserts `row` unless its URI and version exist; returns the stored row (the new one or the earlier). */
export async function insertProfile(db: Queryable, row: ProfileRow): Promise<{ readonly stored: ProfileRow; readonly inserted: boolean }> {
  const inserted = await db.query<Row>(
    `insert into extension_profiles (profile_uri, version, major_version, critical, signing_hash, document, registered_at)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (profile_uri, version) do nothing
     returning *`,
    [row.profileUri, row.version, row.majorVersion, row.critical, row.signingHash, row.document, row.registeredAt],
  );
  const first = inserted.rows[0];
  if (first !== undefined) return { stored: rowOf(first), inserted: true };
  const existing = await db.query<Row>('select * from extension_profiles where profile_uri = $1 and version = $2', [row.profileUri, row.version]);
  const found = existing.rows[0];
  if (found === undefined) throw new Error(`extension profile ${row.profileUri} ${row.version} vanished after a conflict`);
  return { stored: rowOf(found), inserted: false };
}

/** The registered versions of `profileUri` (every profile when absent), by URI then registration. */
export async function readProfiles(db: Queryable, profileUri?: string): Promise<ProfileRow[]> {
  const result = await db.query<Row>(
    `select * from extension_profiles where $1::text is null or profile_uri = $1 order by profile_uri, registered_at, version`,
    [profileUri ?? null],
  );
  return result.rows.map(rowOf);
}

/** The registered major versions of each of `profileUris` (a pin names one of them, §18). */
export async function readRegisteredMajors(db: Queryable, profileUris: readonly string[]): Promise<Map<string, number[]>> {
  const result = await db.query<{ profile_uri: string; majors: number[] }>({
    name: 'read-registered-profile-majors',
    text: 'select profile_uri, array_agg(distinct major_version order by major_version) as majors from extension_profiles where profile_uri = any($1) group by profile_uri',
    values: [profileUris],
  });
  return new Map(result.rows.map((r) => [r.profile_uri, r.majors]));
}
