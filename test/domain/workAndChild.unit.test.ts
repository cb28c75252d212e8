/**
 * `work.authorize` (as far as child Missions need it) and `mission.create_child`
 * (docs/transitions.md, §10.2, §14).
 */

import type { JsonObject } from '../../src/protocol/strictJson.js';
import { describe, expect, it } from 'vitest';
import { decideGroupCommand } from '../support/coreDecider.js';
import { evolveGroup } from '../support/coreDecider.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import { linksOf, WORK_LINKS_EXTENSION } from '../../src/domain/workItem/workItemDocuments.js';
import { leasesOf, WORK_LEASES_EXTENSION } from '../../src/domain/workItem/workLeases.js';
import { principalKey } from '../../src/protocol/principal.js';
import { PAYLOAD_EXAMPLES } from '../support/payloadExamples.js';
import { testContext } from '../support/specification.js';
import {
  CHILD_GROUP,
  CHILD_MISSION,
  CONTRACT,
  COORD,
  COORD2,
  GROUP,
  MISSION,
  OWNER,
  REVOKED,
  T0,
  WORK,
  WORKER,
  WORLD,
  at,
  command,
  expectStateValid,
  expectValid,
  groupSpec,
  history,
  stateOf,
  steps,
  verifiedWorkHistory,
} from './fixtures.js';
import { expectedAuthorized, expectedPromotion, PROMOTION_RULE, type CreationInput } from './expectedEvents.js';
import type { RefusalReason } from '../support/specification.js';
import { COMMON_REASONS } from '../../src/domain/commonReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { MISSION_REASONS } from '../../src/domain/mission/missionReasons.js';
import { workItemIn } from './workDocuments.js';

const created = history([steps.create, steps.addMember(WORKER)]);
const withWork = history([steps.authorize()], created);
const state = stateOf(withWork);

function authorize(payload: object = {}, actor = COORD, from: GroupState = stateOf(created), extra: object = {}) {
  return command(from, actor, 'work.authorize', { workItemId: 'urn:missionweave:work-item:w2', contract: CONTRACT, ...payload }, extra);
}

const CHILD = {
  ...(PAYLOAD_EXAMPLES['mission.create_child'] as unknown as CreationInput & { failurePolicy: string; parentWorkItemId: string }),
  missionId: CHILD_MISSION,
  groupId: CHILD_GROUP,
  parentWorkItemId: WORK,
  coordinatorId: COORD2.id,
  deadline: '2026-09-15T17:00:00Z',
  budget: { currency: 'EUR', financialLimit: 50, modelTokenLimit: 100000 },
  permissions: ['db.read'],
};

function createChild(payload: object = {}, actor = COORD, from: GroupState = state, extra: object = {}) {
  return command(from, actor, 'mission.create_child', { ...CHILD, ...payload }, extra);
}

const OWNED = {
  owner: {
    agentId: WORKER.id,
    agentCardVersion: 3,
    capabilityPins: [{ id: 'acme.sql-migration', version: '1.4.0' }],
    ownershipEpoch: 1,
    ownershipLeaseId: 'urn:missionweave:lease:own-1',
    acceptedAt: T0,
  },
  selectionBasis: {
    requiredCapabilities: [{ id: 'acme.sql-migration', version: '1.4.0' }],
    verifiedMatches: [{ id: 'acme.sql-migration', version: '1.4.0' }],
    authorizationEligible: true,
    availabilityEstimate: T0,
    expectedCost: 12,
    reliabilityEvidence: [],
    policyRulesApplied: ['default-placement'],
  },
};

const OWNERSHIP_LEASE = {
  leaseId: 'urn:missionweave:lease:own-1',
  leaseType: 'ownership',
  missionId: MISSION,
  groupId: GROUP,
  workItemId: WORK,
  holderAgentId: WORKER.id,
  sessionEpoch: 1,
  ownershipEpoch: 1,
  issuedAt: T0,
  startsAt: T0,
  expiresAt: at(900),
  state: 'active',
  renewalCount: 0,
};

const W2 = 'urn:missionweave:work-item:w2';

