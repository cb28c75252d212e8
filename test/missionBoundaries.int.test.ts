/**
 * Authority where Missions meet (issue 28), on the real pipeline and PostgreSQL:
 * - a child Mission never widens authority (§4.11, §14): resources, operations and data
 *   classification stay within the parent WorkItem's and every ancestor's, at
 *   `mission.create_child`, `work.authorize` (delegated or not) and token issuance;
 * - a capability token's ceilings are capped by what the whole budget ancestry has left (§12);
 * - an owner whose Agent Card changes incompatibly is fenced until renewed acceptance (§6.1);
 * - delegated WorkItem depth and a Grant's `maxDescendantDepth` meet the Organization's bound (§9.1, §20);
 * - `work_dependency_add` follows §10.2: it moves no WorkItem to `open`.
 */

import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupAuthority, Submission } from '../src/app/groupAuthority.js';
import { issueAgentCard } from '../src/app/issueDocuments.js';
import { AuthorityReactor } from '../src/app/reactor/authorityReactor.js';
import { LEASE_SWEEPS } from '../src/app/reactor/leaseSweeps.js';
import type { WorkItem } from '../src/domain/documents.js';
import { CARD_REGISTER } from '../src/domain/organization/organization.js';
import { DEFAULT_COOPERATION_LIMITS } from '../src/domain/policy/cooperationLimits.js';
import { leasesOf } from '../src/domain/workItem/workLeases.js';
import { workRecordOf, type WorkRecord } from '../src/domain/workItem/workRecord.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { type Harness, ORGANIZATION_ID, type Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { world } from './support/world.js';

const GRANT = 'ext.missionweave.core.capability_grant';
const RECORD = 'ext.missionweaveprotocol.core.resource_usage_record';
const RENEW = 'ext.missionweaveprotocol.core.work_execution_lease_renew';
const DEPENDENCY_ADD = 'ext.missionweaveprotocol.core.work_dependency_add';
const CLOSED = 'ext.missionweave.core.work_lease_closed';
const STAGING = 'urn:missionweave:resource:billing-db-staging';
const PRODUCTION = 'urn:missionweave:resource:billing-db-production';
const SELECTION = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
/** Only `sweepNow` starts a round in these tests (the reactor's node commits nothing else). */
const NEVER = 3_600_000;
/** The Organization's bound on delegated WorkItem depth in this file. */
const DELEGATION_DEPTH = 2;

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let childCoordinator: Actor;
let grandchildCoordinator: Actor;
let worker: Actor;
let delegate: Actor;
let node: GroupAuthority;
let reactor: AuthorityReactor;

beforeAll(async () => {
  ({ h, owner, coordinator, childCoordinator, grandchildCoordinator, worker, delegate } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {}, childCoordinator: {}, grandchildCoordinator: {}, worker: ['acme.sql-migration@1.5.0'], delegate: {} },
    settings: { cooperationLimits: { ...DEFAULT_COOPERATION_LIMITS, maxDelegatedWorkDepth: DELEGATION_DEPTH } },
  }));
  // On another node, so that this node's commits never hint it: only `sweepNow` sweeps.
  node = await h.peer(h.pool);
  reactor = AuthorityReactor.start({ authority: node, pool: h.pool, logger: pino({ level: 'silent' }), periodMs: NEVER, sweeps: LEASE_SWEEPS });
  await reactor.sweepNow();
});

afterAll(async () => {
  await reactor.close();
  await node.close();
});

const newId = (kind: string) => `urn:missionweave:${kind}:${randomUUID()}`;
const inHours = (hours: number) => new Date(h.clock.millis + hours * 3_600_000).toISOString();
const asMember = (m: MissionRefs) => ({ groupId: m.groupId, membershipEpoch: 1 });
const asCoordinator = (m: MissionRefs) => ({ groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });

function contract(extra: JsonObject = {}): JsonObject {
  return {
    ...EXAMPLE_WORK_CONTRACT,
    // Each WorkItem its own goal: alike ones under one parent are duplicate decomposition (§20).
    goal: `Port the billing schema, part ${randomUUID()}.`,
    dependencyWorkItemIds: [],
    executionApproval: 'not_required',
    deadline: inHours(24),
    budget: { currency: 'EUR', financialLimit: 10 },
    allowedResources: [{ resource: STAGING, operations: ['db.read'] }],
    ...extra,
  };
}

