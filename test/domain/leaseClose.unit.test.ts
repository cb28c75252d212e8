/**
 * `ext.missionweave.core.work_lease_close` (docs/transitions.md, §11.3): the Group Authority
 * closes an expired lease, the Execution Lease of a replaced Session, or the ownership of an owner
 * whose Agent Card changed incompatibly (§6.1), and refuses whatever no longer applies, so that
 * every node may send it at once and twice over.
 */

import { describe, expect, it } from 'vitest';
import type { Lease, WorkItem } from '../../src/domain/documents.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import { liveOwnerOf } from '../../src/domain/workItem/fencing.js';
import { leasesOf, WORK_LEASES_EXTENSION } from '../../src/domain/workItem/workLeases.js';
import { testContext } from '../support/specification.js';
import { AUTHORITY, COORD, GROUP, MISSION, REGISTRY, T0, WORK, WORKER, WORLD, agent, at, command, expectStateValid, groupSpec, history, stateOf, steps } from './fixtures.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { workItemIn } from './workDocuments.js';

const KIND = 'ext.missionweave.core.work_lease_close';
const OWN = 'urn:missionweave:lease:own-1';
const EXE = 'urn:missionweave:lease:exe-1';

function lease(leaseId: string, leaseType: Lease['leaseType'], expiresAt: string, sessionEpoch = 1): Lease {
  return { leaseId, leaseType, missionId: MISSION, groupId: GROUP, workItemId: WORK, holderAgentId: WORKER.id, sessionEpoch, ownershipEpoch: 1, issuedAt: T0, startsAt: T0, expiresAt, state: 'active', renewalCount: 0 };
}

const OWNERSHIP = lease(OWN, 'ownership', at(600));
const EXECUTION = lease(EXE, 'execution', at(120));
const PIN = { id: 'code.review', version: '1.0.0' };
const OWNER_OF = { agentId: WORKER.id, agentCardVersion: 3, capabilityPins: [PIN], ownershipEpoch: 1, ownershipLeaseId: OWN, acceptedAt: T0 };
const SELECTION_BASIS = {
  requiredCapabilities: [PIN],
  verifiedMatches: [PIN],
  authorizationEligible: true,
  availabilityEstimate: T0,
  expectedCost: 1,
  reliabilityEvidence: [],
  policyRulesApplied: ['default-placement'],
};

const created = history([steps.create, steps.addMember(WORKER)]);
const withWork = history([steps.authorize()], created);

/** `withWork` with its WorkItem owned by worker-7 in `state` under `leases` (as the work.* kinds leave it). */
function seeded(state: WorkItem['state'], leases: { ownership?: Lease; execution?: Lease }, base: readonly RecordedEvent[] = withWork): RecordedEvent[] {
  return base.map((event) => {
    if (event.kind !== 'work.authorized') return event;
    const workItem = event.payload['workItem'] as unknown as WorkItem;
    const data = { ...leases };
    const changed = { ...workItem, state, owner: OWNER_OF, selectionBasis: SELECTION_BASIS, extensions: { ...workItem.extensions, [WORK_LEASES_EXTENSION]: { version: '0.1.0', critical: false, data } } };
    return { ...event, payload: { ...event.payload, workItem: changed } } as unknown as RecordedEvent;
  });
}

const active = seeded('active', { ownership: OWNERSHIP, execution: EXECUTION });
const workItemOf = (events: readonly RecordedEvent[]): WorkItem => workItemIn(stateOf(events));

function close(payload: object, from: GroupState = stateOf(active), actor = AUTHORITY) {
  return command(from, actor, KIND, { workItemId: WORK, ownershipEpoch: 1, leaseId: EXE, holderAgentId: WORKER.id, cause: 'expired', ...payload });
}

/** The WorkItem after the closure, stated whole. */
function closedItem(events: readonly RecordedEvent[], state: WorkItem['state'], now: string, data: object): WorkItem {
  const before = workItemOf(events);
  return { ...before, state, revision: before.revision + 1, updatedAt: now, extensions: { ...before.extensions, [WORK_LEASES_EXTENSION]: { version: '0.1.0', critical: false, data } } } as WorkItem;
}

const closedLease = (l: Lease, state: Lease['state'], now: string, reason: string): Lease => ({ ...l, state, closedAt: now, closureReason: reason });

