/**
 * The child-Mission rows of §10.2 and §14: a terminal child settled on its parent WorkItem by
 * `ext.missionweave.core.child_mission_settle` (approval → `verified` with the child's Approval as
 * Evidence; failure by the declared failure policy; cancellation leaves the WorkItem `blocked`),
 * a replacement child after a failed one, and parent-cancellation propagation through
 * `mission.cancel` (§7.1). The child's outcome comes from the world (the preloaded Mission facts).
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { MissionFacts, RecordedEvent } from '../../src/domain/model.js';
import { leasesOf } from '../../src/domain/workItem/workLeases.js';
import { linksOf } from '../../src/domain/workItem/workItemDocuments.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { decideGroupCommand } from '../support/coreDecider.js';
import { testContext, type World } from '../support/specification.js';
import { expectedChildApproved, expectedPromotion } from './expectedEvents.js';
import {
  AUTHORITY,
  CHILD_GROUP,
  CHILD_MISSION,
  COORD,
  COORD2,
  HASH_A,
  HASH_B,
  MISSION,
  OWNER,
  REGISTRY,
  T0,
  WORK,
  WORKER,
  WORLD,
  command,
  expectStateValid,
  groupSpec,
  history,
  stateOf,
  steps,
} from './fixtures.js';
import { MISSION_REASONS } from '../../src/domain/mission/missionReasons.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { workItemIn } from './workDocuments.js';
import { workItemDocument } from '../../src/domain/workItem/workRecord.js';

const SETTLE = 'ext.missionweave.core.child_mission_settle';
const W2 = 'urn:missionweave:work-item:w2';
const APPROVAL_ID = 'urn:missionweave:approval:child-1';

const CHILD = {
  missionId: CHILD_MISSION,
  groupId: CHILD_GROUP,
  parentWorkItemId: WORK,
  coordinatorId: COORD2.id,
  title: 'Child',
  objective: 'A part of the work.',
  definitionOfDone: [{ criterionId: 'c1', description: 'done', evidenceRequired: ['human_review'] }],
  budget: { currency: 'EUR', financialLimit: 10 },
  deadline: '2026-09-10T00:00:00Z',
};

type Policy = 'block_parent_work_item' | 'fail_parent_work_item' | 'fail_parent_mission';

/** A Mission with two open WorkItems, w1 promoted to the child under `policy`. */
function promoted(policy: Policy): RecordedEvent[] {
  return history([
    steps.create,
    steps.addMember(WORKER),
    steps.authorize(),
    steps.authorize(W2),
    (s) => command(s!, COORD, 'mission.create_child', { ...CHILD, failurePolicy: policy }),
  ]);
}

/** The child as the store holds it. */
function child(state: string, extra: Partial<MissionFacts> = {}): MissionFacts {
  return { missionId: CHILD_MISSION, groupId: CHILD_GROUP, state, missionOwner: COORD, parent: { missionId: MISSION, workItemId: WORK }, ...extra };
}

const APPROVED = child('approved', { approval: { approvalId: APPROVAL_ID, artifactHashes: [HASH_A, HASH_B] } });
const FAILED = child('failed', { closureReason: 'the vendor API is gone' });
const CANCELLED = child('cancelled', { closureReason: 'superseded' });

function settle(state: GroupState, actor = AUTHORITY, payload: object = {}) {
  return command(state, actor, SETTLE, { parentWorkItemId: WORK, childMissionId: CHILD_MISSION, ...payload });
}

function world(facts: MissionFacts): Partial<World> {
  return { missions: [facts] };
}

/** The settled child link of `state`'s w1 with `outcome`. */
function settledLinks(state: GroupState, outcome: object): object {
  const link = linksOf(state.workItems.get(WORK)!).childMission!;
  return { 'urn:missionweave:extension:work-item-links': { version: '0.1.0', critical: false, data: { childMission: { ...link, outcome } } } };
}

function leasesExtension(data: object): object {
  return { 'urn:missionweave:extension:work-leases': { version: '0.1.0', critical: false, data } };
}

const SETTLEMENT = { childMissionId: CHILD_MISSION, childGroupId: CHILD_GROUP };

