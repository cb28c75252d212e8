/**
 * Every table the migrations create has its place on a Citus cluster (src/store/citusLayout.ts):
 * a table added without one would stay a local table of the coordinator, unreachable from the
 * shards' joins. Runs on plain PostgreSQL, where the layout is never applied.
 */

import { describe, expect, it } from 'vitest';
import { ACTOR_TABLES, AGENT_TABLES, COORDINATOR_CITUS_TABLES, COORDINATOR_TABLES, REFERENCE_TABLES, TREE_TABLES, isCitusCoordinator } from '../src/store/citusLayout.js';
import { createTestDatabase } from './support/database.js';

describe('the Citus layout', () => {
  it('names every table of the schema exactly once, and is not applied on plain PostgreSQL', async () => {
    const db = await createTestDatabase({ poolSize: 1 });
    const tables = await db.pool.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public' order by 1");
    const layout = [...TREE_TABLES, ...ACTOR_TABLES, ...AGENT_TABLES, ...REFERENCE_TABLES, ...COORDINATOR_TABLES, ...COORDINATOR_CITUS_TABLES];
    expect(new Set(layout).size).toBe(layout.length);
    expect([...layout].sort()).toEqual(tables.rows.map((r) => r.name));
    expect(await isCitusCoordinator(db.pool)).toBe(false);
  });
});