/** A refusal as the wire says it (the protected reason goes to the Policy Log only). */
function refusal(outcome: Submission): { code: string; message: string; details?: unknown } | 'accepted' {
  return outcome.ok ? 'accepted' : { code: outcome.error.code, message: outcome.error.message, details: outcome.error.details };
}

function payloadOf(outcome: Submission): JsonObject {
  if (!outcome.ok) throw new Error(`refused: ${outcome.error.code} ${outcome.error.message}`);
  return (JSON.parse(outcome.events[0]?.text ?? '{}') as { payload: JsonObject }).payload;
}

async function authorize(m: MissionRefs, actor: Actor, extra: JsonObject = {}, payload: JsonObject = {}): Promise<{ workItemId: string; outcome: Submission }> {
  const workItemId = newId('work-item');
  const envelope = payload['delegationGrantId'] === undefined ? asCoordinator(m) : asMember(m);
  const outcome = await h.send(actor, 'work.authorize', { workItemId, contract: contract(extra), ...payload }, envelope);
  return { workItemId, outcome };
}

async function authorized(m: MissionRefs, actor: Actor, extra: JsonObject = {}, payload: JsonObject = {}): Promise<string> {
  const { workItemId, outcome } = await authorize(m, actor, extra, payload);
  payloadOf(outcome);
  return workItemId;
}

async function promote(parent: MissionRefs, workItemId: string, actor: Actor, childActor: Actor, extra: JsonObject = {}): Promise<{ child: MissionRefs; outcome: Submission }> {
  const suffix = randomUUID();
  const child = { missionId: `urn:missionweave:mission:${suffix}`, groupId: `urn:missionweave:group:${suffix}`, mainConversationId: `urn:missionweave:conversation:${suffix}` };
  const payload = {
    ...child,
    parentWorkItemId: workItemId,
    coordinatorId: childActor.principal.id,
    title: 'Port the schema',
    objective: `Port the billing schema, part ${suffix}.`,
    definitionOfDone: [{ criterionId: 'ported', description: 'Schema ported.', evidenceRequired: ['deterministic_test'] }],
    budget: { currency: 'EUR', financialLimit: 10 },
    deadline: inHours(20),
    ...extra,
  };
  return { child, outcome: await h.send(actor, 'mission.create_child', payload, asCoordinator(parent)) };
}

async function promoted(parent: MissionRefs, workItemId: string, actor: Actor, childActor: Actor, extra: JsonObject = {}): Promise<MissionRefs> {
  const { child, outcome } = await promote(parent, workItemId, actor, childActor, extra);
  payloadOf(outcome);
  return child;
}

/** `agent` joins `m` as a Worker (added by `missionOwner`). */
async function join(m: MissionRefs, missionOwner: Actor, agent: Actor): Promise<void> {
  await h.expectOk(h.send(missionOwner, 'membership.change', { principal: { ...agent.principal }, roles: ['worker'] }, asMember(m)));
}

/** The WorkItem offered to `agent` by `by` and accepted by it (`queued`). */
async function accepted(m: MissionRefs, by: Actor, agent: Actor, workItemId: string): Promise<void> {
  await h.expectOk(h.send(by, 'work.offer', { workItemId, candidateAgentIds: [agent.principal.id], selectionBasis: SELECTION }, asCoordinator(m)));
  await h.expectOk(h.send(agent, 'work.accept_offer', { workItemId }, asMember(m)));
}

/** The same, started: its Execution Lease ID. */
async function started(m: MissionRefs, by: Actor, agent: Actor, workItemId: string): Promise<string> {
  await accepted(m, by, agent, workItemId);
  const start = payloadOf(await h.send(agent, 'work.start', { workItemId, ownershipEpoch: 1 }, asMember(m)));
  return (start['executionLease'] as { leaseId: string }).leaseId;
}

function grant(m: MissionRefs, workItemId: string, agent: Actor, executionLeaseId: string, extra: JsonObject = {}): Promise<Submission> {
  const payload = { workItemId, agentId: agent.principal.id, sessionEpoch: agent.sessionEpoch ?? 1, ownershipEpoch: 1, executionLeaseId, ...extra };
  return h.send(h.authorityActor, GRANT, payload, { groupId: m.groupId, workItemId });
}