/** `work.blocked` keeping w1 of `state` blocked, with the child's end as its blocker. */
function expectedStillBlocked(state: GroupState, outcome: { state: string; reason: string }) {
  const item = state.workItems.get(WORK)!;
  const reason = `child Mission ${CHILD_MISSION} ${outcome.state}: ${outcome.reason}`;
  const settled = { ...outcome, settledAt: T0 };
  const lease = leasesOf(item).ownership!;
  const workItem = {
    ...workItemDocument(item),
    revision: 3,
    progress: { ...item.progress, currentPhase: 'child_mission_ended', nextCheckpoint: 'Coordinator replans', blockers: [reason] },
    updatedAt: T0,
    extensions: { ...workItemDocument(item).extensions, ...leasesExtension({ lastOwnershipEpoch: 1 }), ...settledLinks(state, settled) },
  };
  return {
    kind: 'work.blocked',
    payload: {
      workItemId: WORK,
      workItem,
      reason,
      checkpoint: { phase: 'child_mission_ended', createdAt: T0 },
      blockedLeaseExpiresAt: T0,
      ownershipLeaseExpiresAt: T0,
      releasedOwnershipLease: { ...lease, state: 'released', closedAt: T0, closureReason: `child Mission ${outcome.state}` },
      ...SETTLEMENT,
      outcome: settled,
    },
  };
}

describe('linked child Mission approval (§10.2: blocked → verified)', () => {
  it('verifies the parent WorkItem with the child Approval as Evidence and its Artifact set, releasing the blocked lease', () => {
    const events = promoted('fail_parent_work_item');
    const state = stateOf(events);
    const after = groupSpec
      .given(events)
      .when(settle(state, AUTHORITY), world(APPROVED))
      .then([expectedChildApproved(state, WORK, { missionId: CHILD_MISSION, groupId: CHILD_GROUP, approvalId: APPROVAL_ID, artifactHashes: [HASH_A, HASH_B] })]) as GroupState;
    expect(after.workItems.get(WORK)?.state).toBe('verified');
    expectStateValid(after);
  });

  it('refuses an approved child without a recorded Approval (INVALID_STATE_TRANSITION)', () => {
    const events = promoted('fail_parent_work_item');
    groupSpec.given(events).when(settle(stateOf(events)), world(child('approved'))).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.childApprovalMissing);
  });
});

describe('linked child Mission failure (§10.2: blocked → blocked or failed, by the declared policy)', () => {
  it('block_parent_work_item: stays blocked, the structured failure its blocker', () => {
    const events = promoted('block_parent_work_item');
    const state = stateOf(events);
    const after = groupSpec
      .given(events)
      .when(settle(state), world(FAILED))
      .then([expectedStillBlocked(state, { state: 'failed', reason: 'the vendor API is gone' })]) as GroupState;
    expect(after.workItems.get(WORK)).toMatchObject({ state: 'blocked', owner: { agentId: COORD.id } });
    expectStateValid(after);
  });

  it('fail_parent_work_item: the WorkItem fails with the failure as Evidence, its lease revoked; the Mission goes on', () => {
    const events = promoted('fail_parent_work_item');
    const state = stateOf(events);
    const item = state.workItems.get(WORK)!;
    const lease = leasesOf(item).ownership!;
    const outcome = { state: 'failed', settledAt: T0, reason: 'the vendor API is gone' };
    const reason = `child Mission ${CHILD_MISSION} failed: the vendor API is gone`;
    const workItem = { ...workItemDocument(item), revision: 3, state: 'failed', updatedAt: T0, extensions: { ...workItemDocument(item).extensions, ...leasesExtension({ lastOwnershipEpoch: 1 }), ...settledLinks(state, outcome) } };
    const after = groupSpec
      .given(events)
      .when(settle(state), world(FAILED))
      .then([
        {
          kind: 'work.failed',
          payload: {
            workItemId: WORK,
            workItem,
            reason,
            evidence: [{ kind: 'child_mission_failure', childMissionId: CHILD_MISSION, state: 'failed', reason: 'the vendor API is gone' }],
            revokedLeases: [{ ...lease, state: 'revoked', closedAt: T0, closureReason: reason }],
            ...SETTLEMENT,
            outcome,
          },
        },
      ]) as GroupState;
    expect(after.mission.state).toBe('active');
    expect(after.workItems.get(W2)?.state).toBe('open');
    expectStateValid(after);
  });

  it('fail_parent_mission: the WorkItem fails, then the Mission, taking its unfinished WorkItems', () => {
    const events = promoted('fail_parent_mission');
    const state = stateOf(events);
    const reason = `child Mission ${CHILD_MISSION} failed: the vendor API is gone`;
    const decision = groupSpec.given(events).when(settle(state), world(FAILED));
    const after = decision.then(
      [
        decision.decision.ok ? { kind: 'work.failed', payload: decision.decision.events[0]!.payload as JsonObject } : { kind: 'refused', payload: {} },
        {
          kind: 'mission.terminated',
          payload: {
            reason,
            mission: { ...state.mission, state: 'failed', revision: state.mission.revision + 1 },
            coordinatorLease: { ...state.coordinatorLease, state: 'revoked', closedAt: T0, closureReason: 'Mission failed' },
            workItems: [{ ...workItemIn(state, W2), state: 'failed', revision: 2, updatedAt: T0 }],
          },
        },
      ],
    ) as GroupState;
    expect(after.mission.state).toBe('failed');
    expect(after.missionNotes.closureReason).toBe(reason);
    expect(after.workItems.get(WORK)).toMatchObject({ state: 'failed', revision: 3 });
    expect(after.workItems.get(W2)).toMatchObject({ state: 'failed', revision: 2 });
    expectStateValid(after);
  });
});

