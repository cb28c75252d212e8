/**
 * The Authority reactor on the real pipeline and PostgreSQL (§11.3): two Group Authority nodes
 * sweeping the same expired Execution Lease at once, and twice over, append exactly one
 * `ext.missionweave.core.work_lease_closed`; a replacement Session returns its Agent's active
 * WorkItem to `queued` on the session hint, without waiting for the timer.
 *
 * The work.* kinds that make a WorkItem `active` are not on this branch yet: the test seeds the
 * WorkItem row as they leave it (owner, selection basis, leases) and sweeps from fresh nodes, which
 * load the Group from its rows.
 */

import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupAuthority } from '../src/app/groupAuthority.js';
import { timestampOf } from '../src/app/issueDocuments.js';
import { AuthorityReactor } from '../src/app/reactor/authorityReactor.js';
import { LEASE_SWEEPS } from '../src/app/reactor/leaseSweeps.js';
import type { AuthorityCommandDraft, Sweep } from '../src/app/reactor/sweep.js';
import type { Lease, WorkItem } from '../src/domain/documents.js';
import { SESSION_OPEN } from '../src/domain/organization/organization.js';
import { leasesOf, withLeases } from '../src/domain/workItem/workLeases.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { createTestDatabase } from './support/database.js';
import { Harness, type Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';

const CLOSED = 'ext.missionweave.core.work_lease_closed';
/** Long enough that only a hint, never the timer, starts a round during a test. */
const NEVER = 3_600_000;

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;
const nodes: GroupAuthority[] = [];
const reactors: AuthorityReactor[] = [];
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  const db = await createTestDatabase();
  h = await Harness.start(db.pool);
  owner = await h.human('dana');
  coordinator = await h.agent('coordinator');
  worker = await h.agent('worker');
});

afterAll(async () => {
  for (const reactor of reactors) await reactor.close();
  for (const node of nodes) await node.close();
});

/** A fresh node and its reactor (the node's Group cache is empty: it reads the seeded rows). */
async function node(sweeps?: readonly Sweep[]): Promise<{ authority: GroupAuthority; reactor: AuthorityReactor }> {
  const authority = await h.peer(h.pool);
  const reactor = AuthorityReactor.start({ authority, pool: h.pool, logger: silent, periodMs: NEVER, ...(sweeps === undefined ? {} : { sweeps }) });
  nodes.push(authority);
  reactors.push(reactor);
  return { authority, reactor };
}

function lease(m: MissionRefs, workItemId: string, leaseType: Lease['leaseType'], expiresInSeconds: number): Lease {
  const issued = timestampOf(h.clock.millis - 60_000);
  return {
    leaseId: `urn:uuid:${randomUUID()}`,
    leaseType,
    missionId: m.missionId,
    groupId: m.groupId,
    workItemId,
    holderAgentId: worker.principal.id,
    sessionEpoch: worker.sessionEpoch ?? 1,
    ownershipEpoch: 1,
    issuedAt: issued,
    startsAt: issued,
    expiresAt: timestampOf(h.clock.millis + expiresInSeconds * 1000),
    state: 'active',
    renewalCount: 0,
  };
}