async function workItemRow(m: MissionRefs, workItemId: string): Promise<WorkRecord> {
  const result = await h.pool.query<{ document: WorkItem }>(`select document from aggregates where group_id = $1 and aggregate_type = 'work-item' and aggregate_id = $2`, [m.groupId, workItemId]);
  return workRecordOf(result.rows[0]!.document);
}

describe('a child Mission never widens authority (§4.11, §14)', () => {
  it('authorizes child WorkItems only within the resources, operations and data classification of every ancestor WorkItem', async () => {
    const root = await createMission(h, owner, coordinator);
    // The root WorkItem may only read staging, and see no more than internal data.
    const w1 = await authorized(root, coordinator, { constraints: { maxDataClassification: 'internal' } });
    const child = await promoted(root, w1, coordinator, childCoordinator);
    const inChild = (extra: JsonObject = {}): JsonObject => ({ deadline: inHours(16), ...extra });
    const before = await count(h.pool, 'events', 'group_id = $1', [child.groupId]);

    const production = await authorize(child, childCoordinator, inChild({ allowedResources: [{ resource: PRODUCTION, operations: ['db.write'] }] }));
    expect(refusal(production.outcome)).toMatchObject({ code: 'INVALID_COMMAND', details: { resource: PRODUCTION, parentWorkItemId: w1, parentGroupId: root.groupId } });
    const migrate = await authorize(child, childCoordinator, inChild({ allowedResources: [{ resource: STAGING, operations: ['db.read', 'db.migrate'] }] }));
    expect(refusal(migrate.outcome)).toMatchObject({ code: 'INVALID_COMMAND', details: { resource: STAGING, operation: 'db.migrate' } });
    const confidential = await authorize(child, childCoordinator, inChild({ constraints: { maxDataClassification: 'confidential' } }));
    expect(refusal(confidential.outcome)).toMatchObject({ code: 'INVALID_COMMAND', details: { maxDataClassification: 'confidential', parentMaxDataClassification: 'internal' } });
    const unknown = await authorize(child, childCoordinator, inChild({ constraints: { maxDataClassification: 'secret' } }));
    expect(refusal(unknown.outcome)).toMatchObject({ code: 'INVALID_COMMAND', details: { maxDataClassification: 'secret' } });
    expect(await count(h.pool, 'events', 'group_id = $1', [child.groupId]), 'a refusal appends nothing').toBe(before);

    // Within the parent: accepted; the WorkItem states no classification and inherits the root's.
    const cw1 = await authorized(child, childCoordinator, inChild());
    // A grandchild is held to the root too, though its nearest ancestor WorkItem states no bound.
    const grandchild = await promoted(child, cw1, childCoordinator, grandchildCoordinator, { deadline: inHours(14) });
    const inGrandchild = (extra: JsonObject = {}): JsonObject => ({ deadline: inHours(12), ...extra });
    const restricted = await authorize(grandchild, grandchildCoordinator, inGrandchild({ allowedResources: [{ resource: STAGING, operations: ['db.read'], constraints: { maxDataClassification: 'restricted' } }] }));
    expect(refusal(restricted.outcome)).toMatchObject({ code: 'INVALID_COMMAND', details: { maxDataClassification: 'restricted', parentMaxDataClassification: 'internal', parentWorkItemId: w1, parentGroupId: root.groupId } });
    const gw1 = await authorized(grandchild, grandchildCoordinator, inGrandchild());

    // Its token allows what every ancestor allows, under the classification the root set.
    await join(grandchild, childCoordinator, worker);
    const lease = await started(grandchild, grandchildCoordinator, worker, gw1);
    const token = payloadOf(await grant(grandchild, gw1, worker, lease));
    expect((token['grant'] as JsonObject)['resources']).toEqual([{ resource: STAGING, operations: ['db.read'], constraints: { maxDataClassification: 'internal' } }]);
    expect(refusal(await grant(grandchild, gw1, worker, lease, { resources: [{ resource: PRODUCTION, operations: ['db.write'] }] }))).toMatchObject({ code: 'AUTH_FORBIDDEN', details: { resource: PRODUCTION } });
  });

  it('creates a child Mission only with permissions every ancestor WorkItem grants', async () => {
    const root = await createMission(h, owner, coordinator, { permissions: ['db.read', 'db.write'] });
    const w1 = await authorized(root, coordinator);
    const { outcome } = await promote(root, w1, coordinator, childCoordinator, { permissions: ['db.read', 'db.write'] });
    expect(refusal(outcome)).toMatchObject({ code: 'INVALID_COMMAND', details: { permission: 'db.write', parentWorkItemId: w1 } });
    await promoted(root, w1, coordinator, childCoordinator, { permissions: ['db.read'] });
  });

  it('lets a delegate authorize a sub-WorkItem only within its parent WorkItem', async () => {
    const m = await createMission(h, owner, coordinator);
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...delegate.principal }, roles: ['work_delegate'] }, asMember(m)));
    const target = await authorized(m, coordinator, { budget: { currency: 'EUR', financialLimit: 40 } });
    const grantId = newId('delegation-grant');
    const ceilings = { currency: 'EUR', financialLimit: 40, modelTokenLimit: 0, toolCallLimit: 0, computeSecondsLimit: 0, wallClockSecondsLimit: 0, externalSideEffectLimit: 0 };
    const grantPayload = { grantId, granteeAgentId: delegate.principal.id, targetWorkItemId: target, allowedCapabilities: [{ id: 'acme.sql-migration', version: '1.0.0' }], budget: ceilings, maxDescendantDepth: 1, expiresAt: inHours(1) };
    await h.expectOk(h.send(coordinator, 'membership.grant_delegation', grantPayload, asCoordinator(m)));
    const delegated = { parentWorkItemId: target, delegationGrantId: grantId };
    const wider = await authorize(m, delegate, { budget: { currency: 'EUR', financialLimit: 10 }, allowedResources: [{ resource: PRODUCTION, operations: ['db.write'] }] }, delegated);
    expect(refusal(wider.outcome)).toMatchObject({ code: 'INVALID_COMMAND', details: { resource: PRODUCTION, parentWorkItemId: target } });
    await authorized(m, delegate, { budget: { currency: 'EUR', financialLimit: 10 } }, delegated);
  });
});

