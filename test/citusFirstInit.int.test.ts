/**
 * The first `init` on a fresh Citus database: `migrate` distributes the tables and then, in the
 * same process and on the same pool, the Registry is written. A transaction that read several
 * shards and then writes a reference table with a foreign key needs
 * `citus.multi_shard_modify_mode = sequential`; `migrate`'s `ALTER DATABASE` reaches only
 * connections opened after it, so the pool sets it on every connection it opens
 * (src/store/pool.ts). Skipped, saying why, without a cluster.
 */

import { beforeAll, expect, it } from 'vitest';
import { onNode } from '../src/store/adminConnection.js';
import { migrate } from '../src/store/migrate.js';
import { createCitusDatabase, describeOnCitus, type CitusDatabase } from './support/citus.js';
import { Harness } from './support/harness.js';
import { childMission, createMission } from './support/missions.js';

let db: CitusDatabase;

describeOnCitus('the first init on a fresh Citus database', () => {
  beforeAll(async () => {
    db = await createCitusDatabase({ poolSize: 4 });
    // A fresh deployment's database: nothing set on it (the test harness sets the mode when it creates one).
    const name = new URL(db.url).pathname.slice(1);
    await onNode(db.url, [`alter database ${name} reset citus.multi_shard_modify_mode`]);
  });

  it('migrates, then writes the Registry and runs Commands in the same process, on connections opened before migrate', async () => {
    // Connections opened before migrate, as a starting node's pool holds them.
    const held = await Promise.all([1, 2, 3, 4].map(() => db.pool.connect()));
    for (const client of held) {
      const before = await client.query<{ mode: string }>("select current_setting('citus.multi_shard_modify_mode') as mode");
      expect(before.rows[0]?.mode).toBe('sequential');
      client.release();
    }
    expect((await migrate(db.pool)).length).toBeGreaterThan(0);
    const h = await Harness.start(db.pool);
    const owner = await h.human('dana');
    const coordinator = await h.agent('coordinator');
    const childCoordinator = await h.agent('child-coordinator');
    const root = await createMission(h, owner, coordinator);
    const child = await childMission(h, root, coordinator, childCoordinator);
    // A Registry change after the tree tables were read: a new Agent Card version of a known agent.
    await h.agent('late');
    const bindings = await db.pool.query<{ n: number }>('select count(*)::int as n from key_bindings');
    expect(bindings.rows[0]?.n).toBeGreaterThanOrEqual(4);
    const groups = await db.pool.query<{ tree_id: string }>('select tree_id from groups where group_id = $1', [child.groupId]);
    expect(groups.rows[0]?.tree_id).toBe(root.groupId);
  });
});