describe('ext.missionweave.core.work_lease_close: an expired Execution Lease', () => {
  it('closes it as expired and returns the WorkItem from active to queued; ownership stays', () => {
    const gone = closedLease(EXECUTION, 'expired', at(121), 'expired');
    const workItem = closedItem(active, 'queued', at(121), { ownership: OWNERSHIP, closed: [gone] });
    const after = groupSpec
      .given(active)
      .when(close({}), { now: at(121) })
      .then([
        {
          kind: 'ext.missionweave.core.work_lease_closed',
          payload: { workItemId: WORK, workItem, ownershipEpoch: 1, cause: 'expired', closedLease: gone, closedLeases: [gone] },
          aggregate: { type: 'work-item', id: WORK, revision: 2 },
          workItemId: WORK,
        },
      ]) as GroupState;
    const item = after.workItems.get(WORK)!;
    expect(liveOwnerOf(item, testContext({ ...WORLD, now: at(121) }))).toBe(WORKER.id);
    expect(leasesOf(item).execution).toBeUndefined();
    expectStateValid(after);
  });

  it('is refused while the lease still runs, and when it is no longer the current one (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(active).when(close({}), { now: at(119) }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.leaseNotExpired);
    expect(groupSpec.given(active).when(close({}), { now: at(120) }).decision.ok, 'expired at its expiry instant').toBe(true);
    const queued = seeded('queued', { ownership: OWNERSHIP });
    groupSpec.given(queued).when(close({}, stateOf(queued)), { now: at(121) }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.leaseNotCurrent);
    groupSpec.given(active).when(close({ leaseId: 'urn:missionweave:lease:older' }), { now: at(121) }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.leaseNotCurrent);
  });

  it('is refused a second time: the closure already happened (the second node, or the same twice)', () => {
    const once = history([(s) => close({}, s!)], active, { now: at(121) });
    groupSpec.given(once).when(close({}, stateOf(once)), { now: at(122) }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.leaseNotCurrent);
  });
});

describe('ext.missionweave.core.work_lease_close: an expired ownership or blocked lease', () => {
  it('fences the owner: every lease closed, an active WorkItem queued with no live owner, owner and epoch kept', () => {
    const both = seeded('active', { ownership: OWNERSHIP, execution: lease(EXE, 'execution', at(900)) });
    const own = closedLease(OWNERSHIP, 'expired', at(601), 'expired');
    const exe = closedLease(lease(EXE, 'execution', at(900)), 'expired', at(601), 'expired');
    const workItem = closedItem(both, 'queued', at(601), { closed: [exe] });
    const after = groupSpec
      .given(both)
      .when(close({ leaseId: OWN }, stateOf(both)), { now: at(601) })
      .then([{ kind: 'ext.missionweave.core.work_lease_closed', payload: { workItemId: WORK, workItem, ownershipEpoch: 1, cause: 'expired', closedLease: own, closedLeases: [own, exe] } }]) as GroupState;
    const item = after.workItems.get(WORK)!;
    expect(item.owner).toEqual(OWNER_OF);
    expect(liveOwnerOf(item, testContext({ ...WORLD, now: at(601) }))).toBeUndefined();
    expectStateValid(after);
  });

  it('keeps a queued or blocked WorkItem where it is, for the Coordinator to re-offer', () => {
    for (const [state, type] of [['queued', 'ownership'], ['blocked', 'blocked']] as const) {
      const events = seeded(state, { ownership: { ...OWNERSHIP, leaseType: type } });
      const own = closedLease({ ...OWNERSHIP, leaseType: type }, 'expired', at(601), 'expired');
      groupSpec
        .given(events)
        .when(close({ leaseId: OWN }, stateOf(events)), { now: at(601) })
        .then([{ kind: 'ext.missionweave.core.work_lease_closed', payload: { workItemId: WORK, workItem: closedItem(events, state, at(601), {}), ownershipEpoch: 1, cause: 'expired', closedLease: own, closedLeases: [own] } }]);
    }
  });

  it('is refused before the expiry, under another epoch, or for another holder', () => {
    groupSpec.given(active).when(close({ leaseId: OWN }), { now: at(599) }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.leaseNotExpired);
    groupSpec.given(active).when(close({ leaseId: OWN, ownershipEpoch: 2 }), { now: at(601) }).thenFails('WORK_STALE_OWNERSHIP', WORK_REASONS.ownershipEpochNotCurrent);
    groupSpec.given(active).when(close({ leaseId: OWN, holderAgentId: COORD.id }), { now: at(601) }).thenFails('INVALID_COMMAND', WORK_REASONS.leaseHolderMismatch);
    groupSpec.given(withWork).when(close({ leaseId: OWN }, stateOf(withWork)), { now: at(601) }).thenFails('WORK_STALE_OWNERSHIP', WORK_REASONS.ownershipEpochNotCurrent);
  });
});

