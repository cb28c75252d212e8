/**
 * Mission fixtures for integration tests: a root Mission created by a human through the real
 * pipeline, a child Mission promoted from one of its WorkItems, and readers of what the Group
 * Authority stored.
 */

import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import type { Pool } from '../../src/store/pool.js';
import type { Actor, Harness } from './harness.js';
import { EXAMPLE_WORK_CONTRACT } from './payloadExamples.js';

export interface MissionRefs {
  readonly missionId: string;
  readonly groupId: string;
  readonly mainConversationId: string;
}

export function missionPayload(h: Harness, coordinator: Actor, overrides: JsonObject = {}): JsonObject {
  const suffix = randomUUID();
  return {
    missionId: `urn:missionweave:mission:${suffix}`,
    groupId: `urn:missionweave:group:${suffix}`,
    mainConversationId: `urn:missionweave:conversation:${suffix}`,
    coordinatorId: coordinator.principal.id,
    title: 'Migrate billing to the ledger',
    objective: 'Move every billing record to the double-entry ledger.',
    definitionOfDone: [{ criterionId: 'parity', description: 'Ledger equals legacy balances.', evidenceRequired: ['deterministic_test'] }],
    budget: { currency: 'EUR', financialLimit: 500, modelTokenLimit: 1_000_000 },
    deadline: new Date(h.clock.millis + 7 * 86_400_000).toISOString(),
    ...overrides,
  };
}

export async function createMission(h: Harness, owner: Actor, coordinator: Actor, overrides: JsonObject = {}): Promise<MissionRefs> {
  const payload = missionPayload(h, coordinator, overrides);
  await h.expectOk(h.send(owner, 'mission.create', payload, { groupId: String(payload['groupId']) }));
  return { missionId: String(payload['missionId']), groupId: String(payload['groupId']), mainConversationId: String(payload['mainConversationId']) };
}

/**
 * A child Mission of `parent` coordinated by `childCoordinator`: `parentCoordinator` (Coordinator
 * Epoch 1) authorizes a WorkItem there, due within `hours` + 1, and promotes it (§14), becoming the
 * child's MissionOwner; each child gets its own objective (a repeated one is duplicate
 * decomposition, §20) and `financialLimit` EUR of the WorkItem's double; `extra` payload members
 * (such as `permissions`) are added.
 */
export async function childMission(h: Harness, parent: MissionRefs, parentCoordinator: Actor, childCoordinator: Actor, hours = 12, financialLimit = 20, extra: JsonObject = {}): Promise<MissionRefs> {
  const asCoordinator = { groupId: parent.groupId, membershipEpoch: 1, coordinatorEpoch: 1 };
  const parentWorkItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const deadline = (plusHours: number) => new Date(h.clock.millis + plusHours * 3_600_000).toISOString();
  const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], deadline: deadline(hours + 1), budget: { currency: 'EUR', financialLimit: financialLimit * 2 } };
  await h.expectOk(h.send(parentCoordinator, 'work.authorize', { workItemId: parentWorkItemId, contract }, asCoordinator));
  const suffix = randomUUID();
  const child = { missionId: `urn:missionweave:mission:${suffix}`, groupId: `urn:missionweave:group:${suffix}`, mainConversationId: `urn:missionweave:conversation:${suffix}` };
  const payload = {
    ...child,
    parentWorkItemId,
    coordinatorId: childCoordinator.principal.id,
    title: 'Port the schema',
    objective: `Port the billing schema, part ${suffix}.`,
    definitionOfDone: [{ criterionId: 'ported', description: 'Schema ported.', evidenceRequired: ['deterministic_test'] }],
    budget: { currency: 'EUR', financialLimit },
    deadline: deadline(hours),
    ...extra,
  };
  await h.expectOk(h.send(parentCoordinator, 'mission.create_child', payload, asCoordinator));
  return child;
}

export async function eventsOf(pool: Pool, groupId: string): Promise<JsonObject[]> {
  const result = await pool.query<{ document: string }>('select document from events where group_id = $1 order by sequence', [groupId]);
  return result.rows.map((r) => JSON.parse(r.document) as JsonObject);
}

export async function count(pool: Pool, table: string, where = 'true', values: unknown[] = []): Promise<number> {
  const result = await pool.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`, values);
  return result.rows[0]?.n ?? 0;
}
