/**
 * §15.1 on Citus across a two-phase commit: a duplicate of an applied Command is answered with its
 * receipt, never decided anew. A batch's Events lie on its tree's worker and an Agent's receipts on
 * the worker of that Agent's shard; a two-phase commit makes them visible one worker at a time.
 * A duplicate that waited for the tree's row locks could read the Group after the first Command
 * and no receipt yet, and be refused (a WorkItem authorized twice). Every Group batch on Citus
 * therefore fences its trees on the coordinator first (src/store/sql/batchReads.ts), and the
 * coordinator lets those locks go only once every worker has committed.
 *
 * The test makes that window for certain, with the cluster's own parts: the first Command is
 * applied, then its receipt is taken back and written again in a transaction PREPAREd on its
 * worker (invisible, as during the two-phase commit), while the test holds the tree's fence as the
 * first batch would. The duplicate, sent by a second Authority on the same database (another node,
 * with nothing in memory), waits; the receipt is committed, then the fence released, in the order
 * Citus commits; the duplicate is answered with the first Command's Events. Without the fence the
 * duplicate ran at once, read no receipt, and was refused.
 *
 * Skipped, saying why, without a cluster (MW_CITUS_URL).
 */

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import type { GroupAuthority, Submission } from '../src/app/groupAuthority.js';
import { migrate } from '../src/store/migrate.js';
import { TREE_FENCE_LOCK_CLASS } from '../src/store/sql/batchReads.js';
import { createCitusDatabase, describeOnCitus, type CitusDatabase } from './support/citus.js';
import { Harness, type Actor } from './support/harness.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';

let db: CitusDatabase;
let h: Harness;
let peer: GroupAuthority;
let coordinator: Actor;
let m: MissionRefs;

/** The worker holding `actorId`'s receipts, and the name of that shard's table there. */
async function receiptShard(actorId: string): Promise<{ worker: string; table: string }> {
  const { rows } = await db.pool.query<{ shardid: string; nodeport: number }>(
    `select shardid::text, nodeport from citus_shards
     where table_name = 'receipts'::regclass and shardid = get_shard_id_for_distribution_column('receipts', $1::text)`, [actorId]);
  const shard = rows[0];
  if (shard === undefined) throw new Error(`no receipts shard for ${actorId}`);
  const worker = db.workers.find((url) => Number(new URL(url).port) === Number(shard.nodeport));
  if (worker === undefined) throw new Error(`no worker on port ${shard.nodeport}`);
  return { worker, table: `receipts_${shard.shardid}` };
}

/** What `pending` answered within `ms`, or 'still waiting'. */
async function answerWithin(pending: Promise<Submission>, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  const answered = pending.then((s) => (s.ok ? `accepted${s.duplicate ? ' as a duplicate' : ''}` : `refused ${s.error.code}: ${s.error.message}`));
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

describeOnCitus('a duplicate across a two-phase commit on Citus', () => {
  beforeAll(async () => {
    db = await createCitusDatabase();
    await migrate(db.pool);
    h = await Harness.start(db.pool);
    peer = await h.peer(db.pool);
    const owner = await h.human('dana');
    coordinator = await h.agent('coordinator');
    m = await createMission(h, owner, coordinator);
  });

  it('waits for the tree\'s fence, then answers the receipt that became visible last: the first Command\'s Events, not a refusal', async () => {
    const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
    const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(h.clock.millis + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
    const command = h.sign(coordinator, 'work.authorize', { workItemId, contract }, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });
    const first = await h.expectOk(h.authority.submit(command));

    // The receipt, taken back and written again in a transaction prepared on its worker.
    const { worker, table } = await receiptShard(coordinator.principal.id);
    const onWorker = new pg.Client({ connectionString: worker });
    const fence = new pg.Client({ connectionString: db.url });
    await onWorker.connect();
    await fence.connect();
    const gid = `mw-fence-test-${randomUUID()}`;
    let prepared = false;
    try {
      await onWorker.query('set citus.enable_manual_changes_to_shards = on');
      const key = [coordinator.principal.id, command['actionId']];
      const taken = await onWorker.query(`delete from ${table} where actor_id = $1 and action_id = $2 returning row_to_json(${table}.*) as row`, key);
      expect(taken.rows).toHaveLength(1);
      await onWorker.query('begin');
      await onWorker.query(`insert into ${table} select * from json_populate_record(null::${table}, $1::json)`, [JSON.stringify(taken.rows[0].row)]);
      await onWorker.query(`prepare transaction '${gid}'`);
      prepared = true;
      const seen = await db.pool.query('select 1 from receipts where actor_id = $1 and action_id = $2', key);
      expect(seen.rows).toHaveLength(0);

      // The tree's fence, held as the first batch holds it until every worker has committed.
      await fence.query('begin');
      await fence.query('select pg_advisory_xact_lock($1, hashtext($2))', [TREE_FENCE_LOCK_CLASS, m.groupId]);
      const duplicate: Promise<Submission> = peer.submit(command);
      expect(await answerWithin(duplicate, 1_500)).toBe('still waiting');

      // Citus's order: the workers' COMMIT PREPARED, then the coordinator's locks go.
      await onWorker.query(`commit prepared '${gid}'`);
      prepared = false;
      await fence.query('commit');
      const answer = await h.expectOk(duplicate);
      expect(answer.duplicate).toBe(true);
      expect(answer.events.map((e) => e.eventId)).toEqual(first.events.map((e) => e.eventId));
      const authorized = await db.pool.query("select count(*)::int as n from events where tree_id = $1 and kind = 'work.authorized' and document like $2", [m.groupId, `%${workItemId}%`]);
      expect(authorized.rows[0]?.n).toBe(1);
    } finally {
      if (prepared) await onWorker.query(`rollback prepared '${gid}'`).catch(() => undefined);
      await fence.query('rollback').catch(() => undefined);
      await onWorker.end();
      await fence.end();
    }
  }, 60_000);
});