/** `withWork` with its WorkItem rewritten as later WorkItem Commands may leave it. */
function withWorkItem(change: object): RecordedEvent[] {
  return withWork.map((event) =>
    event.kind !== 'work.authorized'
      ? event
      : { ...event, payload: { ...event.payload, workItem: { ...(event.payload['workItem'] as object), ...change } } },
  );
}

describe('work.authorize', () => {
  it('creates an open WorkItem at revision 1 with its dedicated Conversation', () => {
    const after = groupSpec
      .given(created)
      .when(authorize({ conversationId: 'urn:missionweave:conversation:w2' }, COORD, stateOf(created), { workItemId: 'urn:missionweave:work-item:w2', expectedRevision: 0 }))
      .then([expectedAuthorized(W2, 'urn:missionweave:conversation:w2')]) as GroupState;
    const workItem = after.workItems.get('urn:missionweave:work-item:w2');
    expect(workItem).toMatchObject({ state: 'open', revision: 1, exclusive: true, createdBy: COORD, authorizedBy: COORD, conversationId: 'urn:missionweave:conversation:w2' });
    expect(after.conversations.get('urn:missionweave:conversation:w2')).toMatchObject({ type: 'work_item', primaryWorkItemId: 'urn:missionweave:work-item:w2', revision: 0, title: CONTRACT.goal });
    expect(after.mission).toBe(stateOf(created).mission);
    expectStateValid(after);
  });

  it('derives the Conversation ID, honours exclusive and links a parent WorkItem', () => {
    const after = groupSpec
      .given(withWork)
      .when(authorize({ exclusive: false, parentWorkItemId: WORK, dependencyIds: [WORK], contract: { ...CONTRACT, dependencyWorkItemIds: [WORK] } }, COORD, state))
      .then([
        expectedAuthorized(W2, 'urn:test:id:when-1', { exclusive: false, contract: { ...CONTRACT, dependencyWorkItemIds: [WORK] }, links: { parentWorkItemId: WORK } }),
      ]) as GroupState;
    const workItem = after.workItems.get('urn:missionweave:work-item:w2');
    expect(workItem?.exclusive).toBe(false);
    expect(workItem?.conversationId).toMatch(/^urn:test:id:when-/);
    expect(linksOf(workItem!)).toEqual({ parentWorkItemId: WORK });
    expect(workItemIn(after, 'urn:missionweave:work-item:w2').extensions?.[WORK_LINKS_EXTENSION]?.critical).toBe(false);
    expectStateValid(after);
  });

  it('needs Coordinator authority (AUTH_FORBIDDEN, AUTH_STALE_COORDINATOR, WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(created).when(authorize({}, OWNER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(authorize({}, WORKER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(authorize({}, COORD, stateOf(created), { coordinatorEpoch: 2 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(created).when(authorize(), { now: at(600) }).thenFails('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired);
  });

  it('needs an active Mission (INVALID_STATE_TRANSITION)', () => {
    const submitted = history([steps.submit()], verifiedWorkHistory(history([steps.authorize()], created)));
    groupSpec.given(submitted).when(authorize({}, COORD, stateOf(submitted))).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionState);
  });

  it('needs an unused WorkItem ID and Conversation ID (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(withWork).when(authorize({ workItemId: WORK }, COORD, state)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemIdTaken);
    groupSpec.given(withWork).when(authorize({ conversationId: state.group.mainConversationId }, COORD, state)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.conversationIdTaken);
    groupSpec.given(withWork).when(authorize({ workItemId: WORK }, COORD, state, { expectedRevision: 0 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
  });

  it('refuses what it cannot honour yet or what does not fit the Mission (INVALID_COMMAND)', () => {
    const cases: [object, RefusalReason][] = [
      [{ delegationGrantId: 'urn:missionweave:delegation-grant:g' }, 'coordinator-cites-grant'],
      [{ proposalId: 'urn:missionweave:work-proposal:p' }, 'proposal-unknown'],
      [{ parentWorkItemId: 'urn:missionweave:work-item:none' }, 'parent-work-item-unknown'],
      [{ contract: { ...CONTRACT, dependencyWorkItemIds: ['urn:missionweave:work-item:none'] } }, 'dependency-unknown'],
      [{ dependencyIds: [WORK] }, 'dependencies-disagree'],
      [{ contract: { ...CONTRACT, deadline: '2026-10-30T00:00:00Z' } }, 'deadline-outside-mission'],
      [{ contract: { ...CONTRACT, deadline: '2026-08-30T00:00:00Z' } }, 'deadline-outside-mission'],
      [{ contract: { ...CONTRACT, budget: { currency: 'EUR', financialLimit: 5000 } } }, 'budget-exceeds-mission'],
      [{ contract: { ...CONTRACT, budget: { currency: 'USD', financialLimit: 5 } } }, 'budget-exceeds-mission'],
    ];
    for (const [payload, reason] of cases) groupSpec.given(withWork).when(authorize(payload, COORD, state)).thenFails('INVALID_COMMAND', reason);
    groupSpec.given(withWork).when(authorize({}, COORD, state, { workItemId: WORK })).thenFails('INVALID_COMMAND', GROUP_REASONS.envelopeTargetMismatch);
  });
});

