/**
 * §15.1: the same (actor ID, Action ID) with other content MUST fail with `ACTION_ID_COLLISION`
 * (§19), whatever the scope of the two Commands. The Group Authority's service signs both
 * Organization Commands (session activations, the Command a HELLO submits) and Group Commands
 * (here `mission.terminate`): one Action ID used for one of each is refused the second time, in
 * either order, while the first's retry is still answered with its Events; submitted both at
 * once, exactly one is accepted and the other refused, and only the winner's Events and receipt
 * remain. The gated race makes the two transactions overlap for certain: a receipt of that Action
 * ID held uncommitted by the test makes both wait at their receipt's insert, after both read no
 * receipt; once it is rolled back one commits and the other, having lost the race, is re-run and
 * refused. Each actor's receipts lie in one table (migration 0024), a service's in
 * `organization_receipts`, which the test checks too. scripts/citus-suite.txt runs this file on
 * the Citus cluster as well, where that table is the coordinator's own.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Submission } from '../src/app/groupAuthority.js';
import { SESSION_OPEN } from '../src/domain/organization/organization.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Pool } from '../src/store/pool.js';
import type { Actor, Harness } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { world } from './support/world.js';

let h: Harness;
let pool: Pool;
let owner: Actor;
let coordinator: Actor;
let sessions: Actor;

beforeAll(async () => {
  let db;
  ({ db, h, owner, coordinator, sessions } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {}, sessions: {} } }));
  pool = db.pool;
});

/** The Authority's session activation for the `sessions` Agent, under `actionId`. */
const activation = (actionId: string): JsonObject => h.sign(h.authorityActor, SESSION_OPEN, { agentId: sessions.principal.id }, { actionId });
/** The Authority's `mission.terminate` of `m`, under `actionId`. */
const termination = (m: MissionRefs, actionId: string): JsonObject => h.sign(h.authorityActor, 'mission.terminate', { reason: 'Organization policy' }, { groupId: m.groupId, actionId });

const newMission = (): Promise<MissionRefs> => createMission(h, owner, coordinator);
const newActionId = (): string => `urn:uuid:${randomUUID()}`;

function refusal(outcome: Submission): string | undefined {
  return outcome.ok ? undefined : outcome.error.code;
}

async function terminated(m: MissionRefs): Promise<boolean> {
  return (await eventsOf(pool, m.groupId)).some((e) => e['kind'] === 'mission.terminated');
}

async function sessionEpoch(): Promise<number> {
  const result = await pool.query<{ e: number }>('select session_epoch::int as e from agent_sessions where agent_id = $1', [sessions.principal.id]);
  return result.rows[0]?.e ?? 0;
}

/** Where the Authority's receipts of `actionId` lie: `[organization_receipts, receipts]` counts. */
async function receiptsOf(actionId: string): Promise<[number, number]> {
  const where = 'actor_id = $1 and action_id = $2';
  const values = [h.authorityActor.principal.id, actionId];
  return [await count(pool, 'organization_receipts', where, values), await count(pool, 'receipts', where, values)];
}

describe('one Action ID for an Organization Command and a Group Command of one actor', () => {
  it('refuses a Group Command under a session activation\'s Action ID, and the activation\'s retry still answers its Event', async () => {
    const m = await newMission();
    const actionId = newActionId();
    const open = activation(actionId);
    const opened = await h.expectOk(h.authority.submit(open));
    expect(refusal(await h.authority.submit(termination(m, actionId)))).toBe('ACTION_ID_COLLISION');
    expect(await terminated(m)).toBe(false);
    const retried = await h.expectOk(h.authority.submit(open));
    expect(retried.duplicate).toBe(true);
    expect(retried.events.map((e) => e.eventId)).toEqual(opened.events.map((e) => e.eventId));
    expect(await receiptsOf(actionId)).toEqual([1, 0]);
  });

  it('refuses a session activation under a Group Command\'s Action ID, and the Group Command\'s retry still answers its Event', async () => {
    const m = await newMission();
    const actionId = newActionId();
    const terminate = termination(m, actionId);
    const done = await h.expectOk(h.authority.submit(terminate));
    const epoch = await sessionEpoch();
    expect(refusal(await h.authority.submit(activation(actionId)))).toBe('ACTION_ID_COLLISION');
    expect(await sessionEpoch()).toBe(epoch);
    const retried = await h.expectOk(h.authority.submit(terminate));
    expect(retried.duplicate).toBe(true);
    expect(retried.events.map((e) => e.eventId)).toEqual(done.events.map((e) => e.eventId));
    // The Group Command's receipt lies with the service's Organization Commands' (migration 0024).
    expect(await receiptsOf(actionId)).toEqual([1, 0]);
  });

  /** Submits both at once; checks that exactly one was accepted, whole, and the other refused. */
  async function race(m: MissionRefs, actionId: string, whileWaiting?: () => Promise<void>): Promise<'activation' | 'termination'> {
    const epoch = await sessionEpoch();
    const both = Promise.all([h.authority.submit(activation(actionId)), h.authority.submit(termination(m, actionId))]);
    await whileWaiting?.();
    const [opened, ended] = await both;
    expect([opened.ok, ended.ok].filter(Boolean)).toHaveLength(1);
    const loser = opened.ok ? ended : opened;
    expect(refusal(loser)).toBe('ACTION_ID_COLLISION');
    // Only the winner's Events remain.
    expect(await terminated(m)).toBe(ended.ok);
    expect(await sessionEpoch()).toBe(opened.ok ? epoch + 1 : epoch);
    expect(await receiptsOf(actionId)).toEqual([1, 0]);
    return opened.ok ? 'activation' : 'termination';
  }

  it('accepts exactly one of the two submitted at once, whole, and refuses the other', async () => {
    for (let round = 0; round < 6; round++) await race(await newMission(), newActionId());
  }, 120_000);

  it('accepts exactly one of two transactions that overlap for certain: both read no receipt and wait at their receipt\'s insert', async () => {
    for (let round = 0; round < 2; round++) {
      const m = await newMission();
      const actionId = newActionId();
      const gate = await pool.connect();
      try {
        await gate.query('begin');
        await gate.query(
          `insert into organization_receipts (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids, key_id, admission_record_id, trusted_accepted_at)
           values ('service', $1, $2, $3, 'gate', null, '{}', '{}', 'k', $3, 't')`,
          [h.authorityActor.principal.id, actionId, `urn:uuid:${randomUUID()}`],
        );
        const gateXid = (await gate.query<{ x: string }>('select backend_xid::text as x from pg_stat_activity where pid = pg_backend_pid()')).rows[0]?.x ?? '';
        await race(m, actionId, async () => {
          // Both transactions wait for the gate's uncommitted receipt: both planned to accept.
          await waitFor(async () => (await waitersOn(gateXid)) >= 2);
          await gate.query('rollback');
        });
      } finally {
        // Closed, not pooled: a failed wait leaves its transaction open, and closing ends it.
        gate.release(true);
      }
    }
  }, 150_000);
});

/** How many transactions wait for the transaction `xid` (to see whether its row is committed). */
async function waitersOn(xid: string): Promise<number> {
  const result = await pool.query<{ n: number }>(
    "select count(*)::int as n from pg_locks where locktype = 'transactionid' and not granted and transactionid::text = $1", [xid]);
  return result.rows[0]?.n ?? 0;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting for both transactions to reach the gate');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
