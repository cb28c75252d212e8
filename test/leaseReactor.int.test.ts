/**
 * The Authority reactor on the real pipeline and PostgreSQL (§11.3), with WorkItems made `queued`
 * and `active` by the real `work.offer`, `work.accept_offer` and `work.start`:
 * - two Group Authority nodes sweeping the same expired Execution Lease at the same moment, and
 *   again, append exactly one `ext.missionweave.core.work_lease_closed`;
 * - an expired ownership lease fences the owner and the Coordinator can re-offer;
 * - a replacement Session returns its Agent's active WorkItem to `queued` on the session hint
 *   (the timer never fires in these tests), and the Agent's new Session starts it again.
 */

import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupAuthority, Submission } from '../src/app/groupAuthority.js';
import { AuthorityReactor } from '../src/app/reactor/authorityReactor.js';
import { LEASE_SWEEPS } from '../src/app/reactor/leaseSweeps.js';
import type { AuthorityCommandDraft, Sweep } from '../src/app/reactor/sweep.js';
import type { WorkItem } from '../src/domain/documents.js';
import { SESSION_OPEN } from '../src/domain/organization/organization.js';
import { WORK_LEASE_CLOSE } from '../src/domain/workItem/workLeaseClose.js';
import { leasesOf } from '../src/domain/workItem/workLeases.js';
import { workRecordOf, type WorkRecord } from '../src/domain/workItem/workRecord.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { world } from './support/world.js';

const CLOSED = 'ext.missionweave.core.work_lease_closed';
/** Long enough that only a hint or `sweepNow`, never the timer, starts a round during a test. */
const NEVER = 3_600_000;
const SELECTION = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;
const nodes: GroupAuthority[] = [];
const reactors: AuthorityReactor[] = [];
const silent = pino({ level: 'silent' });
/** What the reactors of the racing test said of Commands not applied (the reactor logs those at debug). */
const notApplied: { code: string; message: string }[] = [];
const listening = pino({ level: 'debug' }, { write: (line: string) => void notApplied.push(...[JSON.parse(line) as { msg: string; code: string; message: string }].filter((l) => l.msg === 'Authority Command not applied')) });

beforeAll(async () => {
  ({ h, owner, coordinator, worker } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {}, worker: ['acme.sql-migration@1.5.0'] } }));
});

afterAll(async () => {
  for (const reactor of reactors) await reactor.close();
  for (const node of nodes) await node.close();
});

/** Another node on the same database, with its reactor. */
async function node(sweeps?: readonly Sweep[], logger = silent): Promise<{ authority: GroupAuthority; reactor: AuthorityReactor }> {
  const authority = await h.peer(h.pool);
  const reactor = AuthorityReactor.start({ authority, pool: h.pool, logger, periodMs: NEVER, ...(sweeps === undefined ? {} : { sweeps }) });
  nodes.push(authority);
  reactors.push(reactor);
  await reactor.sweepNow(); // its first round, before the test's lease exists
  return { authority, reactor };
}

/**
 * The lease sweeps, each holding what it found until every node's same sweep has found its
 * Commands too: the nodes then submit the same closure at the same moment.
 */
function racingSweeps(nodeCount: number): Sweep[] {
  return LEASE_SWEEPS.map((sweep) => {
    let arrived = 0;
    let release: () => void = () => undefined;
    const everyone = new Promise<void>((resolve) => (release = resolve));
    return {
      name: sweep.name,
      async find(pool, nowMillis, limit): Promise<readonly AuthorityCommandDraft[]> {
        const found = await sweep.find(pool, nowMillis, limit);
        if (found.length === 0) return found;
        if (++arrived === nodeCount) release();
        await everyone;
        return found;
      },
    };
  });
}

function ok(outcome: Submission): JsonObject {
  if (!outcome.ok) throw new Error(`refused: ${outcome.error.code} ${outcome.error.message}`);
  return (JSON.parse(outcome.events[0]?.text ?? '{}') as { payload: JsonObject }).payload;
}

function code(outcome: Submission): string {
  return outcome.ok ? 'ok' : outcome.error.code;
}

interface Work {
  readonly m: MissionRefs;
  readonly workItemId: string;
  readonly asMember: { groupId: string; membershipEpoch: number };
  readonly asCoordinator: { groupId: string; membershipEpoch: number; coordinatorEpoch: number };
}