describe('linked child Mission cancellation', () => {
  it('leaves the parent WorkItem blocked for the Coordinator to replan, whatever the failure policy', () => {
    for (const policy of ['fail_parent_work_item', 'fail_parent_mission'] as const) {
      const events = promoted(policy);
      const state = stateOf(events);
      const after = groupSpec.given(events).when(settle(state), world(CANCELLED)).then([expectedStillBlocked(state, { state: 'cancelled', reason: 'superseded' })]) as GroupState;
      expect(after.mission.state).toBe('active');
      expect(linksOf(after.workItems.get(WORK)!).childMission?.outcome).toEqual({ state: 'cancelled', settledAt: T0, reason: 'superseded' });
      expectStateValid(after);
    }
  });

  it('lets the Coordinator unblock it once the child ended: open again, the Coordinator no longer its owner', () => {
    const running = promoted('block_parent_work_item');
    groupSpec.given(running).when(command(stateOf(running), COORD, 'work.unblock', { workItemId: WORK })).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemAwaitingChild);
    const settled = history([(s) => settle(s!)], running, world(FAILED));
    const after = stateOf(history([(s) => command(s!, COORD, 'work.unblock', { workItemId: WORK })], settled));
    expect(after.workItems.get(WORK)).toMatchObject({ state: 'open', progress: { blockers: [] } });
    expect(after.workItems.get(WORK)?.owner).toBeUndefined();
    expectStateValid(after);
  });

  it('lets the Coordinator promote the WorkItem to a replacement child, under the next Ownership Epoch', () => {
    const settled = history([(s) => settle(s!)], promoted('block_parent_work_item'), world(FAILED));
    const state = stateOf(settled);
    const replacement = { ...CHILD, missionId: 'urn:missionweave:mission:m1-child-2', groupId: 'urn:missionweave:group:g1-child-2' };
    // The settlement released the Coordinator's blocked lease: nothing is left to revoke.
    expect(leasesOf(state.workItems.get(WORK)!).ownership).toBeUndefined();
    const after = groupSpec
      .given(settled)
      .when(command(state, COORD, 'mission.create_child', replacement))
      .then(expectedPromotion(state, replacement, {}, COORD, COORD2, { epoch: 2, revokedLeases: [] })) as GroupState;
    expect(after.workItems.get(WORK)?.owner?.ownershipEpoch).toBe(2);
    expect(linksOf(after.workItems.get(WORK)!).childMission).toEqual({ missionId: replacement.missionId, groupId: replacement.groupId, failurePolicy: 'block_parent_work_item' });
  });

  it('refuses a replacement while the child runs (INVALID_STATE_TRANSITION)', () => {
    const events = promoted('block_parent_work_item');
    const replacement = { ...CHILD, missionId: 'urn:missionweave:mission:m1-child-2', groupId: 'urn:missionweave:group:g1-child-2' };
    groupSpec.given(events).when(command(stateOf(events), COORD, 'mission.create_child', replacement)).thenFails('INVALID_STATE_TRANSITION', 'work-item-has-child');
  });
});

