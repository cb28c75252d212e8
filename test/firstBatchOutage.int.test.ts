/**
 * A node whose first Group batch meets the database away answers INTERNAL_ERROR for it, and
 * accepts Commands again once the database is back. Before, the question "is this a Citus
 * coordinator?" (`GroupTreeCache.onCitus`, asked once per node) kept its failed answer, so every
 * later Group Command on that node failed with INTERNAL_ERROR while HELLO and replays still worked:
 * the short fault run's "unresolved Commands" (a node restarted shortly before PostgreSQL was
 * killed, whose first Group Command came during the outage).
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onNode, withDatabase } from '../src/store/adminConnection.js';
import { createPool } from '../src/store/pool.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { TestDatabase } from './support/database.js';
import type { Actor, Harness } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { world } from './support/world.js';

let db: TestDatabase;
let h: Harness;
let worker: Actor;
let m: MissionRefs;

/** The peer node's connections, told apart from the harness's by their application name. */
const PEER = 'mw-first-batch-outage';

beforeAll(async () => {
  ({ db, h, worker, mission: m } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {}, worker: {} },
    mission: { owner: 'owner', coordinator: 'coordinator', members: { worker: ['worker'] } },
  }));
});

/** Lets the peer's database take connections again, whatever the test did. */
const admin = () => withDatabase(db.url, 'postgres');
const databaseName = () => decodeURIComponent(new URL(db.url).pathname.slice(1));

afterAll(async () => {
  await onNode(admin(), [`alter database "${databaseName()}" allow_connections true`]);
});

function post(): JsonObject {
  return h.sign(worker, 'message.post', { messageId: `urn:missionweave:message:${randomUUID()}`, conversationId: m.mainConversationId, content: 'status' }, { groupId: m.groupId, membershipEpoch: 1 });
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a node whose first Group batch meets the database away', () => {
  it('answers INTERNAL_ERROR during the outage and accepts the same Command once the database is back', async () => {
    const pool = createPool(db.url, { max: 2, applicationName: PEER });
    // A freshly started node: it has not run a Group batch yet.
    const peer = await h.peer(pool);
    try {
      // The database goes away for this node: its connections are cut and new ones refused.
      await onNode(admin(), [
        `alter database "${databaseName()}" allow_connections false`,
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = '${PEER}'`,
      ]);
      await until(() => pool.totalCount === 0, 'the peer pool emptied');
      const command = post();
      const during = await peer.submit(command);
      expect(during.ok ? 'accepted' : during.error.code).toBe('INTERNAL_ERROR');

      await onNode(admin(), [`alter database "${databaseName()}" allow_connections true`]);
      // The database is back: the retry of the same Command is applied, and a new one too.
      const retried = await peer.submit(command);
      expect(retried.ok ? 'accepted' : retried.error.code).toBe('accepted');
      const next = await peer.submit(post());
      expect(next.ok ? 'accepted' : next.error.code).toBe('accepted');
    } finally {
      await peer.close();
      await pool.end();
    }
  });
});
