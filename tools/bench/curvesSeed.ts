/**
 * Setting up the worlds of the scaling curves quickly enough to reach their sizes on two cores:
 * many Groups through the real Command path, many at once; a long Group history written through
 * the store layer with real signatures, then verified as an operator's `replay --verify` would.
 */

import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { verifyGroupHistory } from '#src/app/verifyGroupHistory.js';
import type { JsonObject } from '#src/protocol/strictJson.js';
import { appendBatch, type AggregateWrite } from '#src/store/sql/appendBatch.js';
import { readGroupTrees } from '#src/store/sql/groupTrees.js';
import { type SeedJob, type SeedRows, type Template } from './curvesSeedRows.js';
import type { BenchAgent, BenchMission, BenchWorld } from './benchWorld.js';
import { CURVE_LIMITS } from './curvesPlan.js';

/**
 * Grows `groups` to `size` Missions through the in-process Authority's real Command path
 * (`mission.create`, and `membership.change` for the first `writers.length` Groups, which every
 * writer joins), `CURVE_LIMITS.setupWindow` at a time so the Authority commits them in batches.
 */
export async function createGroups(world: BenchWorld, writers: readonly BenchAgent[], groups: BenchMission[], size: number): Promise<void> {
  let next = groups.length;
  const worker = async (): Promise<void> => {
    while (next < size) {
      const j = next++;
      groups[j] = await world.mission(writers[j % writers.length] as BenchAgent, j < writers.length ? writers : []);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CURVE_LIMITS.setupWindow, size - next) }, worker));
}

/** The last Event of the Group (a real `message.posted`) and the aggregates it wrote. */
async function readTemplate(world: BenchWorld, groupId: string): Promise<Template> {
  const pool = world.running.pool;
  const last = (await pool.query<{ sequence: string; kind: string; aggregate_type: string; aggregate_id: string; aggregate_revision: string; document: string }>(
    'select sequence, kind, aggregate_type, aggregate_id, aggregate_revision, document from events where group_id = $1 order by sequence desc limit 1', [groupId])).rows[0];
  if (last?.kind !== 'message.posted') throw new Error(`seed: the template Event of ${groupId} is not a message.posted`);
  const event = JSON.parse(last.document) as Template['event'];
  delete event['signature'];
  const aggregate = async (type: string, id: string) => (await pool.query<{ document: JsonObject }>(
    'select document from aggregates where group_id = $1 and aggregate_type = $2 and aggregate_id = $3', [groupId, type, id])).rows[0]?.document;
  const message = await aggregate('message', String(event.payload.message['messageId']));
  const conversation = await aggregate(last.aggregate_type, last.aggregate_id);
  if (message === undefined || conversation === undefined) throw new Error(`seed: the template's aggregates of ${groupId} are missing`);
  return { sequence: Number(last.sequence), revision: Number(last.aggregate_revision), row: last, event, message: message as Template['message'], conversation };
}

/**
 * The compiled worker, in dist-tools/ (npm run build:tools) whether this module runs compiled
 * from there or, under the test runner, as TypeScript source from tools/: both lie two folders
 * below the repository.
 */
function workerScript(): URL {
  return new URL('../../dist-tools/bench/curvesSeedWorker.js', import.meta.url);
}

/**
 * Brings `mission`'s Group to `total` Events of `message.post` by its human owner. One Message
 * goes through the real Command path; the rest repeat it through the store layer's own batch
 * write (`appendBatch`): each a fresh Command signed by the owner and its Event signed by the
 * Authority's key — exactly the rows the Authority writes (Event, Message and Conversation
 * aggregates, receipt, counter), without the verification and decision a live Command costs.
 * The rows are built and signed on `CURVE_LIMITS.seedWorkers` worker threads, a batch each,
 * while this thread writes the batches in sequence order, one at a time (each moves the
 * Group's counter and Conversation aggregate). The Group must not be used by this in-process
 * Authority afterwards (its cached state would be stale); a `serve` node reads it from the
 * database.
 */
export async function seedHistory(world: BenchWorld, mission: BenchMission, total: number, content: string): Promise<void> {
  await world.fill(mission, 1, content);
  const template = await readTemplate(world, mission.groupId);
  const config = world.home.config();
  const pem = (key: KeyObject) => key.export({ format: 'pem', type: 'pkcs8' }).toString();
  const job: SeedJob = {
    template, groupId: mission.groupId, conversationId: mission.conversationId, content, actor: world.owner.principal,
    owner: { keyId: world.owner.key.keyId, pem: pem(world.owner.key.privateKey) },
    authority: { keyId: config.services.authority.keyId, pem: pem(world.home.privateKey(config.services.authority.privateKeyFile)) },
  };
  const ranges: { first: number; last: number }[] = [];
  for (let first = template.sequence + 1; first <= total; first += CURVE_LIMITS.seedBatch) ranges.push({ first, last: Math.min(total, first + CURVE_LIMITS.seedBatch - 1) });
  const workers = Array.from({ length: Math.min(CURVE_LIMITS.seedWorkers, ranges.length) }, () => new Worker(workerScript(), { workerData: job }));
  try {
    // Worker k signs ranges k, k + n, k + 2n, …; each answers in the order it was asked.
    const signed = new Map<number, Promise<SeedRows>>();
    const ask = (i: number) => {
      const worker = workers[i % workers.length] as Worker;
      const range = ranges[i] as { first: number; last: number };
      signed.set(i, new Promise<SeedRows>((resolve, reject) => {
        const onMessage = (rows: SeedRows) => {
          worker.off('error', reject);
          resolve(rows);
        };
        worker.once('message', onMessage);
        worker.once('error', reject);
        worker.postMessage(range);
      }));
    };
    // One range in hand per worker: it signs range i + n while this thread writes range i.
    for (let i = 0; i < Math.min(ranges.length, workers.length); i++) ask(i);
    const tree = (await readGroupTrees(world.running.pool, [mission.groupId])).get(mission.groupId)?.treeId ?? mission.groupId;
    for (let i = 0; i < ranges.length; i++) {
      const rows = await (signed.get(i) as Promise<SeedRows>);
      signed.delete(i);
      if (i + workers.length < ranges.length) ask(i + workers.length);
      const { last } = ranges[i] as { first: number; last: number };
      const revision = template.revision + (last - template.sequence);
      const aggregates: AggregateWrite[] = [...rows.aggregates, { groupId: mission.groupId, type: template.row.aggregate_type, id: template.row.aggregate_id, revision, document: { ...template.conversation, revision }, sequence: last }];
      await appendBatch(world.running.pool, { events: rows.events, aggregates, receipts: rows.receipts, sequences: new Map([[mission.groupId, last]]), notify: undefined, trees: new Map([[mission.groupId, tree]]) });
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * The operator's check of a Group's whole history (`replay --verify`): every Event passes the six
 * stages and was accepted by this Authority, sequences run without a gap, and folding the Events
 * reproduces the stored aggregates. Returns its problems (none for a sound seed).
 */
export async function verifySeeded(world: BenchWorld, groupId: string): Promise<string[]> {
  const { authority } = world.running;
  const report = await verifyGroupHistory(world.running.pool, groupId, { registry: authority.registry.current.registry, schemas: authority.schemas, authority: world.home.settings().services.authority, kinds: authority.kinds });
  return report.problems;
}