/** A WorkItem offered to `worker` and accepted by it (`queued`), through the pipeline. */
async function queuedWork(ownershipLeaseSeconds = 900): Promise<Work> {
  const m = await createMission(h, owner, coordinator);
  const asMember = { groupId: m.groupId, membershipEpoch: 1 };
  const asCoordinator = { ...asMember, coordinatorEpoch: 1 };
  await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, asMember));
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(h.clock.millis + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 80 } };
  await h.expectOk(h.send(coordinator, 'work.authorize', { workItemId, contract }, asCoordinator));
  await h.expectOk(h.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [worker.principal.id], selectionBasis: SELECTION }, asCoordinator));
  await h.expectOk(h.send(worker, 'work.accept_offer', { workItemId, ownershipLeaseSeconds }, asMember));
  return { m, workItemId, asMember, asCoordinator };
}

/** The same, started: `active` under an Execution Lease of `executionLeaseSeconds`. */
async function activeWork(executionLeaseSeconds: number): Promise<Work & { executionLeaseId: string }> {
  const work = await queuedWork();
  const started = ok(await h.send(worker, 'work.start', { workItemId: work.workItemId, ownershipEpoch: 1, executionLeaseSeconds }, work.asMember));
  return { ...work, executionLeaseId: (started['executionLease'] as { leaseId: string }).leaseId };
}

async function workItemRow(work: Work): Promise<WorkRecord> {
  const result = await h.pool.query<{ document: WorkItem }>(`select document from aggregates where group_id = $1 and aggregate_type = 'work-item' and aggregate_id = $2`, [work.m.groupId, work.workItemId]);
  return workRecordOf(result.rows[0]!.document);
}

async function closures(work: Work): Promise<JsonObject[]> {
  return (await eventsOf(h.pool, work.m.groupId)).filter((e) => e['kind'] === CLOSED);
}

