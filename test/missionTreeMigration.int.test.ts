/**
 * Migration 0021 on a database that already holds Groups (an existing single-PostgreSQL
 * deployment moving forward): every Group-scoped row gets its Mission tree — the root Mission's
 * Group ID, following each Mission's stored parent — and nothing is lost or changed.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../src/store/migrate.js';
import type { Pool } from '../src/store/pool.js';
import { readAncestorGroups } from '../src/store/sql/ancestorGroups.js';
import { emptyDatabase } from './support/emptyDatabase.js';

const TREE_MIGRATION = 21;
const TABLES = ['groups', 'events', 'aggregates', 'agent_cursors', 'event_redactions', 'group_snapshots', 'context_packages', 'receipts'];
const empty = emptyDatabase();
let pool: Pool;

/** A Mission document as stored: child Missions name their parent (§14). */
const mission = (missionId: string, parent?: string) => JSON.stringify({ mission: { missionId, state: 'active', ...(parent === undefined ? {} : { parent: { missionId: parent, workItemId: 'urn:w' } }) } });

/** Root A (child B, grandchild C), and root D with no mission document at all. */
async function seed(db: Pool): Promise<void> {
  await db.query(`insert into groups (group_id, mission_id, last_sequence) values ('g:a', 'm:a', 2), ('g:b', 'm:b', 1), ('g:c', 'm:c', 1), ('g:d', 'm:d', 1)`);
  await db.query(`insert into aggregates (group_id, aggregate_type, aggregate_id, revision, document, updated_sequence)
                  values ('g:a', 'mission', 'm:a', 1, $1, 1), ('g:b', 'mission', 'm:b', 1, $2, 1), ('g:c', 'mission', 'm:c', 1, $3, 1), ('g:a', 'message', 'msg:1', 1, '{}', 2)`,
  [mission('m:a'), mission('m:b', 'm:a'), mission('m:c', 'm:b')]);
  for (const [group, sequence] of [['g:a', 1], ['g:a', 2], ['g:b', 1], ['g:c', 1], ['g:d', 1]] as const) {
    await db.query(`insert into events (group_id, sequence, event_id, kind, aggregate_type, aggregate_id, aggregate_revision, document, signing_hash, admission_record_id, trusted_accepted_at, key_id)
                    values ($1, $2, $3, 'k', 'mission', 'x', 1, '{"e":1}', $4, $5, 't', 'key')`, [group, sequence, `e:${group}:${sequence}`, `h:${group}:${sequence}`, `a:${group}:${sequence}`]);
  }
  await db.query(`insert into agent_cursors (group_id, agent_id, sequence, updated_at) values ('g:c', 'agent:1', 1, 't')`);
  await db.query(`insert into event_redactions (group_id, sequence, event_id, redacted_by, document) values ('g:a', 2, 'e:g:a:2', 'h', '{}')`);
  await db.query(`insert into group_snapshots (group_id, snapshot_hash, through_sequence, body) values ('g:b', 's:1', 1, '{}')`);
  await db.query(`insert into context_packages (context_package_id, group_id, recipient_type, recipient_id, scope_key, version, cause, cause_epoch, package_hash, document, created_at)
                  values ('cp:1', 'g:c', 'agent', 'agent:1', 'mission m:c', 1, 'membership', 1, 'p', '{}', 't')`);
  await db.query(`insert into receipts (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids, key_id, admission_record_id, trusted_accepted_at)
                  values ('agent', 'agent:1', 'act:1', 'hc:1', 'k', 'g:a', '{}', '{e:g:a:1}', 'key', 'ar:1', 't')`);
}

/** Every row of every table as text, without the new column, so before and after compare. */
async function contents(db: Pool): Promise<Record<string, string[]>> {
  const all: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = await db.query<{ row: Record<string, unknown> }>(`select to_jsonb(t) - 'tree_id' as row from ${table} t`);
    all[table] = rows.rows.map((r) => JSON.stringify(r.row)).sort();
  }
  return all;
}

beforeAll(() => {
  pool = empty.pool();
});

describe('migration 0021 (Mission trees) on a database with data', () => {
  it('backfills every row with its root Mission\'s Group and loses nothing', async () => {
    const all = readMigrations();
    await migrate(pool, all.filter((m) => m.version < TREE_MIGRATION));
    await seed(pool);
    const before = await contents(pool);
    expect(Object.values(before).every((rows) => rows.length > 0)).toBe(true);
    expect(await migrate(pool, all)).toContain('0021_mission_trees.sql');
    expect(await contents(pool)).toEqual(before);
    const directory = await pool.query('select group_id, mission_id, tree_id, parent_group_id from group_trees order by group_id');
    expect(directory.rows).toEqual([
      { group_id: 'g:a', mission_id: 'm:a', tree_id: 'g:a', parent_group_id: null },
      { group_id: 'g:b', mission_id: 'm:b', tree_id: 'g:a', parent_group_id: 'g:a' },
      { group_id: 'g:c', mission_id: 'm:c', tree_id: 'g:a', parent_group_id: 'g:b' },
      { group_id: 'g:d', mission_id: 'm:d', tree_id: 'g:d', parent_group_id: null },
    ]);
    for (const table of TABLES.filter((t) => t !== 'receipts')) {
      const wrong = await pool.query(`select t.group_id from ${table} t join group_trees d using (group_id) where t.tree_id is distinct from d.tree_id`);
      expect(wrong.rows, table).toEqual([]);
    }
    // The ancestry now reads the directory: the same chain the Missions' documents name.
    expect(await readAncestorGroups(pool, 'g:c', 5)).toEqual({ exists: true, ancestors: ['g:b', 'g:a'] });
    expect(await readAncestorGroups(pool, 'g:x', 5)).toEqual({ exists: false, ancestors: [] });
  });

  it('keeps a Mission ID unique across trees, and an Action ID unique per actor', async () => {
    await expect(pool.query(`insert into group_trees (group_id, mission_id, tree_id) values ('g:e', 'm:a', 'g:e')`)).rejects.toMatchObject({ code: '23505' });
    await expect(pool.query(`insert into receipts (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids, key_id, admission_record_id, trusted_accepted_at)
                             values ('agent', 'agent:1', 'act:1', 'hc:2', 'k', 'g:d', '{}', '{}', 'key', 'ar:2', 't')`)).rejects.toMatchObject({ code: '23505' });
  });
});
