/**
 * A Citus worker down stops only the Mission trees on it (docs/citus.md, "A worker fails"): with
 * one worker stopped as a crash (`scripts/citus.sh stop-worker`, pg_ctl -m immediate), Commands in
 * trees whose shards (and whose actors' receipts) lie on the other worker are acknowledged, also
 * when they are submitted together with, and so batched with, Commands of trees on the stopped
 * worker; those get INTERNAL_ERROR (§19: failed without accepting the transition, retry safe),
 * answered, not left hanging. A retry of a Command acknowledged before is answered with its
 * Events in a tree on the other worker. A new Mission is refused wherever its tree would lie (its
 * tree is written to a reference table, copied on every node). A session activation, the Command a
 * HELLO submits (`signSessionOpen`), succeeds for an Agent whose Session Epoch lies on the other
 * worker (the Organization's log, state and receipts are the coordinator's own tables, migration
 * 0023), a retry of it is answered with its Event, and the Agent works in its tree with the new
 * epoch while its old one is fenced; an activation for an Agent whose Session Epoch lies on the
 * stopped worker answers INTERNAL_ERROR. Once the worker is back every tree works again, every
 * refused Command succeeds when sent again unchanged, and every acknowledged Command's Events are
 * in the log with gapless sequences. The Authority's own Group Command (`mission.terminate`) is
 * acknowledged in a tree on the other worker and answered INTERNAL_ERROR in one on the stopped
 * worker, then accepted sent again: its receipts lie in the coordinator's organization_receipts
 * (migration 0024; before, on one worker's shard, down in one of the two runs). Both workers in turn.
 *
 * It stops workers of the whole cluster, which breaks whatever else runs on it at the time, so it
 * runs only when asked (MW_CITUS_FAULTS=1), like test/faultsCitus.e2e.test.ts: `.ci/run` runs it
 * alone after the store's files on the cluster. The workers are found by the MW_CITUS_DIR and
 * MW_CITUS_PORT that started the cluster (scripts/citus.sh).
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signSessionOpen, timestampOf } from '../src/app/issueDocuments.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { migrate } from '../src/store/migrate.js';
import { readPlacements, startWorker, stopWorker } from '../tools/faults/citusWorkers.js';
import { CITUS_SKIP_REASON, CITUS_URL, createCitusDatabase, type CitusDatabase } from './support/citus.js';
import { Harness, type Actor } from './support/harness.js';
import { createMission, missionPayload, type MissionRefs } from './support/missions.js';

const SKIP_REASON = CITUS_SKIP_REASON ?? (process.env['MW_CITUS_FAULTS'] === '1' ? undefined : 'MW_CITUS_FAULTS is not 1: it stops the workers of the cluster, which breaks the other tests on it; .ci/run runs it alone after the store\'s files on Citus');
if (SKIP_REASON !== undefined) process.stderr.write(`skipped on purpose: a Citus worker down; ${SKIP_REASON}\n`);
const describeWhenAsked = SKIP_REASON === undefined ? describe : describe.skip;

/** Trees (and their Coordinators' receipts) per worker. */
const TREES_PER_WORKER = 2;
/** Messages each tree's Coordinator posts at once in each round. */
const MESSAGES = 4;

interface Tree {
  readonly mission: MissionRefs;
  readonly coordinator: Actor;
  readonly port: number;
}

let db: CitusDatabase;
let h: Harness;
const trees: Tree[] = [];
let ports: number[] = [];
let stopped: number | undefined;
let owner: Actor;
const acknowledged = new Map<string, string[]>();
/** Per worker, one Mission for each run, for the Authority to terminate: its own Group Command. */
const spares = new Map<number, MissionRefs[]>();

async function shardPort(table: string, value: string): Promise<number> {
  const result = await db.pool.query<{ port: number }>(
    `select n.nodeport as port from pg_dist_placement p join pg_dist_node n on n.groupid = p.groupid
      where p.shardid = get_shard_id_for_distribution_column($1::regclass, $2::text)`, [table, value]);
  return Number(result.rows[0]?.port);
}

interface Answer {
  readonly tree: Tree;
  readonly document: JsonObject;
  readonly ok: boolean;
  readonly code?: string;
  readonly retryable?: boolean;
  readonly eventIds: readonly string[];
}

/** Submits every signed Command at once (so that the commit queue batches them across trees). */
async function submitAll(commands: readonly { tree: Tree; document: JsonObject }[]): Promise<Answer[]> {
  return Promise.all(commands.map(async ({ tree, document }) => {
    const outcome = await h.authority.submit(document);
    if (!outcome.ok) return { tree, document, ok: false, code: outcome.error.code, retryable: outcome.error.retryable, eventIds: [] };
    const eventIds = outcome.events.map((e) => (JSON.parse(e.text) as { eventId: string }).eventId);
    acknowledged.set(tree.mission.groupId, [...(acknowledged.get(tree.mission.groupId) ?? []), ...eventIds]);
    return { tree, document, ok: true, eventIds };
  }));
}