describe('a capability token respects the whole budget ancestry (§12)', () => {
  it('caps a child WorkItem’s token at what its ancestry has left: 20 EUR asked, 10 left', async () => {
    const root = await createMission(h, owner, coordinator);
    const w1 = await authorized(root, coordinator, { budget: { currency: 'EUR', financialLimit: 30 } });
    await join(root, owner, worker);
    const rootLease = await started(root, coordinator, worker, w1);
    // w1 spends 20 of its 30 EUR before it is promoted to a child Mission of 30 EUR.
    payloadOf(await h.send(worker, RECORD, { workItemId: w1, ownershipEpoch: 1, executionLeaseId: rootLease, usageDelta: { financialMicrounits: 20_000_000 } }, asMember(root)));
    const child = await promoted(root, w1, coordinator, childCoordinator, { budget: { currency: 'EUR', financialLimit: 30 } });
    const cw1 = await authorized(child, childCoordinator, { deadline: inHours(16), budget: { currency: 'EUR', financialLimit: 25 } });
    await join(child, coordinator, worker);
    const lease = await started(child, childCoordinator, worker, cw1);

    const asked = await grant(child, cw1, worker, lease, { limits: { financialMicrounits: 20_000_000 } });
    expect(refusal(asked)).toMatchObject({ code: 'BUDGET_EXCEEDED', details: { dimension: 'financialMicrounits', limit: 10_000_000 } });
    const capped = payloadOf(await grant(child, cw1, worker, lease));
    expect((capped['grant'] as JsonObject)['limits']).toEqual({ financialMicrounits: 10_000_000 });
  });
});

/** `agent`'s Agent Card registered again as `cardVersion`, with the same key and `capabilities`. */
async function registerCard(agent: Actor, cardVersion: number, capabilities: string[]): Promise<void> {
  const binding = h.authority.registry.current.registry.resolve(agent.key.keyId)?.binding;
  if (binding === undefined) throw new Error('the Agent has no key binding');
  const card = issueAgentCard(
    {
      agentId: agent.principal.id,
      organizationId: ORGANIZATION_ID,
      cardVersion,
      displayName: 'upgraded',
      owner: h.registry.principal,
      endpoint: 'wss://127.0.0.1:8443',
      keys: [{ keyId: binding.keyId, publicKey: binding.publicKey, validFrom: binding.validFrom }],
      capabilities,
      maxConcurrency: 2,
      issuedAt: h.now(),
    },
    h.registry.key,
  );
  await h.expectOk(h.send(h.registry, CARD_REGISTER, { card }));
}

