/**
 * The Mission tree (§14) on real PostgreSQL: the root MissionOwner reads every Mission below the
 * root with state, Coordinator, budget and WorkItem counts; a parent Coordinator, owner of its
 * child, reads the child's subtree; an Agent with no Membership is told the Group does not exist;
 * a wide tree is cut at the bound and says so. Also: a child Mission can never close a cycle in
 * the ancestry, since its Group and Mission IDs must be new (§20).
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { readMissionTree } from '../src/app/policy/readMissionTree.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';
import { world } from './support/world.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let childCoordinator: Actor;
let stranger: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, childCoordinator, stranger } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {}, childCoordinator: {}, stranger: {} },
  }));
});

function contract(): JsonObject {
  return { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], deadline: new Date(h.clock.millis + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 80 } };
}

function asCoordinator(m: MissionRefs, kind: string, payload: JsonObject, actor = coordinator) {
  return h.send(actor, kind, payload, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });
}

function child(workItemId: string, ids: { missionId?: string; groupId?: string } = {}): JsonObject {
  const suffix = randomUUID();
  return {
    missionId: ids.missionId ?? `urn:missionweave:mission:${suffix}`,
    groupId: ids.groupId ?? `urn:missionweave:group:${suffix}`,
    parentWorkItemId: workItemId,
    coordinatorId: childCoordinator.principal.id,
    title: 'Port the schema',
    objective: 'Port the billing schema.',
    definitionOfDone: [{ criterionId: 'ported', description: 'Schema ported.', evidenceRequired: ['deterministic_test'] }],
    budget: { currency: 'EUR', financialLimit: 50 },
    deadline: new Date(h.clock.millis + 3_600_000).toISOString(),
  };
}

async function workItem(m: MissionRefs): Promise<string> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  await h.expectOk(asCoordinator(m, 'work.authorize', { workItemId, contract: contract() }));
  return workItemId;
}

describe('the Mission tree', () => {
  it('shows the root MissionOwner every Mission below the root; a parent Coordinator its child subtree; a stranger nothing', async () => {
    const m = await createMission(h, owner, coordinator);
    const first = await workItem(m);
    const second = await workItem(m);
    await workItem(m);
    const childA = child(first);
    const childB = child(second);
    await h.expectOk(asCoordinator(m, 'mission.create_child', childA));
    await h.expectOk(asCoordinator(m, 'mission.create_child', childB));

    const read = await readMissionTree(h.pool, h.authority.kinds, m.groupId, { kind: 'principal', principal: owner.principal });
    if (!read.ok) expect.fail(read.error.message);
    const { tree } = read;
    expect(tree.rootMissionId).toBe(m.missionId);
    expect(tree.truncated).toBe(false);
    expect(tree.missions.map((s) => s.missionId)).toEqual([m.missionId, childA['missionId'], childB['missionId']]);
    const [root, a] = tree.missions;
    expect(root).toMatchObject({
      state: 'active',
      depth: 0,
      missionOwner: owner.principal,
      coordinator: { agentId: coordinator.principal.id, coordinatorEpoch: 1 },
      budget: { currency: 'EUR' },
      workItems: { open: 1, blocked: 2 },
      children: [
        { missionId: childA['missionId'], groupId: childA['groupId'], parentWorkItemId: first },
        { missionId: childB['missionId'], groupId: childB['groupId'], parentWorkItemId: second },
      ],
    });
    expect(a).toMatchObject({ depth: 1, missionOwner: coordinator.principal, coordinator: { agentId: childCoordinator.principal.id }, budget: { financialLimit: 50 }, children: [] });

    // The parent Coordinator owns the child Missions; the root Coordinator reads the whole tree.
    const asParent = await readMissionTree(h.pool, h.authority.kinds, String(childA['groupId']), { kind: 'principal', principal: coordinator.principal });
    expect(asParent.ok && asParent.tree.missions.map((s) => s.missionId)).toEqual([childA['missionId']]);
    const asRootCoordinator = await readMissionTree(h.pool, h.authority.kinds, m.groupId, { kind: 'principal', principal: coordinator.principal });
    expect(asRootCoordinator.ok && asRootCoordinator.tree.missions.length).toBe(3);

    const refused = await readMissionTree(h.pool, h.authority.kinds, m.groupId, { kind: 'principal', principal: stranger.principal });
    expect(refused.ok ? 'read' : refused.error.code).toBe('GROUP_NOT_FOUND');
    const missing = await readMissionTree(h.pool, h.authority.kinds, 'urn:missionweave:group:none', { kind: 'operator' });
    expect(missing.ok ? 'read' : missing.error.code).toBe('GROUP_NOT_FOUND');

    const cut = await readMissionTree(h.pool, h.authority.kinds, m.groupId, { kind: 'operator' }, 2);
    expect(cut.ok && { n: cut.tree.missions.length, truncated: cut.tree.truncated }).toEqual({ n: 2, truncated: true });
  });

  it('refuses a child Mission that would close a cycle: its Group or Mission ID must be new', async () => {
    const m = await createMission(h, owner, coordinator);
    const workItemId = await workItem(m);
    const groups = await count(h.pool, 'groups');
    const ownGroup = await asCoordinator(m, 'mission.create_child', child(workItemId, { groupId: m.groupId }));
    expect(ownGroup.ok ? 'accepted' : [ownGroup.error.code, ownGroup.error.message]).toEqual(['INVALID_STATE_TRANSITION', 'the Group ID is already in use']);
    const ownMission = await asCoordinator(m, 'mission.create_child', child(workItemId, { missionId: m.missionId }));
    expect(ownMission.ok ? 'accepted' : [ownMission.error.code, ownMission.error.message]).toEqual(['INVALID_STATE_TRANSITION', 'the Group ID is already in use']);
    expect(await count(h.pool, 'groups')).toBe(groups);
  });
});