/** MESSAGES new messages in every tree, by its Coordinator. */
function messagesEverywhere(): { tree: Tree; document: JsonObject }[] {
  return trees.flatMap((tree) => Array.from({ length: MESSAGES }, () => {
    const messageId = `urn:uuid:${randomUUID()}`;
    return { tree, document: h.sign(tree.coordinator, 'message.post', { messageId, conversationId: tree.mission.mainConversationId, content: `worker down ${messageId}` }, { groupId: tree.mission.groupId, membershipEpoch: 1 }) };
  }));
}

/** The Command a HELLO submits to activate the Agent's next session. */
function openSession(agent: Actor): JsonObject {
  return signSessionOpen(h.authorityActor.principal, agent.principal.id, timestampOf(h.clock.millis), h.authorityActor.key);
}

function sessionEpochOf(text: string | undefined): number {
  return Number((JSON.parse(text ?? '{}') as { payload?: { sessionEpoch?: number } }).payload?.sessionEpoch);
}

describeWhenAsked(`a Citus worker down${SKIP_REASON === undefined ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    db = await createCitusDatabase({ poolSize: 12, shards: 4 });
    await migrate(db.pool);
    ports = (await db.pool.query<{ port: number }>("select nodeport as port from pg_dist_node where noderole = 'primary' and groupid > 0 order by nodeport")).rows.map((r) => Number(r.port));
    expect(ports).toHaveLength(2);
    h = await Harness.start(db.pool, { maxBatch: 64, writerConcurrency: 2 });
    owner = await h.human('owner');
    // Coordinators whose receipts (and Session Epochs) lie on each worker.
    const coordinators = new Map<number, Actor[]>(ports.map((p) => [p, []]));
    while ([...coordinators.values()].some((list) => list.length < TREES_PER_WORKER)) {
      const agent = await h.agent('coordinator');
      coordinators.get(await shardPort('receipts', agent.principal.id))?.push(agent);
    }
    // Trees on each worker, each coordinated by an Agent of the same worker.
    for (const port of ports) {
      for (const coordinator of (coordinators.get(port) ?? []).slice(0, TREES_PER_WORKER)) {
        let suffix = randomUUID();
        while ((await shardPort('groups', `urn:missionweave:group:${suffix}`)) !== port) suffix = randomUUID();
        const mission = await createMission(h, owner, coordinator, { missionId: `urn:missionweave:mission:${suffix}`, groupId: `urn:missionweave:group:${suffix}`, mainConversationId: `urn:missionweave:conversation:${suffix}` });
        trees.push({ mission, coordinator, port });
      }
    }
    for (const port of ports) {
      const list: MissionRefs[] = [];
      while (list.length < 2) {
        const suffix = randomUUID();
        if ((await shardPort('groups', `urn:missionweave:group:${suffix}`)) !== port) continue;
        list.push(await createMission(h, owner, trees[0]?.coordinator as Actor, { missionId: `urn:missionweave:mission:${suffix}`, groupId: `urn:missionweave:group:${suffix}`, mainConversationId: `urn:missionweave:conversation:${suffix}` }));
      }
      spares.set(port, list);
    }
    const placed = await readPlacements(db.url, []);
    for (const tree of trees) expect(placed.groups.get(tree.mission.groupId)).toBe(tree.port);
  }, 120_000);

  afterAll(async () => {
    if (stopped !== undefined) await startWorker(CITUS_URL, stopped);
    await h?.authority.close();
  });

  for (const index of [0, 1]) {
    it(`while worker ${index + 1} is down, the trees on the other worker are acknowledged (duplicates too), their Agents open sessions (HELLO) and work, and the trees and Agents on it answer INTERNAL_ERROR; all work once it is back`, async () => {
      const down = ports[index] as number;
      const before = await submitAll(messagesEverywhere());
      expect(before.filter((a) => !a.ok)).toEqual([]);
      await stopWorker(CITUS_URL, down);
      stopped = down;
      // What happens while it is down; it is started again whatever fails.
      const outage = async () => {
        // New Commands in every tree, and a retry of one acknowledged before in each, all at once.
        const retries = trees.map((tree) => before.find((a) => a.tree === tree) as Answer);
        // A new Mission, even one whose tree would lie on the other worker: its tree is written to a
        // reference table (group_trees), which has a copy on every node.
        const survivor = trees.find((t) => t.port !== down) as Tree;
        const payload = missionPayload(h, survivor.coordinator);
        const creation = h.sign(owner, 'mission.create', payload, { groupId: String(payload['groupId']) });
        const [during, created] = await Promise.all([submitAll([...messagesEverywhere(), ...retries]), h.authority.submit(creation)]);
        // Session activations, as a HELLO submits them, once those Commands are answered (a new
        // epoch fences the Commands signed with the old one): for an Agent of a tree on the other
        // worker, whose Session Epoch lies there too, and for one of the stopped worker.
        const activation = openSession(survivor.coordinator);
        const activated = await h.authority.submit(activation);
        const fenced = survivor.coordinator.sessionEpoch as number;
        expect(activated.ok ? sessionEpochOf(activated.events[0]?.text) : [activated.error.code, activated.error.message]).toBe(fenced + 1);
        const again = await h.authority.submit(activation);
        expect(again.ok && again.duplicate ? again.events.map((e) => e.text) : again).toEqual(activated.ok ? activated.events.map((e) => e.text) : []);
        survivor.coordinator.sessionEpoch = fenced + 1;
        const [working] = await submitAll(messagesEverywhere().filter((c) => c.tree === survivor).slice(0, 1));
        expect(working?.ok ? 'acknowledged' : working?.code).toBe('acknowledged');
        const old = await h.authority.submit(h.sign(survivor.coordinator, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: survivor.mission.mainConversationId, content: 'old epoch' }, { groupId: survivor.mission.groupId, membershipEpoch: 1, sessionEpoch: fenced }));
        expect(old.ok ? 'acknowledged' : old.error.code).toBe('AUTH_STALE_SESSION');
        const cutOff = trees.find((t) => t.port === down) as Tree;
        const unreachable = openSession(cutOff.coordinator);
        const refusedActivation = await h.authority.submit(unreachable);
        expect(refusedActivation.ok ? 'activated' : [refusedActivation.error.code, refusedActivation.error.retryable]).toEqual(['INTERNAL_ERROR', true]);
        // The Authority's own Group Commands: its receipts lie on the coordinator (migration
        // 0024), so only the tree's worker matters.
        const terminate = (port: number) => h.sign(h.authorityActor, 'mission.terminate', { reason: 'worker down' }, { groupId: (spares.get(port) ?? [])[index]?.groupId as string });
        const survivorPort = ports.find((p) => p !== down) as number;
        const ended = await h.authority.submit(terminate(survivorPort));
        expect(ended.ok ? 'acknowledged' : ended.error.code).toBe('acknowledged');
        const stranded = terminate(down);
        const notEnded = await h.authority.submit(stranded);
        expect(notEnded.ok ? 'acknowledged' : [notEnded.error.code, notEnded.error.retryable]).toEqual(['INTERNAL_ERROR', true]);
        return { retries, creation, during, created, cutOff, unreachable, stranded };
      };
      let seen: Awaited<ReturnType<typeof outage>>;
      try {
        seen = await outage();
      } finally {
        await startWorker(CITUS_URL, down);
        stopped = undefined;
      }
      const { retries, creation, during, created, cutOff, unreachable, stranded } = seen;
      const elsewhere = during.filter((a) => a.tree.port !== down);
      const onIt = during.filter((a) => a.tree.port === down);
      expect(elsewhere.length).toBeGreaterThan(0);
      expect(onIt.length).toBeGreaterThan(0);
      expect(elsewhere.filter((a) => !a.ok).map((a) => a.code)).toEqual([]);
      expect(onIt.map((a) => [a.code, a.retryable])).toEqual(onIt.map(() => ['INTERNAL_ERROR', true]));
      expect(created.ok ? 'created' : [created.error.code, created.error.retryable]).toEqual(['INTERNAL_ERROR', true]);
      // The duplicates answered with their original Events.
      for (const retry of retries.filter((r) => r.tree.port !== down)) {
        expect(during.find((a) => a.document === retry.document)?.eventIds).toEqual(retry.eventIds);
      }
      // Back: new Commands everywhere, and the refused ones again, unchanged (§19: retry is safe).
      const after = await submitAll([...messagesEverywhere(), ...onIt.map(({ tree, document }) => ({ tree, document }))]);
      expect(after.filter((a) => !a.ok).map((a) => a.code)).toEqual([]);
      expect((await h.authority.submit(creation)).ok).toBe(true);
      const reached = await h.authority.submit(unreachable);
      if (!reached.ok) throw new Error(`activation sent again: ${reached.error.code}`);
      cutOff.coordinator.sessionEpoch = sessionEpochOf(reached.events[0]?.text);
      const ended = await h.authority.submit(stranded);
      expect(ended.ok ? 'acknowledged' : ended.error.code).toBe('acknowledged');
      // Nothing acknowledged is missing; every tree's sequences are gapless.
      for (const tree of trees) {
        const rows = await db.pool.query<{ event_id: string; sequence: number }>('select event_id, sequence::int as sequence from events where tree_id = $1 and group_id = $1 order by sequence', [tree.mission.groupId]);
        expect(rows.rows.map((r) => r.sequence)).toEqual(rows.rows.map((_, i) => i + 1));
        const stored = new Set(rows.rows.map((r) => r.event_id));
        expect((acknowledged.get(tree.mission.groupId) ?? []).filter((id) => !stored.has(id))).toEqual([]);
      }
    }, 120_000);
  }
});