describe('ext.missionweave.core.work_lease_close: a replaced Session', () => {
  const replaced = { agents: WORLD.agents.map((a) => (a.agentId === WORKER.id ? { ...a, sessionEpoch: 2 } : a)) };

  it('revokes the Execution Lease of the older Session and returns the WorkItem to queued before expiry', () => {
    const gone = closedLease(EXECUTION, 'revoked', at(10), 'session_replaced');
    const workItem = closedItem(active, 'queued', at(10), { ownership: OWNERSHIP, closed: [gone] });
    groupSpec
      .given(active)
      .when(close({ cause: 'session_replaced' }), { ...replaced, now: at(10) })
      .then([{ kind: 'ext.missionweave.core.work_lease_closed', payload: { workItemId: WORK, workItem, ownershipEpoch: 1, cause: 'session_replaced', closedLease: gone, closedLeases: [gone] } }]);
  });

  it('is refused while the lease belongs to the current Session, for an unknown holder, and for ownership', () => {
    groupSpec.given(active).when(close({ cause: 'session_replaced' }), { now: at(10) }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.sessionNotReplaced);
    groupSpec.given(active).when(close({ cause: 'session_replaced' }), { now: at(10), agents: [] }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.sessionNotReplaced);
    groupSpec.given(active).when(close({ cause: 'session_replaced', leaseId: OWN }), { ...replaced, now: at(10) }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.ownershipSurvivesSession);
  });
});

describe('ext.missionweave.core.work_lease_close: an Agent Card that no longer meets the contract (§6.1)', () => {
  const upgraded = (versions: readonly string[]) => ({ agents: WORLD.agents.map((a) => (a.agentId === WORKER.id ? agent(WORKER, 'active', new Map([['acme.sql-migration', versions]])) : a)) });

  it('fences the owner through its ownership lease, every lease revoked, an active WorkItem queued', () => {
    const own = closedLease(OWNERSHIP, 'revoked', at(10), 'card_incompatible');
    const exe = closedLease(EXECUTION, 'revoked', at(10), 'card_incompatible');
    const after = groupSpec
      .given(active)
      .when(close({ leaseId: OWN, cause: 'card_incompatible' }), { ...upgraded(['2.0.0']), now: at(10) })
      .then([{ kind: 'ext.missionweave.core.work_lease_closed', payload: { workItemId: WORK, workItem: closedItem(active, 'queued', at(10), { closed: [exe] }), ownershipEpoch: 1, cause: 'card_incompatible', closedLease: own, closedLeases: [own, exe] } }]) as GroupState;
    expect(after.workItems.get(WORK)?.owner).toEqual(OWNER_OF);
    expectStateValid(after);
  });

  it('is refused while the Card still meets the contract, for the Execution Lease, and for a child Mission’s holder', () => {
    // The contract requires acme.sql-migration ≥ 1.4.0: 1.9.1 is a compatible in-place upgrade.
    groupSpec.given(active).when(close({ leaseId: OWN, cause: 'card_incompatible' }), { ...upgraded(['1.9.1']), now: at(10) }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.cardCompatible);
    groupSpec.given(active).when(close({ cause: 'card_incompatible' }), { ...upgraded(['2.0.0']), now: at(10) }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.cardFencesOwnership);
    const link = { version: '0.1.0', critical: false, data: { childMission: { missionId: 'urn:x:child', groupId: 'urn:x:child-group', failurePolicy: 'block_parent_work_item' } } };
    const held = seeded('blocked', { ownership: { ...OWNERSHIP, leaseType: 'blocked' } }).map((e) => {
      const w = e.payload['workItem'] as WorkItem | undefined;
      return e.kind === 'work.authorized' && w !== undefined ? ({ ...e, payload: { ...e.payload, workItem: { ...w, extensions: { ...w.extensions, 'urn:missionweave:extension:work-item-links': link } } } } as unknown as RecordedEvent) : e;
    });
    groupSpec.given(held).when(close({ leaseId: OWN, cause: 'card_incompatible' }, stateOf(held)), { ...upgraded([]), now: at(10) }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.cardCompatible);
  });
});

describe('ext.missionweave.core.work_lease_close: who and what', () => {
  it('is the Group Authority service only (AUTH_FORBIDDEN)', () => {
    groupSpec.given(active).when(close({}, stateOf(active), REGISTRY), { now: at(121) }).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
    groupSpec.given(active).when(close({}, stateOf(active), WORKER), { now: at(121) }).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(active).when(close({}, stateOf(active), COORD), { now: at(121) }).thenFails('AUTH_FORBIDDEN', 'not-authorized');
  });

  it('names a WorkItem of the Group (INVALID_COMMAND)', () => {
    groupSpec.given(active).when(close({ workItemId: 'urn:missionweave:work-item:none' }), { now: at(121) }).thenFails('INVALID_COMMAND', 'work-item-unknown');
  });
});