describe('an incompatible Agent Card upgrade needs renewed acceptance (§6.1)', () => {
  it('fences the owner on the Card change: no renewal, no start, no token, and the Coordinator re-offers', async () => {
    const upgraded = await h.agent('upgraded-worker', ['acme.sql-migration@1.5.0']);
    const m = await createMission(h, owner, coordinator);
    await join(m, owner, upgraded);
    await join(m, owner, worker);
    const [running, waiting] = [await authorized(m, coordinator), await authorized(m, coordinator)];
    const lease = await started(m, coordinator, upgraded, running);
    await accepted(m, coordinator, upgraded, waiting);

    // A compatible in-place upgrade (same major) continues.
    await registerCard(upgraded, 2, ['acme.sql-migration@1.6.0']);
    payloadOf(await h.send(upgraded, RENEW, { workItemId: running, ownershipEpoch: 1, executionLeaseId: lease }, asMember(m)));
    expect((await reactor.sweepNow()).issued).toBe(0);

    // The capability's major version moves: the assignment no longer holds.
    await registerCard(upgraded, 3, ['acme.sql-migration@2.0.0']);
    const renew = await h.send(upgraded, RENEW, { workItemId: running, ownershipEpoch: 1, executionLeaseId: lease }, asMember(m));
    expect(refusal(renew)).toMatchObject({ code: 'WORK_LEASE_EXPIRED', details: { agentCardVersion: 3 } });
    expect(refusal(await grant(m, running, upgraded, lease))).toMatchObject({ code: 'WORK_LEASE_EXPIRED', details: { agentCardVersion: 3 } });
    const start = await h.send(upgraded, 'work.start', { workItemId: waiting, ownershipEpoch: 1 }, asMember(m));
    expect(refusal(start)).toMatchObject({ code: 'WORK_LEASE_EXPIRED', details: { agentCardVersion: 3 } });

    // The Authority fences it through the pipeline, once.
    expect((await reactor.sweepNow()).accepted).toBe(2);
    expect((await reactor.sweepNow()).issued).toBe(0);
    const closed = (await eventsOf(h.pool, m.groupId)).filter((e) => e['kind'] === CLOSED);
    expect(closed.map((e) => (e['payload'] as JsonObject)['cause'])).toEqual(['card_incompatible', 'card_incompatible']);
    for (const workItemId of [running, waiting]) {
      const row = await workItemRow(m, workItemId);
      expect([row.state, leasesOf(row).ownership, leasesOf(row).execution]).toEqual(['queued', undefined, undefined]);
    }
    expect(refusal(await h.send(upgraded, 'work.start', { workItemId: waiting, ownershipEpoch: 1 }, asMember(m)))).toMatchObject({ code: 'WORK_LEASE_EXPIRED' });
    // Renewed acceptance: the Coordinator re-offers, and a Worker whose Card meets the contract accepts a new epoch.
    await accepted(m, coordinator, worker, running);
    expect((await workItemRow(m, running)).owner).toMatchObject({ agentId: worker.principal.id, ownershipEpoch: 2 });
  });
});

