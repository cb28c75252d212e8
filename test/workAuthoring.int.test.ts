/**
 * Work authoring on the real pipeline and PostgreSQL (issue 11, items 1, 4, 5 and the propose /
 * authorize rows): an incomplete Work Contract answered as such, Work Proposals taken up by the
 * Coordinator, Delegation Grants and their use, dependency insertion, and the submission gate of
 * the WorkItem graph. Each accepted and refused.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { createTestDatabase } from './support/database.js';
import { Harness, type Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;

beforeAll(async () => {
  const db = await createTestDatabase();
  h = await Harness.start(db.pool);
  owner = await h.human('dana');
  coordinator = await h.agent('coordinator');
});

const newId = (kind: string) => `urn:missionweave:${kind}:${randomUUID()}`;

function contract(extra: JsonObject = {}): JsonObject {
  return { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], deadline: new Date(h.clock.millis + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 80 }, ...extra };
}

function asCoordinator(m: MissionRefs, kind: string, payload: JsonObject) {
  return h.send(coordinator, kind, payload, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });
}

function codeOf(outcome: Awaited<ReturnType<Harness['send']>>): string {
  return outcome.ok ? 'accepted' : outcome.error.code;
}

describe('an incomplete Work Contract (§10.1, §19)', () => {
  it('is WORK_CONTRACT_INCOMPLETE, where other schema failures stay SCHEMA_VALIDATION_FAILED', async () => {
    const m = await createMission(h, owner, coordinator);
    const { goal: _goal, ...withoutGoal } = contract();
    const missing = await asCoordinator(m, 'work.authorize', { workItemId: newId('work-item'), contract: withoutGoal });
    expect(codeOf(missing)).toBe('WORK_CONTRACT_INCOMPLETE');
    const proposed = await h.send(coordinator, 'work.propose', { proposalId: newId('work-proposal'), contract: withoutGoal }, { groupId: m.groupId, membershipEpoch: 1 });
    expect(codeOf(proposed)).toBe('WORK_CONTRACT_INCOMPLETE');
    const malformed = await asCoordinator(m, 'work.authorize', { workItemId: newId('work-item'), contract: contract({ goal: '' }) });
    expect(codeOf(malformed)).toBe('SCHEMA_VALIDATION_FAILED');
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(1);
    await h.expectOk(asCoordinator(m, 'work.authorize', { workItemId: newId('work-item'), contract: contract() }));
    expect((await eventsOf(h.pool, m.groupId)).map((e) => e['kind'])).toEqual(['mission.created', 'work.authorized']);
  });
});