describe('refusals', () => {
  const events = promoted('fail_parent_work_item');
  const state = stateOf(events);

  it('only the Group Authority settles (AUTH_FORBIDDEN)', () => {
    groupSpec.given(events).when(settle(state, COORD), world(APPROVED)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(events).when(settle(state, OWNER), world(APPROVED)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(events).when(settle(state, REGISTRY), world(APPROVED)).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
  });

  it('refuses a child that still runs (INVALID_STATE_TRANSITION)', () => {
    for (const running of ['active', 'awaiting_approval']) {
      groupSpec.given(events).when(settle(state), world(child(running))).thenFails('INVALID_STATE_TRANSITION', 'child-mission-running');
    }
  });

  it('refuses a child the store does not link to the WorkItem (INVALID_COMMAND)', () => {
    groupSpec.given(events).when(settle(state), { missions: [] }).thenFails('INVALID_COMMAND', MISSION_REASONS.childMissionNotLinked);
    groupSpec.given(events).when(settle(state), world(child('approved', { groupId: 'urn:x:other-group' }))).thenFails('INVALID_COMMAND', MISSION_REASONS.childMissionNotLinked);
    groupSpec.given(events).when(settle(state), world(child('approved', { parent: { missionId: MISSION, workItemId: W2 } }))).thenFails('INVALID_COMMAND', MISSION_REASONS.childMissionNotLinked);
    groupSpec.given(events).when(settle(state, AUTHORITY, { parentWorkItemId: W2 }), world(APPROVED)).thenFails('INVALID_COMMAND', MISSION_REASONS.childMissionNotLinked);
    groupSpec.given(events).when(settle(state, AUTHORITY, { parentWorkItemId: 'urn:x:none' }), world(APPROVED)).thenFails('INVALID_COMMAND', 'work-item-unknown');
  });

  it('settles once: a second settlement is refused (INVALID_STATE_TRANSITION)', () => {
    const blockedOnce = history([(s) => settle(s!)], promoted('block_parent_work_item'), world(FAILED));
    groupSpec.given(blockedOnce).when(settle(stateOf(blockedOnce)), world(FAILED)).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.childMissionSettled);
    const verified = history([(s) => settle(s!)], events, world(APPROVED));
    groupSpec.given(verified).when(settle(stateOf(verified)), world(APPROVED)).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.childMissionSettled);
  });

  it('refuses a parent WorkItem that left blocked (INVALID_STATE_TRANSITION)', () => {
    const moved = events.map((event) =>
      event.kind !== 'mission.child.created' ? event : { ...event, payload: { ...event.payload, workItem: { ...(event.payload['workItem'] as object), state: 'cancelled' } } },
    );
    groupSpec.given(moved).when(settle(stateOf(moved)), world(APPROVED)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
  });
});

/** The child Group as its first Event founds it. */
function childGroup(): RecordedEvent[] {
  const base = history([steps.create, steps.addMember(WORKER), steps.authorize()]);
  const decision = decideGroupCommand(stateOf(base), command(stateOf(base), COORD, 'mission.create_child', CHILD), testContext({ ...WORLD, idPrefix: 'urn:test:id:c-' }));
  if (!decision.ok) throw new Error(decision.error.reason);
  const draft = decision.events[1]!;
  return [{ kind: draft.kind, payload: JSON.parse(JSON.stringify(draft.payload)) as JsonObject, actor: COORD, occurredAt: T0, sequence: 1, eventId: 'urn:test:event:c1' }];
}

describe('parent-cancellation propagation (§7.1, §14): mission.cancel citing the parent', () => {
  const events = childGroup();
  const state = stateOf(events);
  const parent = (parentState: string): Partial<World> => ({ missions: [{ missionId: MISSION, groupId: 'urn:missionweave:group:g1', state: parentState, missionOwner: OWNER }] });
  const propagate = (actor = AUTHORITY, parentMissionId = MISSION) =>
    command(state, actor, 'mission.cancel', { reason: `parent Mission ${MISSION} cancelled`, parentMissionId });

  it('cancels a running child of a cancelled or failed parent, by the Group Authority', () => {
    for (const parentState of ['cancelled', 'failed']) {
      const after = groupSpec
        .given(events)
        .when(propagate(), parent(parentState))
        .then([
          {
            kind: 'mission.cancelled',
            payload: {
              reason: `parent Mission ${MISSION} cancelled`,
              mission: { ...state.mission, state: 'cancelled', revision: 2 },
              coordinatorLease: { ...state.coordinatorLease, state: 'revoked', closedAt: T0, closureReason: 'Mission cancelled' },
              workItems: [],
            },
          },
        ]) as GroupState;
      expect(after.missionNotes.closureReason).toBe(`parent Mission ${MISSION} cancelled`);
    }
  });

  it('trusts the store: a parent that is not ended, or not known, is refused (INVALID_STATE_TRANSITION)', () => {
    for (const parentState of ['active', 'awaiting_approval', 'approved']) {
      groupSpec.given(events).when(propagate(), parent(parentState)).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.parentMissionNotEnded);
    }
    groupSpec.given(events).when(propagate(), { missions: [] }).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.parentMissionNotEnded);
  });

  it('refuses a Mission that is not the parent (INVALID_COMMAND) and a propagation by anyone but the Authority (AUTH_FORBIDDEN)', () => {
    groupSpec.given(events).when(propagate(AUTHORITY, 'urn:missionweave:mission:other'), parent('cancelled')).thenFails('INVALID_COMMAND', MISSION_REASONS.notTheParentMission);
    groupSpec.given(events).when(propagate(COORD), parent('cancelled')).thenFails('AUTH_FORBIDDEN', MISSION_REASONS.propagationByAuthorityOnly);
  });

  it('is refused once the child has ended (INVALID_STATE_TRANSITION): issuing it twice changes nothing', () => {
    const cancelled = history([() => propagate()], events, parent('cancelled'));
    groupSpec.given(cancelled).when(command(stateOf(cancelled), AUTHORITY, 'mission.cancel', { reason: 'again', parentMissionId: MISSION }), parent('cancelled')).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
  });
});

