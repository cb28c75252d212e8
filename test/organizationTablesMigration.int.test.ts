/**
 * Migration 0023 keeps the Organization's receipts apart from the Groups' and, on a Citus
 * coordinator migrated before it, turns the Organization's log and state from reference tables
 * back into the coordinator's own (docs/citus.md, "A worker fails"): the receipts of
 * Organization-scoped Commands (no Group) move to `organization_receipts`, the Group Commands'
 * stay, and every row is kept (migration 0024 then moves the services' Group Commands' receipts
 * too: test/receiptsByActorMigration.int.test.ts). On plain PostgreSQL (a database of its own, migrated up to 0022
 * and given rows) and, with MW_CITUS_URL, on a cluster database laid out as before.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../src/store/migrate.js';
import type { Pool } from '../src/store/pool.js';
import { createCitusDatabase, describeOnCitus } from './support/citus.js';
import { emptyDatabase } from './support/emptyDatabase.js';

const MIGRATION = 23;
const empty = emptyDatabase();
let pool: Pool;

const RECEIPT = (table: string) => `insert into ${table} (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids, key_id, admission_record_id, trusted_accepted_at)
                 values ($1, $2, $3, $4, $5, $6, '{}', $7, 'key', $8, 't')`;

/** A session activation's receipt and Event, the Organization row, and a Group Command's receipt by the same service. */
async function seed(db: Pool): Promise<void> {
  await db.query(RECEIPT('receipts'), ['service', 'urn:service:authority', 'act:open', 'h:open', 'ext.missionweaveprotocol.identity.session_open', null, ['e:opened'], 'ar:open']);
  await db.query(RECEIPT('receipts'), ['service', 'urn:service:authority', 'act:expire', 'h:expire', 'work.fail', 'g:a', ['e:g:a:1'], 'ar:expire']);
  await db.query(RECEIPT('receipts'), ['agent', 'urn:agent:a', 'act:post', 'h:post', 'message.post', 'g:a', ['e:g:a:2'], 'ar:post']);
  await db.query(`insert into organization_events (position, event_id, kind, document, signing_hash, admission_record_id, trusted_accepted_at)
                  values (1, 'e:opened', 'ext.missionweaveprotocol.identity.session_opened', '{}', 'h:opened', 'ar:opened', 't')`);
  await db.query("insert into organization_state (organization_id, registry_revision, last_position) values ('urn:org', 4, 1)");
}

/** What 0023 must leave: the Organization's receipt moved, the Group Commands' kept, the Organization's rows kept. */
async function expectMoved(db: Pool): Promise<void> {
  const receipts = await db.query<{ action_id: string }>('select action_id from receipts order by action_id');
  expect(receipts.rows.map((r) => r.action_id)).toEqual(['act:expire', 'act:post']);
  const moved = await db.query('select actor_type, actor_id, action_id, kind, group_id, event_ids, admission_record_id from organization_receipts');
  expect(moved.rows).toEqual([{ actor_type: 'service', actor_id: 'urn:service:authority', action_id: 'act:open', kind: 'ext.missionweaveprotocol.identity.session_open', group_id: null, event_ids: ['e:opened'], admission_record_id: 'ar:open' }]);
  expect((await db.query('select event_id from organization_events')).rows).toEqual([{ event_id: 'e:opened' }]);
  expect((await db.query('select organization_id, registry_revision::int as r, last_position::int as p from organization_state')).rows).toEqual([{ organization_id: 'urn:org', r: 4, p: 1 }]);
  // A Group's receipt is refused there.
  await expect(db.query(RECEIPT('organization_receipts'), ['agent', 'urn:agent:a', 'act:other', 'h:other', 'message.post', 'g:a', ['e:g:a:3'], 'ar:other']))
    .rejects.toThrow(/organization_receipts_no_group/);
}

beforeAll(() => {
  pool = empty.pool();
});

describe('migration 0023 (the Organization\'s tables) on plain PostgreSQL', () => {
  it('moves the Organization Commands\' receipts to organization_receipts and keeps every other row', async () => {
    await migrate(pool, readMigrations().filter((m) => m.version < MIGRATION));
    await seed(pool);
    expect(await migrate(pool, readMigrations().filter((m) => m.version <= MIGRATION))).toEqual(['0023_organization_on_coordinator.sql']);
    await expectMoved(pool);
  });
});

describeOnCitus('migration 0023 on a cluster migrated before it', () => {
  it('turns the reference tables organization_state and organization_events into the coordinator\'s, keeping their rows, and moves the receipts', async () => {
    const earlier = await createCitusDatabase({ poolSize: 2 });
    await migrate(earlier.pool, readMigrations().filter((m) => m.version < MIGRATION));
    // The layout 0021 left: the Organization's log and state reference tables.
    for (const table of ['organization_state', 'organization_events']) await earlier.pool.query('select create_reference_table($1)', [table]);
    await seed(earlier.pool);
    expect(await migrate(earlier.pool, readMigrations().filter((m) => m.version <= MIGRATION))).toEqual(['0023_organization_on_coordinator.sql']);
    const layout = await earlier.pool.query<{ name: string }>(
      "select logicalrelid::regclass::text as name from pg_dist_partition where logicalrelid::regclass::text like 'organization_%'");
    // organization_receipts is known to Citus as a local table of the coordinator (citusLayout.ts).
    expect(layout.rows).toEqual([{ name: 'organization_receipts' }]);
    await expectMoved(earlier.pool);
  });
});
