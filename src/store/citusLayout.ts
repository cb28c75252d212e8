/**
 * How the tables lie on a Citus cluster (docs/operations.md, "Citus"). On a Citus coordinator
 * `migrate` distributes them once they exist; on plain PostgreSQL nothing of this runs.
 *
 * - Group-scoped tables are sharded by their Mission tree (`tree_id`, migration 0021) and
 *   co-located with `groups`, so a batch, a budget charge up the ancestry, a tree read and a
 *   child sweep each stay on one shard.
 * - Receipts are sharded by actor: an Action ID is unique per actor, forever (§15.1), across
 *   every tree; a batch writes them in its own transaction (two-phase commit when the actor's
 *   shard and the tree's lie on different workers). The services' receipts (Group Commands'
 *   too) lie in `organization_receipts` instead (migration 0024), so that each actor's lie in
 *   one table, whose key holds the rule across its Organization and Group Commands. Agent
 *   Session Epochs are sharded by Agent, co-located with the receipts: a batch locks its
 *   Agents' rows `for share`, and a row lock on a reference table would lock its one shard as a
 *   whole, so that batches of different trees and Agents waited for each other and deadlocked
 *   (migration 0022).
 * - Organization-wide tables are reference tables: a copy on every node, read locally.
 * - The Organization's log and state stay local tables of the coordinator, and the services'
 *   receipts a Citus local table there (migrations 0023, 0024; `COORDINATOR_CITUS_TABLES`):
 *   every Organization Command locks `organization_state` and a session activation appends to
 *   `organization_events` and `organization_receipts`; as reference tables (their receipts
 *   sharded by the Authority's service, the actor of every activation) a HELLO failed while any
 *   worker was down. Every node's Commands go through the coordinator anyway.
 * - `policy_log` (append-only by trigger, which Citus refuses on distributed and reference
 *   tables) and `schema_migrations` stay local tables of the coordinator too.
 */

import type { Queryable } from './pool.js';

/** Sharded by `tree_id`, co-located with the first. */
export const TREE_TABLES = ['groups', 'events', 'aggregates', 'agent_cursors', 'event_redactions', 'group_snapshots', 'context_packages'] as const;

/** Sharded by `actor_id`, alone. */
export const ACTOR_TABLES = ['receipts'] as const;

/** Sharded by `agent_id`, co-located with the receipts (an Agent's receipts and its Session Epoch on one shard). */
export const AGENT_TABLES = ['agent_sessions'] as const;

/** Copied to every node; a table referenced by a foreign key comes before the ones that reference it. */
export const REFERENCE_TABLES = [
  'group_trees', 'registry_publications', 'agent_cards',
  'key_bindings', 'key_validity_records', 'event_admission_keys', 'embedded_admissions', 'extension_profiles',
  'artifact_contents', 'artifact_chunks', 'artifact_possessions',
] as const;

/** Left on the coordinator. */
export const COORDINATOR_TABLES = ['organization_state', 'organization_events', 'policy_log', 'schema_migrations'] as const;

/**
 * Left on the coordinator, but known to Citus (a "Citus local table", its one shard there): a
 * transaction that writes one and a worker's shards commits them by two-phase commit, the
 * coordinator's commit deciding (Citus commits a worker it alone wrote before the coordinator's
 * own commit, and knows nothing of a plain table's writes). Every transaction that accepts a
 * service's Command writes its receipt here, so a session activation (its Agent's Session Epoch
 * on a worker) and a batch holding an Authority Group Command (its Events on a worker) commit
 * whole or not at all, also if the coordinator fails between the two commits.
 */
export const COORDINATOR_CITUS_TABLES = ['organization_receipts'] as const;

/** Whether this database is a Citus coordinator (the extension is installed and it holds the metadata). */
export async function isCitusCoordinator(db: Queryable): Promise<boolean> {
  const installed = await db.query<{ yes: boolean }>("select exists (select 1 from pg_extension where extname = 'citus') as yes");
  if (installed.rows[0]?.yes !== true) return false;
  const coordinator = await db.query<{ yes: boolean }>('select citus_is_coordinator() as yes');
  return coordinator.rows[0]?.yes === true;
}

/** The tables Citus already knows, by name. */
async function citusTables(db: Queryable): Promise<Set<string>> {
  const result = await db.query<{ name: string }>("select logicalrelid::regclass::text as name from pg_dist_partition");
  return new Set(result.rows.map((r) => r.name));
}

/**
 * Distributes every table of the layout that is not yet (a repeated run does nothing); returns
 * the tables distributed now. Existing rows move to the shards as each table is distributed.
 */
export async function distributeTables(db: Queryable): Promise<string[]> {
  const known = await citusTables(db);
  const all = [...REFERENCE_TABLES, ...TREE_TABLES, ...ACTOR_TABLES, ...AGENT_TABLES, ...COORDINATOR_CITUS_TABLES];
  if (all.every((table) => known.has(table))) return [];
  // A transaction that read several shards and then writes a reference table with a foreign key
  // (a Registry change) must use one connection per node; the store's multi-shard statements are
  // few and small. For the connections opened from now on.
  await db.query(`do $$ begin execute format('alter database %I set citus.multi_shard_modify_mode to sequential', current_database()); end $$`);
  const done: string[] = [];
  const run = async (table: string, sql: string, values: unknown[]) => {
    if (known.has(table)) return;
    // A table a later migration creates (a run of the earlier ones alone) waits for that run.
    const exists = await db.query<{ yes: boolean }>('select to_regclass($1) is not null as yes', [table]);
    if (exists.rows[0]?.yes !== true) return;
    await db.query(sql, values);
    done.push(table);
  };
  for (const table of REFERENCE_TABLES) await run(table, 'select create_reference_table($1)', [table]);
  const [first, ...rest] = TREE_TABLES;
  await run(first, "select create_distributed_table($1, 'tree_id', colocate_with => 'none')", [first]);
  for (const table of rest) await run(table, "select create_distributed_table($1, 'tree_id', colocate_with => $2)", [table, first]);
  for (const table of ACTOR_TABLES) await run(table, "select create_distributed_table($1, 'actor_id', colocate_with => 'none')", [table]);
  for (const table of AGENT_TABLES) await run(table, "select create_distributed_table($1, 'agent_id', colocate_with => $2)", [table, ACTOR_TABLES[0]]);
  for (const table of COORDINATOR_CITUS_TABLES) await run(table, 'select citus_add_local_table_to_metadata($1)', [table]);
  return done;
}