/** A Mission with one WorkItem, seeded `active` under worker's ownership and Execution Lease. */
async function activeWorkItem(executionExpiresIn: number): Promise<{ m: MissionRefs; workItemId: string; execution: Lease }> {
  const m = await createMission(h, owner, coordinator);
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], deadline: timestampOf(h.clock.millis + 86_400_000), budget: { currency: 'EUR', financialLimit: 80 } };
  await h.expectOk(h.send(coordinator, 'work.authorize', { workItemId, contract }, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
  const ownership = lease(m, workItemId, 'ownership', 600);
  const execution = lease(m, workItemId, 'execution', executionExpiresIn);
  const pin = { id: 'code.review', version: '1.0.0' };
  const open = await workItemRow(m, workItemId);
  const active = withLeases(
    {
      ...open,
      state: 'active',
      owner: { agentId: worker.principal.id, agentCardVersion: 1, capabilityPins: [pin], ownershipEpoch: 1, ownershipLeaseId: ownership.leaseId, acceptedAt: ownership.issuedAt },
      selectionBasis: { requiredCapabilities: [pin], verifiedMatches: [pin], authorizationEligible: true, availabilityEstimate: ownership.issuedAt, expectedCost: 1, reliabilityEvidence: [], policyRulesApplied: [] },
    },
    { ownership, execution },
  );
  await h.pool.query(`update aggregates set document = $3 where group_id = $1 and aggregate_type = 'work-item' and aggregate_id = $2`, [m.groupId, workItemId, JSON.stringify(active)]);
  return { m, workItemId, execution };
}

/**
 * The lease sweeps, each holding what it found until every node's same sweep has found its
 * Commands too: the nodes then submit the same closure at the same moment.
 */
function racingSweeps(nodes: number): Sweep[] {
  return LEASE_SWEEPS.map((sweep) => {
    let arrived = 0;
    let release: () => void = () => undefined;
    const everyone = new Promise<void>((resolve) => (release = resolve));
    return {
      name: sweep.name,
      async find(pool, nowMillis, limit): Promise<readonly AuthorityCommandDraft[]> {
        const found = await sweep.find(pool, nowMillis, limit);
        if (found.length === 0) return found;
        if (++arrived === nodes) release();
        await everyone;
        return found;
      },
    };
  });
}

async function workItemRow(m: MissionRefs, workItemId: string): Promise<WorkItem> {
  const result = await h.pool.query<{ document: WorkItem }>(`select document from aggregates where group_id = $1 and aggregate_type = 'work-item' and aggregate_id = $2`, [m.groupId, workItemId]);
  return result.rows[0]!.document;
}

async function closures(m: MissionRefs): Promise<JsonObject[]> {
  return (await eventsOf(h.pool, m.groupId)).filter((e) => e['kind'] === CLOSED);
}

describe('the Authority reactor', () => {
  it('closes an expired Execution Lease once, though two nodes sweep it at the same moment and again', async () => {
    const racing = racingSweeps(2);
    const [a, b] = [await node(racing), await node(racing)];
    await Promise.all([a.reactor.sweepNow(), b.reactor.sweepNow()]); // their first rounds, before the lease exists
    const { m, workItemId, execution } = await activeWorkItem(-1);
    const rounds = await Promise.all([a.reactor.sweepNow(), b.reactor.sweepNow(), a.reactor.sweepNow(), b.reactor.sweepNow()]);
    expect(rounds[0]!.issued + rounds[1]!.issued, 'both nodes issued the closure').toBe(2);
    // One applied it; the other's same Action ID met the first one's receipt (ACTION_ID_COLLISION).
    expect([rounds[0]!.accepted + rounds[1]!.accepted, rounds[0]!.duplicate + rounds[1]!.duplicate]).toEqual([1, 1]);

    const events = await closures(m);
    expect(events).toHaveLength(1);
    expect(await count(h.pool, 'receipts', 'kind = $1 and group_id = $2', ['ext.missionweave.core.work_lease_close', m.groupId])).toBe(1);
    expect(events[0]).toMatchObject({
      actor: h.settings.services.authority,
      workItemId,
      payload: { cause: 'expired', ownershipEpoch: 1, closedLease: { leaseId: execution.leaseId, state: 'expired', closureReason: 'expired' } },
    });
    const after = await workItemRow(m, workItemId);
    expect(after.state).toBe('queued');
    expect(leasesOf(after).execution).toBeUndefined();
    expect(leasesOf(after).ownership?.state).toBe('active');
    // The fact is gone from the store: a later round on either node finds nothing to issue.
    expect((await a.reactor.sweepNow()).issued).toBe(0);
    expect((await b.reactor.sweepNow()).issued).toBe(0);
  });

  it('leaves a live lease alone', async () => {
    const { m, workItemId } = await activeWorkItem(300);
    const { reactor } = await node();
    await reactor.sweepNow();
    expect(await closures(m)).toHaveLength(0);
    expect((await workItemRow(m, workItemId)).state).toBe('active');
  });

  it('returns the active WorkItem of an Agent that opens a replacement Session to queued, on the session hint', async () => {
    const { m, workItemId, execution } = await activeWorkItem(300);
    const { authority, reactor } = await node();
    await reactor.sweepNow();
    expect((await workItemRow(m, workItemId)).state).toBe('active');

    const opened = await authority.submit(h.sign(h.authorityActor, SESSION_OPEN, { agentId: worker.principal.id }));
    expect(opened.ok).toBe(true);
    const started = Date.now();
    while ((await workItemRow(m, workItemId)).state !== 'queued' && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 20));

    const after = await workItemRow(m, workItemId);
    expect(after.state).toBe('queued');
    expect(Date.now() - started, 'well before the lease expires or the timer fires').toBeLessThan(5_000);
    expect(leasesOf(after).ownership?.state, 'the Agent keeps its ownership to start again').toBe('active');
    const events = await closures(m);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ payload: { cause: 'session_replaced', closedLease: { leaseId: execution.leaseId, state: 'revoked', closureReason: 'session_replaced' } } });
  });
});