describe('mission.create_child', () => {
  it('blocks the parent WorkItem, held by the acting Coordinator under a new Ownership Epoch, and founds the child Group', () => {
    const expected = expectedPromotion(state, CHILD);
    const after = groupSpec.given(withWork).when(createChild({}, COORD, state, { expectedRevision: 1, workItemId: WORK })).then(expected) as GroupState;
    const childEvent: RecordedEvent = { ...expected[1]!, payload: expected[1]!.payload, actor: COORD, occurredAt: T0, sequence: 1, eventId: 'urn:test:event:child-1' };

    const parentItem = after.workItems.get(WORK)!;
    expect(parentItem).toMatchObject({ revision: 2, state: 'blocked', updatedAt: at(0), owner: { agentId: COORD.id, ownershipEpoch: 1 } });
    expect(parentItem.selectionBasis?.policyRulesApplied).toEqual([PROMOTION_RULE]);
    expect(leasesOf(parentItem).ownership).toMatchObject({ leaseType: 'blocked', holderAgentId: COORD.id, ownershipEpoch: 1, expiresAt: '2026-09-15T17:00:00.000Z', state: 'active' });
    expect(linksOf(parentItem)).toEqual({ childMission: { missionId: CHILD_MISSION, groupId: CHILD_GROUP, failurePolicy: 'fail_parent_work_item' } });
    expect(after.mission).toBe(state.mission);
    expectStateValid(after);

    const child = evolveGroup(null, childEvent);
    expect(child.groupId).toBe(CHILD_GROUP);
    expect(child.mission).toMatchObject({
      missionId: CHILD_MISSION,
      missionOwner: COORD,
      parent: { missionId: MISSION, workItemId: WORK, depth: 1 },
      approvalPolicy: { finalHumanApproval: false, highRiskExecutionApproval: true, policyVersion: '2.0.1' },
      coordinator: { agentId: COORD2.id, coordinatorEpoch: 1 },
    });
    expect(child.memberships.get(principalKey(COORD))).toMatchObject({ role: 'mission_owner', membershipEpoch: 1 });
    expect(child.memberships.get(principalKey(COORD2))).toMatchObject({ role: 'coordinator', membershipEpoch: 1 });
    expect(child.missionNotes.permissions).toEqual(['db.read']);
    expectStateValid(child);
  });

  it('fences an earlier owner: its leases are revoked and the Ownership Epoch passes both its epoch and the last one granted', () => {
    const ownership = { ...OWNERSHIP_LEASE };
    const execution = { ...OWNERSHIP_LEASE, leaseId: 'urn:missionweave:lease:exec-1', leaseType: 'execution' };
    const owned = withWorkItem({ state: 'active', ...OWNED, extensions: { [WORK_LEASES_EXTENSION]: { version: '0.1.0', critical: false, data: { ownership, execution, lastOwnershipEpoch: 4 } } } });
    const revoked = (lease: object) => ({ ...lease, state: 'revoked', closedAt: T0, closureReason: `promoted to child Mission ${CHILD_MISSION}` });
    const after = groupSpec
      .given(owned)
      .when(createChild({}, COORD, stateOf(owned)))
      .then(expectedPromotion(stateOf(owned), CHILD, {}, COORD, COORD2, { epoch: 5, revokedLeases: [revoked(ownership), revoked(execution)], leases: { closed: [revoked(execution)] } })) as GroupState;
    const item = after.workItems.get(WORK)!;
    expect(item).toMatchObject({ state: 'blocked', owner: { agentId: COORD.id, ownershipEpoch: 5 }, revision: 2 });
    expectValid('work-item', workItemIn(after));
    // The fenced Worker's own Commands now meet a stale epoch and a foreign owner.
    expect(item.owner?.agentId).not.toBe(WORKER.id);
  });

  it('withdraws pending offers of an unowned parent WorkItem', () => {
    const offers = [{ offerId: 'urn:x:offer', agentId: WORKER.id, agentCardVersion: 3, expiresAt: at(300), status: 'pending' }];
    const offered = withWorkItem({ state: 'offered', offers });
    const after = groupSpec
      .given(offered)
      .when(createChild({}, COORD, stateOf(offered)))
      .then(expectedPromotion(stateOf(offered), CHILD, { offers: [{ ...offers[0], status: 'withdrawn' }] })) as GroupState;
    expect(after.workItems.get(WORK)).toMatchObject({ state: 'blocked', offers: [{ ...offers[0], status: 'withdrawn' }] });
    expectValid('work-item', workItemIn(after));
  });

  it('makes the child of a child one level deeper', () => {
    const decision = decideGroupCommand(state, createChild(), testContext({ ...WORLD, idPrefix: 'urn:test:id:nest-' }));
    if (!decision.ok) throw new Error(decision.error.reason);
    const [inParent, draft] = decision.events as [NonNullable<(typeof decision.events)[0]>, NonNullable<(typeof decision.events)[1]>];
    const childEvents: RecordedEvent[] = [{ kind: draft.kind, payload: JSON.parse(JSON.stringify(draft.payload)) as JsonObject, actor: COORD, occurredAt: T0, sequence: 1, eventId: 'urn:test:event:c1' }];
    // The child Group's Commands see the parent Group as their ancestry (§14).
    const ancestors = [evolveGroup(state, { kind: inParent.kind, payload: JSON.parse(JSON.stringify(inParent.payload)) as JsonObject, actor: COORD, occurredAt: T0, sequence: state.lastSequence + 1, eventId: 'urn:test:event:p1' })];
    const small = { ...CONTRACT, deadline: '2026-09-10T00:00:00Z', budget: { currency: 'EUR', financialLimit: 10 } };
    const childWork = history([(s) => command(s!, COORD2, 'work.authorize', { workItemId: 'urn:missionweave:work-item:cw', contract: small })], childEvents, { ancestors });
    const grandChildPayload = {
      ...CHILD,
      // A grandchild repeating its parent's objective would be duplicate decomposition (§20).
      objective: 'One part of the child Mission.',
      missionId: 'urn:missionweave:mission:grandchild',
      groupId: 'urn:missionweave:group:grandchild',
      parentWorkItemId: 'urn:missionweave:work-item:cw',
      coordinatorId: WORKER.id,
      deadline: '2026-09-05T00:00:00Z',
      budget: { currency: 'EUR', financialLimit: 5 },
    };
    const childState = stateOf(childWork);
    expect(childState.mission.parent?.depth).toBe(1);
    const expected = expectedPromotion(childState, grandChildPayload, {}, COORD2, WORKER);
    expect(expected[1]?.payload['mission']).toMatchObject({ parent: { missionId: CHILD_MISSION, workItemId: 'urn:missionweave:work-item:cw', depth: 2 } });
    groupSpec.given(childWork).when(command(childState, COORD2, 'mission.create_child', grandChildPayload), { ancestors }).then(expected);
  });

  it('needs Coordinator authority (AUTH_FORBIDDEN, AUTH_STALE_COORDINATOR, WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(withWork).when(createChild({}, OWNER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(withWork).when(createChild({}, WORKER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(withWork).when(createChild({}, COORD, state, { coordinatorEpoch: 7 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(withWork).when(createChild(), { now: at(601) }).thenFails('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired);
  });

  it('needs an active parent Mission (INVALID_STATE_TRANSITION)', () => {
    const submitted = history([steps.submit()], verifiedWorkHistory(withWork));
    groupSpec.given(submitted).when(createChild({}, COORD, stateOf(submitted))).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionState);
  });

  it('needs the parent WorkItem in this Group (INVALID_COMMAND)', () => {
    groupSpec.given(withWork).when(createChild({ parentWorkItemId: 'urn:missionweave:work-item:none' })).thenFails('INVALID_COMMAND', 'parent-work-item-unknown');
  });

  it('needs a parent WorkItem without a child, in a promotable state (INVALID_STATE_TRANSITION)', () => {
    const once = history([(s) => createChild({}, COORD, s!)], withWork);
    groupSpec
      .given(once)
      .when(createChild({ missionId: 'urn:missionweave:mission:m3', groupId: 'urn:missionweave:group:g3' }, COORD, stateOf(once)))
      .thenFails('INVALID_STATE_TRANSITION', 'work-item-has-child');
    for (const workState of ['failed', 'cancelled']) {
      const events = withWorkItem({ state: workState });
      groupSpec.given(events).when(createChild({}, COORD, stateOf(events))).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.workItemNotPromotable);
    }
  });

  it('needs child deadline, budget and permissions within the parent’s (INVALID_COMMAND)', () => {
    groupSpec.given(withWork).when(createChild({ deadline: '2026-10-15T00:00:00Z' })).thenFails('INVALID_COMMAND', MISSION_REASONS.deadlineAfterParent);
    groupSpec.given(withWork).when(createChild({ deadline: '2026-09-25T00:00:00Z' })).thenFails('INVALID_COMMAND', MISSION_REASONS.deadlineAfterParent);
    groupSpec.given(withWork).when(createChild({ budget: { currency: 'EUR', financialLimit: 200 } })).thenFails('INVALID_COMMAND', MISSION_REASONS.budgetExceedsParent);
    groupSpec.given(withWork).when(createChild({ budget: { toolCallLimit: 9000 } })).thenFails('INVALID_COMMAND', MISSION_REASONS.budgetExceedsParent);
    groupSpec.given(withWork).when(createChild({ permissions: ['db.drop'] })).thenFails('INVALID_COMMAND', 'permission-exceeds-parent');
  });

  it('applies the creation checks to the child (INVALID_STATE_TRANSITION, INVALID_COMMAND)', () => {
    groupSpec.given(withWork).when(createChild(), { groups: [CHILD_GROUP] }).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.groupIdTaken);
    groupSpec.given(withWork).when(createChild({ groupId: GROUP })).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.groupIdTaken);
    groupSpec
      .given(withWork)
      .when(createChild(), { missions: [{ missionId: CHILD_MISSION, groupId: 'urn:x:g', state: 'active', missionOwner: OWNER }] })
      .thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.missionIdTaken);
    groupSpec.given(withWork).when(createChild({ coordinatorId: REVOKED.id })).thenFails('INVALID_COMMAND', MISSION_REASONS.coordinatorCardInactive);
    groupSpec.given(withWork).when(createChild({ deadline: '2026-08-01T00:00:00Z' })).thenFails('INVALID_COMMAND', MISSION_REASONS.deadlinePassed);
    groupSpec.given(withWork).when(createChild({ coordinatorId: COORD.id })).thenFails('INVALID_COMMAND', MISSION_REASONS.childCoordinatorIsOwner);
  });

  it('checks expectedRevision against the parent WorkItem (REVISION_CONFLICT) and the envelope workItemId (INVALID_COMMAND)', () => {
    groupSpec.given(withWork).when(createChild({}, COORD, state, { expectedRevision: 2 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
    groupSpec.given(withWork).when(createChild({}, COORD, state, { workItemId: 'urn:missionweave:work-item:other' })).thenFails('INVALID_COMMAND', GROUP_REASONS.envelopeTargetMismatch);
  });
});