describe('delegation depth has an Organization bound (§9.1, §20)', () => {
  it('refuses a Grant deeper than the policy and a delegated WorkItem beyond it, each escalable once', async () => {
    const m = await createMission(h, owner, coordinator);
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...delegate.principal }, roles: ['work_delegate'] }, asMember(m)));
    const target = await authorized(m, coordinator, { budget: { currency: 'EUR', financialLimit: 40 } });
    const grantId = newId('delegation-grant');
    const ceilings = { currency: 'EUR', financialLimit: 40, modelTokenLimit: 0, toolCallLimit: 0, computeSecondsLimit: 0, wallClockSecondsLimit: 0, externalSideEffectLimit: 0 };
    const deep = { grantId, granteeAgentId: delegate.principal.id, targetWorkItemId: target, allowedCapabilities: [{ id: 'acme.sql-migration', version: '1.0.0' }], budget: ceilings, maxDescendantDepth: DELEGATION_DEPTH + 1, expiresAt: inHours(1) };
    const refused = await h.send(coordinator, 'membership.grant_delegation', deep, asCoordinator(m));
    expect(refusal(refused)).toMatchObject({ code: 'RATE_LIMITED', details: { policy: 'delegation_depth', limit: DELEGATION_DEPTH, observed: DELEGATION_DEPTH + 1 } });

    // The MissionOwner approves the deeper Grant, once.
    const override = async (beneficiary: Actor, kind: string): Promise<{ actionId: string; cooperationOverrideGrantId: string }> => {
      const overrideId = newId('grant');
      const actionId = `urn:uuid:${randomUUID()}`;
      const payload = { grantId: overrideId, policyName: 'delegation_depth', beneficiary: { ...beneficiary.principal }, targetCommandKind: kind, targetActionId: actionId, reason: 'the migration splits deeper', expiresAt: inHours(1) };
      await h.expectOk(h.send(owner, 'policy.grant_cooperation_override', payload, asMember(m)));
      return { actionId, cooperationOverrideGrantId: overrideId };
    };
    await h.expectOk(h.send(coordinator, 'membership.grant_delegation', deep, { ...asCoordinator(m), ...(await override(coordinator, 'membership.grant_delegation')) }));

    // Within the policy the Grant is used freely; one level deeper needs its own escalation.
    let parent = target;
    for (let depth = 1; depth <= DELEGATION_DEPTH; depth++) {
      parent = await authorized(m, delegate, { budget: { currency: 'EUR', financialLimit: 10 } }, { parentWorkItemId: parent, delegationGrantId: grantId });
    }
    const sub = { workItemId: newId('work-item'), contract: contract({ budget: { currency: 'EUR', financialLimit: 10 } }), parentWorkItemId: parent, delegationGrantId: grantId };
    const beyond = await h.send(delegate, 'work.authorize', sub, asMember(m));
    expect(refusal(beyond)).toMatchObject({ code: 'RATE_LIMITED', details: { policy: 'delegation_depth', limit: DELEGATION_DEPTH, observed: DELEGATION_DEPTH + 1 } });
    await h.expectOk(h.send(delegate, 'work.authorize', sub, { ...asMember(m), ...(await override(delegate, 'work.authorize')) }));
  });
});

describe('work_dependency_add follows §10.2', () => {
  it('revises an owned or offered WorkItem in place, fencing its acceptance, and refuses an active one', async () => {
    const m = await createMission(h, owner, coordinator);
    await join(m, owner, worker);
    const [dependency, queued, offered, active] = [await authorized(m, coordinator), await authorized(m, coordinator), await authorized(m, coordinator), await authorized(m, coordinator)];
    await accepted(m, coordinator, worker, queued);
    await h.expectOk(h.send(coordinator, 'work.offer', { workItemId: offered, candidateAgentIds: [worker.principal.id], selectionBasis: SELECTION }, asCoordinator(m)));
    await started(m, coordinator, worker, active);
    const add = (workItemId: string) => h.send(coordinator, DEPENDENCY_ADD, { workItemId, dependencyId: dependency }, asCoordinator(m));

    const revised = payloadOf(await add(queued));
    expect(revised['workItem']).toMatchObject({ state: 'queued', contract: { contractVersion: 2 }, owner: { agentId: worker.principal.id, ownershipEpoch: 1 } });
    expect(revised['revokedLeases']).toMatchObject([{ leaseType: 'ownership', state: 'revoked' }]);
    expect(refusal(await h.send(worker, 'work.start', { workItemId: queued, ownershipEpoch: 1 }, asMember(m)))).toMatchObject({ code: 'WORK_LEASE_EXPIRED' });
    // Renewed acceptance of the revised contract goes through a new offer (§10.2 `work.offer` from `queued`, no live owner).
    await accepted(m, coordinator, worker, queued);
    expect((await workItemRow(m, queued)).owner).toMatchObject({ ownershipEpoch: 2 });

    const withdrawn = payloadOf(await add(offered));
    expect(withdrawn['workItem']).toMatchObject({ state: 'offered', offers: [{ status: 'withdrawn' }] });
    expect(refusal(await h.send(worker, 'work.accept_offer', { workItemId: offered }, asMember(m)))).not.toBe('accepted');

    expect(refusal(await add(active))).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { workItemId: active, state: 'active' } });
    expect((await workItemRow(m, active)).state).toBe('active');
  });
});