describe('the Authority reactor', () => {
  it('closes an expired Execution Lease once, though two nodes sweep it at the same moment and again', async () => {
    const racing = racingSweeps(2);
    const [a, b] = [await node(racing, listening), await node(racing, listening)];
    const work = await activeWork(1);
    h.clock.advance(2);
    notApplied.length = 0;
    const rounds = await Promise.all([a.reactor.sweepNow(), b.reactor.sweepNow(), a.reactor.sweepNow(), b.reactor.sweepNow()]);
    const sum = (key: 'issued' | 'accepted' | 'duplicate' | 'refused' | 'failed'): number => rounds[0]![key] + rounds[1]![key];
    expect(sum('issued'), 'both nodes issued the closure').toBe(2);
    // One applied it; the other's same Action ID met the first one's receipt (ACTION_ID_COLLISION,
    // or the first one's very bytes: a duplicate). On Citus too: a batch fences its trees on the
    // coordinator, which lets the fence go only once every worker has committed, so the other never
    // reads the WorkItem closed before the receipt is visible (src/store/sql/batchReads.ts,
    // test/citusTreeFence.int.test.ts). Before the fence it was once refused there as not applying.
    expect([sum('accepted'), sum('failed')]).toEqual([1, 0]);
    expect([sum('duplicate'), sum('refused')]).toEqual([1, 0]);

    const events = await closures(work);
    expect(events).toHaveLength(1);
    // The Authority's receipts, its Group Commands' too, lie in organization_receipts (migration 0024).
    expect(await count(h.pool, 'organization_receipts', 'kind = $1 and group_id = $2', ['ext.missionweave.core.work_lease_close', work.m.groupId])).toBe(1);
    expect(await count(h.pool, 'receipts', 'kind = $1 and group_id = $2', ['ext.missionweave.core.work_lease_close', work.m.groupId])).toBe(0);
    expect(events[0]).toMatchObject({
      actor: h.settings.services.authority,
      workItemId: work.workItemId,
      payload: { cause: 'expired', ownershipEpoch: 1, closedLease: { leaseId: work.executionLeaseId, state: 'expired', closureReason: 'expired' } },
    });
    const after = await workItemRow(work);
    expect(after.state).toBe('queued');
    expect(leasesOf(after).execution).toBeUndefined();
    expect(leasesOf(after).ownership?.state).toBe('active');
    // The fact is gone from the store: a later round on either node finds nothing to issue.
    expect((await a.reactor.sweepNow()).issued).toBe(0);
    expect((await b.reactor.sweepNow()).issued).toBe(0);
    // The owner still owns it and starts again under a new lease.
    const again = ok(await h.send(worker, 'work.start', { workItemId: work.workItemId, ownershipEpoch: 1 }, work.asMember));
    expect((again['executionLease'] as { leaseId: string }).leaseId).not.toBe(work.executionLeaseId);
  });

  it('leaves a live lease alone', async () => {
    const work = await activeWork(300);
    const { reactor } = await node();
    expect((await reactor.sweepNow()).issued).toBe(0);
    expect(await closures(work)).toHaveLength(0);
    expect((await workItemRow(work)).state).toBe('active');
  });

  it('fences an owner whose ownership lease expired, so that the Coordinator may re-offer', async () => {
    const work = await queuedWork(1);
    const { reactor } = await node();
    expect(code(await h.send(coordinator, 'work.offer', { workItemId: work.workItemId, candidateAgentIds: [worker.principal.id], selectionBasis: SELECTION }, work.asCoordinator))).toBe('WORK_ALREADY_OWNED');
    h.clock.advance(2);
    expect((await reactor.sweepNow()).accepted).toBe(1);
    const [closed] = await closures(work);
    expect(closed).toMatchObject({ payload: { cause: 'expired', closedLease: { leaseType: 'ownership', state: 'expired' } } });
    const after = await workItemRow(work);
    expect(after.state).toBe('queued');
    expect(leasesOf(after).ownership).toBeUndefined();
    expect(code(await h.send(worker, 'work.start', { workItemId: work.workItemId, ownershipEpoch: 1 }, work.asMember))).toBe('WORK_LEASE_EXPIRED');
    ok(await h.send(coordinator, 'work.offer', { workItemId: work.workItemId, candidateAgentIds: [worker.principal.id], selectionBasis: SELECTION }, work.asCoordinator));
  });

  it('refuses a closure that no longer applies (a stale Ownership Epoch): WORK_STALE_OWNERSHIP, nothing appended', async () => {
    const work = await activeWork(300);
    const lease = leasesOf(await workItemRow(work)).execution;
    const stale = { workItemId: work.workItemId, ownershipEpoch: 2, leaseId: lease?.leaseId ?? '', holderAgentId: worker.principal.id, cause: 'expired' };
    const outcome = await h.send(h.authorityActor, WORK_LEASE_CLOSE, stale, { groupId: work.m.groupId, workItemId: work.workItemId });
    expect(code(outcome)).toBe('WORK_STALE_OWNERSHIP');
    expect(await closures(work)).toEqual([]);
    expect((await workItemRow(work)).state).toBe('active');
  });

  it('returns the active WorkItem of an Agent that opens a replacement Session to queued, on the session hint', async () => {
    const work = await activeWork(300);
    const { authority } = await node();
    expect((await workItemRow(work)).state).toBe('active');

    const oldSession = worker.sessionEpoch;
    const opened = ok(await authority.submit(h.sign(h.authorityActor, SESSION_OPEN, { agentId: worker.principal.id })));
    worker.sessionEpoch = Number(opened['sessionEpoch']);
    expect(worker.sessionEpoch).toBeGreaterThan(oldSession ?? 0);
    const started = Date.now();
    while ((await workItemRow(work)).state !== 'queued' && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 20));

    const after = await workItemRow(work);
    expect(after.state).toBe('queued');
    expect(leasesOf(after).ownership?.state, 'the Agent keeps its ownership to start again').toBe('active');
    const events = await closures(work);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ payload: { cause: 'session_replaced', closedLease: { leaseId: work.executionLeaseId, state: 'revoked', closureReason: 'session_replaced' } } });
    // The Agent's new Session starts it again, under a new lease bound to the new Session Epoch.
    const again = ok(await h.send(worker, 'work.start', { workItemId: work.workItemId, ownershipEpoch: 1 }, work.asMember));
    expect(again['executionLease']).toMatchObject({ sessionEpoch: worker.sessionEpoch });
  });
});
