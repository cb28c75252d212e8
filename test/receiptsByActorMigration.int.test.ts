/**
 * Migration 0024 puts every actor's receipts in one table, so that its primary key holds §15.1's
 * rule across an actor's Organization and Group Commands (docs/citus.md, "The §15.1 receipt
 * rule"): a service's Group Commands' receipts move from `receipts` to `organization_receipts`
 * beside its Organization Commands', every other actor's stay, and check constraints refuse a
 * receipt in the other table from then on. A service receipt that cannot move (its Action ID
 * already taken there: the collision 0023 let through) stays where it was, and `receipts`' check
 * is left unvalidated for it; without one the check is validated. On plain PostgreSQL (databases
 * of their own, migrated up to 0023 and given rows) and, with MW_CITUS_URL, on cluster databases
 * migrated and distributed up to 0023 (`organization_receipts` a plain table of the coordinator, as
 * the code before 0024 left it, or already a Citus local table, as `migrate` leaves it now).
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../src/store/migrate.js';
import type { Pool } from '../src/store/pool.js';
import { createCitusDatabase, describeOnCitus, type CitusDatabase } from './support/citus.js';
import { emptyDatabase } from './support/emptyDatabase.js';

const MIGRATION = 24;
const NAME = '0024_receipts_by_actor.sql';
const AUTHORITY = 'urn:service:authority';

const RECEIPT = (table: string) => `insert into ${table} (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids, key_id, admission_record_id, trusted_accepted_at)
                 values ($1, $2, $3, $4, $5, $6, '{}', '{}', 'key', $7, 't')`;

/**
 * As 0023 left them: the Authority's session activation in `organization_receipts`, its Group
 * Command and an Agent's in `receipts`; with `clash`, also a Group Command of the Authority's
 * under the activation's Action ID.
 */
async function seed(db: Pool, clash: boolean): Promise<void> {
  await db.query(RECEIPT('organization_receipts'), ['service', AUTHORITY, 'act:open', 'h:open', 'ext.missionweaveprotocol.identity.session_open', null, 'ar:open']);
  await db.query(RECEIPT('receipts'), ['service', AUTHORITY, 'act:expire', 'h:expire', 'work.fail', 'g:a', 'ar:expire']);
  await db.query(RECEIPT('receipts'), ['agent', 'urn:agent:a', 'act:post', 'h:post', 'message.post', 'g:a', 'ar:post']);
  if (clash) await db.query(RECEIPT('receipts'), ['service', AUTHORITY, 'act:open', 'h:clash', 'mission.terminate', 'g:b', 'ar:clash']);
}

async function rows(db: Pool, table: string): Promise<string[]> {
  const result = await db.query<{ r: string }>(`select actor_type || ' ' || action_id || ' ' || coalesce(group_id, '-') || ' ' || admission_record_id as r from ${table} order by 1`);
  return result.rows.map((row) => row.r);
}

async function validated(db: Pool, constraint: string): Promise<boolean | undefined> {
  const result = await db.query<{ v: boolean }>('select convalidated as v from pg_constraint where conname = $1', [constraint]);
  return result.rows[0]?.v;
}

/** Runs 0024 on `db`, migrated up to 0023 (and distributed, on Citus) and seeded; checks what it leaves. */
async function migrateAndCheck(db: Pool, clash: boolean): Promise<void> {
  await seed(db, clash);
  expect(await migrate(db)).toEqual([NAME]);
  expect(await rows(db, 'organization_receipts')).toEqual(['service act:expire g:a ar:expire', 'service act:open - ar:open']);
  expect(await rows(db, 'receipts')).toEqual(['agent act:post g:a ar:post', ...(clash ? ['service act:open g:b ar:clash'] : [])]);
  expect(await validated(db, 'organization_receipts_services')).toBe(true);
  expect(await validated(db, 'receipts_not_services')).toBe(!clash);
  // From now on each table refuses the other's actors.
  await expect(db.query(RECEIPT('receipts'), ['service', AUTHORITY, 'act:new', 'h:new', 'work.fail', 'g:a', 'ar:new'])).rejects.toMatchObject({ code: '23514' });
  await expect(db.query(RECEIPT('organization_receipts'), ['agent', 'urn:agent:a', 'act:new', 'h:new', 'message.post', 'g:a', 'ar:new'])).rejects.toMatchObject({ code: '23514' });
  // And the one table's key refuses a Group Command's receipt under the activation's Action ID.
  await expect(db.query(RECEIPT('organization_receipts'), ['service', AUTHORITY, 'act:open', 'h:other', 'work.fail', 'g:a', 'ar:other'])).rejects.toMatchObject({ code: '23505' });
}

const earlier = readMigrations().filter((m) => m.version < MIGRATION);

describe('migration 0024 (each actor\'s receipts in one table) on plain PostgreSQL', () => {
  const clean = emptyDatabase();
  const clashing = emptyDatabase();

  it('moves a service\'s Group Commands\' receipts beside its Organization Commands\', keeps the others\', and validates both checks', async () => {
    await migrate(clean.pool(), earlier);
    await migrateAndCheck(clean.pool(), false);
  });

  it('leaves a receipt that cannot move where it was, and the check of receipts unvalidated', async () => {
    await migrate(clashing.pool(), earlier);
    await migrateAndCheck(clashing.pool(), true);
  });
});

describeOnCitus('migration 0024 on a cluster migrated before it', () => {
  const databases: CitusDatabase[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) databases.push(await createCitusDatabase({ poolSize: 2 }));
  });

  for (const clash of [false, true]) {
    it(`moves the receipts out of the distributed table, keeping every row${clash ? ', one that cannot move left where it was' : ''}`, async () => {
      const db = databases[clash ? 1 : 0] as CitusDatabase;
      await migrate(db.pool, earlier);
      const layout = await db.pool.query<{ method: string }>("select partmethod as method from pg_dist_partition where logicalrelid = 'receipts'::regclass");
      expect(layout.rows).toEqual([{ method: 'h' }]);
      // A cluster migrated by the code before 0024 had organization_receipts a plain table of the
      // coordinator; today's `migrate` makes it a Citus local table (citusLayout.ts) after 0023.
      if (!clash) await db.pool.query("select undistribute_table('organization_receipts')");
      await migrateAndCheck(db.pool, clash);
      const known = await db.pool.query<{ method: string }>("select partmethod as method from pg_dist_partition where logicalrelid = 'organization_receipts'::regclass");
      expect(known.rows).toEqual([{ method: 'n' }]);
    });
  }
});