describe('a parent WorkItem’s end (§10.2, §14): work.cancel / work.fail release the child, mission.cancel citing the WorkItem ends it', () => {
  const childEvents = childGroup();
  const childState = stateOf(childEvents);
  const waiting = promoted('block_parent_work_item');
  const cancelled = history([(s) => command(s!, COORD, 'work.cancel', { workItemId: WORK, reason: 'dropped' })], waiting);
  const propagate = (parentWorkItemId = WORK) =>
    command(childState, AUTHORITY, 'mission.cancel', { reason: `parent WorkItem ${WORK} cancelled`, parentMissionId: MISSION, parentWorkItemId });

  it('work.cancel releases the running child on the link, and nothing is settled on it after', () => {
    const link = linksOf(stateOf(cancelled).workItems.get(WORK)!).childMission;
    expect(link).toMatchObject({ missionId: CHILD_MISSION, released: { state: 'cancelled', releasedAt: T0 } });
    expect(link?.outcome).toBeUndefined();
    groupSpec.given(cancelled).when(settle(stateOf(cancelled)), world(CANCELLED)).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.childMissionReleased);
  });

  it('cancels the child by the Group Authority once the parent Group shows the WorkItem ended', () => {
    groupSpec
      .given(childEvents)
      .when(propagate(), { ancestors: [stateOf(cancelled)] })
      .then([
        {
          kind: 'mission.cancelled',
          payload: {
            reason: `parent WorkItem ${WORK} cancelled`,
            mission: { ...childState.mission, state: 'cancelled', revision: 2 },
            coordinatorLease: { ...childState.coordinatorLease, state: 'revoked', closedAt: T0, closureReason: 'Mission cancelled' },
            workItems: [],
          },
        },
      ]);
  });

  it('trusts the parent Group’s state: a WorkItem still waiting, or no state, is refused; so is another WorkItem', () => {
    groupSpec.given(childEvents).when(propagate(), { ancestors: [stateOf(waiting)] }).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.parentWorkItemNotEnded);
    groupSpec.given(childEvents).when(propagate(), {}).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.parentWorkItemNotEnded);
    groupSpec.given(childEvents).when(propagate(W2), { ancestors: [stateOf(cancelled)] }).thenFails('INVALID_COMMAND', MISSION_REASONS.notTheParentWorkItem);
  });
});
