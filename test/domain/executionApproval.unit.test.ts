/**
 * The start gate of §10.2 (`queued` → `approval.grant_execution` when required → `queued`) and
 * §12's signed approval gate, one given/when/then per rule: who may grant an Execution Approval,
 * on which WorkItem and Ownership Epoch, within which operations, resources, budget and expiry;
 * and `work.start`, which opens only under a live approval of the current Ownership Epoch.
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import { decideGroupCommand } from '../support/coreDecider.js';
import { evolveGroup } from '../support/coreDecider.js';
import type { EventDraft, RecordedEvent } from '../../src/domain/model.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { testContext, type ExpectedEvent } from '../support/specification.js';
import type { Principal } from '../../src/protocol/principal.js';
import { approvalsIn, EXECUTION_APPROVALS, executionApproval, expectedApprovalGranted, type ApprovalSpec } from './expectedApproval.js';
import { executionLease, expectedStarted } from './expectedOwnership.js';
import {
  AUTHORITY,
  CHILD_GROUP,
  CHILD_MISSION,
  CONTRACT,
  COORD,
  COORD2,
  OWNER,
  SELECTION,
  STRANGER,
  WORK,
  WORKER,
  WORKER2,
  WORLD,
  T0,
  at,
  command,
  expectStateValid,
  groupSpec,
  history,
  queuedWork,
  stateOf,
  steps,
} from './fixtures.js';
import { execEvidence } from './execFixtures.js';
import { ID, start, thenAt } from './ownershipCommands.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { workItemIn } from './workDocuments.js';

const A1 = 'urn:missionweave:approval:exec-1';
const A2 = 'urn:missionweave:approval:exec-2';
const HUMAN_CONTRACT = { ...CONTRACT, executionApproval: 'human_required' };
const STAGING_DB = 'urn:missionweave:resource:billing-db-staging';

/** w1 under `contract` (default `policy_required`), `queued`, owned by worker-7 under Ownership Epoch 1. */
function gated(contract: object = CONTRACT): RecordedEvent[] {
  return history([steps.create, steps.addMember(WORKER), steps.addMember(WORKER2), steps.authorize(WORK, contract), steps.offer([WORKER]), steps.acceptOffer(WORKER)]);
}

function grant(state: GroupState, extra: object = {}, actor: Principal = OWNER) {
  return command(state, actor, 'approval.grant_execution', { approvalId: A1, workItemId: WORK, ownershipEpoch: 1, operations: ['db.migrate'], ...extra });
}

/** A grant as a history step (accepted). */
const granted = (extra: object = {}, actor: Principal = OWNER) => (s: GroupState | null) => grant(s!, extra, actor);

/** `work.started` of worker-7 under Ownership Epoch 1 at `now`, the WorkItem keeping its approvals. */
function expectedStartedGated(s: GroupState, now = at(0)): ExpectedEvent {
  const event = expectedStarted(s, executionLease({ leaseId: `${ID}1`, holder: WORKER, ownershipEpoch: 1, seconds: 300, now }), undefined, now);
  const payload = event.payload as { workItem: { extensions: object } };
  const approvals = (workItemIn(s, WORK).extensions ?? {})[EXECUTION_APPROVALS];
  return { ...event, payload: { ...payload, workItem: { ...payload.workItem, extensions: { ...payload.workItem.extensions, [EXECUTION_APPROVALS]: approvals } } } };
}

describe('approval.grant_execution (§10.2: queued → queued, satisfying the start gate)', () => {
  const events = gated();
  const s = stateOf(events);

  it('the human MissionOwner grants it: the WorkItem stays queued, holding the approval bound to the current Ownership Epoch', () => {
    groupSpec
      .given(events)
      .when(grant(s))
      .then([expectedApprovalGranted(s, { approvalId: A1 })], (after) => {
        expect(after!.workItems.get(WORK)?.state).toBe('queued');
        expectStateValid(after!);
      });
  });

  it('records the operations and resources as sets, the budget, comments and expiry as granted', () => {
    const spec: ApprovalSpec = { approvalId: A1, operations: ['db.read', 'db.migrate'], resources: [STAGING_DB], budget: { toolCallLimit: 50 }, seconds: 900, comments: 'Staging only.' };
    const payload = { operations: ['db.read', 'db.migrate'], resources: [STAGING_DB], budget: { toolCallLimit: 50 }, expiresInSeconds: 900, comments: 'Staging only.' };
    groupSpec.given(events).when(grant(s, payload)).then([expectedApprovalGranted(s, spec)]);
    expect(executionApproval(spec)['operations']).toEqual(['db.migrate', 'db.read']);
  });

  it('lets the Organization’s policy actor (the Group Authority) grant a policy_required approval, but not a human_required one (AUTH_FORBIDDEN)', () => {
    groupSpec.given(events).when(grant(s, {}, AUTHORITY)).then([expectedApprovalGranted(s, { approvalId: A1, approver: AUTHORITY })]);
    const human = gated(HUMAN_CONTRACT);
    const h = stateOf(human);
    groupSpec.given(human).when(grant(h, {}, AUTHORITY)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.humanApprovalRequired);
    groupSpec.given(human).when(grant(h)).then([expectedApprovalGranted(h, { approvalId: A1, requirement: 'human_required' })]);
  });

  it('refuses anyone but the MissionOwner, and an Agent even as a child Mission’s MissionOwner (AUTH_FORBIDDEN)', () => {
    for (const actor of [COORD, WORKER]) groupSpec.given(events).when(grant(s, {}, actor)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    // A child Mission's MissionOwner is the Parent Coordinator, an Agent (§14).
    const child = childGroupWithQueuedWork();
    groupSpec.given(child).when(grant(stateOf(child), {}, COORD)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.approverNotHuman);
  });

  it('takes a human gate in a child Mission from the root’s human MissionOwner, under its root Membership Epoch (§14)', () => {
    const child = childGroupWithQueuedWork({ executionApproval: 'human_required' });
    const c = stateOf(child);
    const ancestors = { ancestors: [parentOfChild()] };
    const asRootOwner = (membershipEpoch: number) => command(c, OWNER, 'approval.grant_execution', { approvalId: A1, workItemId: WORK, ownershipEpoch: 1, operations: ['db.migrate'] }, { membershipEpoch });
    const decision = decideGroupCommand(c, asRootOwner(1), testContext({ ...WORLD, ...ancestors }));
    expect(decision.ok ? decision.events.map((e) => [e.kind, (e.payload as { approval: unknown }).approval]) : decision.error).toEqual([
      ['approval.execution.granted', expect.objectContaining({ groupId: CHILD_GROUP, missionId: CHILD_MISSION, requirement: 'human_required', approver: OWNER })],
    ]);
    groupSpec.given(child).when(asRootOwner(1), {}).thenFails('GROUP_NOT_FOUND', 'group-not-found');
    groupSpec.given(child).when(asRootOwner(2), ancestors).thenFails('MEMBERSHIP_STALE', GROUP_REASONS.membershipEpochStale);
    // An Agent never satisfies it, whatever it owns; a human who owns nothing on the path is a stranger.
    groupSpec.given(child).when(grant(c, {}, COORD), ancestors).thenFails('AUTH_FORBIDDEN', WORK_REASONS.approverNotHuman);
    groupSpec.given(child).when(grant(c, {}, STRANGER), ancestors).thenFails('GROUP_NOT_FOUND', 'group-not-found');
  });

  it('has no such transition for a contract that requires no approval (INVALID_STATE_TRANSITION)', () => {
    const runnable = queuedWork();
    groupSpec.given(runnable).when(grant(stateOf(runnable))).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.executionApprovalNotRequired);
  });

  it('refuses a WorkItem that is not queued (INVALID_STATE_TRANSITION) or not in this Group (INVALID_COMMAND)', () => {
    const offered = events.slice(0, -1);
    groupSpec.given(offered).when(grant(stateOf(offered))).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
    const active = history([granted(), steps.startWork(WORKER)], events);
    groupSpec.given(active).when(grant(stateOf(active), { approvalId: A2 })).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
    groupSpec.given(events).when(grant(s, { workItemId: 'urn:x:none' })).thenFails('INVALID_COMMAND', 'work-item-unknown');
  });

  it('refuses an Ownership Epoch that is not the current one (WORK_STALE_OWNERSHIP), also once a new owner holds a higher one', () => {
    groupSpec.given(events).when(grant(s, { ownershipEpoch: 2 })).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
    const reowned = reownedByWorker2(events);
    const r = stateOf(reowned);
    groupSpec.given(reowned).when(grant(r, { ownershipEpoch: 1 })).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
    groupSpec.given(reowned).when(grant(r, { ownershipEpoch: 2 })).then([expectedApprovalGranted(r, { approvalId: A1, ownershipEpoch: 2 })]);
  });

  it('refuses when the owner’s ownership lease has lapsed, by the Authority’s clock (WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(events).when(grant(s, { expiresInSeconds: 1 }), { now: at(900) }).thenFails('WORK_LEASE_EXPIRED', WORK_REASONS.ownershipLeaseExpired);
    groupSpec.given(events).when(grant(s, { expiresInSeconds: 1 }), { now: at(899) }).then([expectedApprovalGranted(s, { approvalId: A1, seconds: 1, now: at(899) })]);
  });

  it('refuses an approval ID already in use (INVALID_STATE_TRANSITION)', () => {
    const once = history([granted()], events);
    groupSpec.given(once).when(grant(stateOf(once))).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.approvalIdTaken);
    groupSpec.given(once).when(grant(stateOf(once), { approvalId: A2 })).then([expectedApprovalGranted(stateOf(once), { approvalId: A2 })]);
  });

  it('refuses operations beyond the Mission’s permissions, resources beyond the contract’s, a budget beyond the contract’s (INVALID_COMMAND)', () => {
    groupSpec.given(events).when(grant(s, { operations: ['db.migrate', 'deploy:production'] })).thenFails('INVALID_COMMAND', WORK_REASONS.operationNotPermitted);
    groupSpec.given(events).when(grant(s, { resources: [STAGING_DB, 'urn:missionweave:resource:billing-db-prod'] })).thenFails('INVALID_COMMAND', 'resource-not-allowed');
    groupSpec.given(events).when(grant(s, { budget: { toolCallLimit: 401 } })).thenFails('INVALID_COMMAND', WORK_REASONS.budgetExceedsContract);
    groupSpec.given(events).when(grant(s, { budget: { currency: 'USD', financialLimit: 1 } })).thenFails('INVALID_COMMAND', WORK_REASONS.budgetExceedsContract);
    groupSpec.given(events).when(grant(s, { budget: { toolCallLimit: 400 } })).then([expectedApprovalGranted(s, { approvalId: A1, budget: { toolCallLimit: 400 } })]);
  });

  it('refuses an approval that would outlive the owner’s ownership lease (INVALID_COMMAND)', () => {
    groupSpec.given(events).when(grant(s, { expiresInSeconds: 901 })).thenFails('INVALID_COMMAND', WORK_REASONS.approvalOutlivesOwnership);
    groupSpec.given(events).when(grant(s, { expiresInSeconds: 900 })).then([expectedApprovalGranted(s, { approvalId: A1, seconds: 900 })]);
  });

  it('keeps at most 16 approvals on the WorkItem, the oldest going first', () => {
    const many = history(Array.from({ length: 17 }, (_, i) => granted({ approvalId: `urn:missionweave:approval:many-${i}` })), events);
    const kept = approvalsIn(stateOf(many)).map((a) => a['approvalId']);
    expect(kept).toHaveLength(16);
    expect(kept[0]).toBe('urn:missionweave:approval:many-1');
    expect(kept[15]).toBe('urn:missionweave:approval:many-16');
  });
});

describe('work.start behind the gate (§10.2: queued → active only under a live Execution Approval)', () => {
  const events = gated();

  it('refuses a gated WorkItem without an approval (APPROVAL_REQUIRED)', () => {
    groupSpec.given(events).when(start(stateOf(events))).thenFails('APPROVAL_REQUIRED', 'execution-approval-required');
  });

  it('starts once a live approval of the current Ownership Epoch is recorded, the WorkItem keeping it', () => {
    const approved = history([granted()], events);
    const a = stateOf(approved);
    groupSpec.given(approved).when(start(a)).then([expectedStartedGated(a)], (after) => expectStateValid(after!));
  });

  it('refuses once the approval has expired, by the Authority’s clock (APPROVAL_REQUIRED)', () => {
    const approved = history([granted({ expiresInSeconds: 60 })], events);
    const a = stateOf(approved);
    groupSpec.given(approved).when(start(a), { now: at(60) }).thenFails('APPROVAL_REQUIRED', 'execution-approval-required');
    groupSpec.given(approved).when(start(a), { now: at(59) }).then([expectedStartedGated(a, at(59))]);
  });

  it('needs a new approval for a new owner: the former owner’s still-live approval does not open the gate (APPROVAL_REQUIRED)', () => {
    const reowned = reownedByWorker2(history([granted({ expiresInSeconds: 900 })], events));
    const r = stateOf(reowned);
    expect(approvalsIn(r).map((a) => a['ownershipEpoch'])).toEqual([1]);
    groupSpec.given(reowned).when(start(r, WORKER2, 2)).thenFails('APPROVAL_REQUIRED', 'execution-approval-required');
    const approved = history([granted({ approvalId: A2, ownershipEpoch: 2 })], reowned);
    // `history` runs the deciders and throws on a refusal: worker-8 starts under its own approval.
    const started = history([(s) => command(s!, WORKER2, 'work.start', { workItemId: WORK, ownershipEpoch: 2 })], approved);
    expect(started.at(-1)?.kind).toBe('work.started');
    expect(stateOf(started).workItems.get(WORK)?.state).toBe('active');
  });
});

/**
 * `events` with w1 failed by the Coordinator (revoking worker-7's Epoch 1 leases), re-offered to
 * worker-8 and accepted under Ownership Epoch 2, all at the same instant: worker-7's approvals are
 * still unexpired.
 */
function reownedByWorker2(events: RecordedEvent[]): RecordedEvent[] {
  const failure = [execEvidence('urn:x:failure', COORD, { type: 'failure_report', result: 'failed' })];
  return thenAt(
    events,
    at(0),
    (s) => command(s!, COORD, 'work.fail', { workItemId: WORK, reason: 'Reassigned.', evidence: failure }),
    (s) => command(s!, COORD, 'work.offer', { workItemId: WORK, candidateAgentIds: [WORKER2.id], selectionBasis: SELECTION }),
    steps.acceptOffer(WORKER2),
  );
}

/** A child Mission of w1 (MissionOwner: coord-1, an Agent) whose own w1, under `extra` contract terms, is queued, owned by worker-7. */
function childGroupWithQueuedWork(extra: object = {}): RecordedEvent[] {
  const parent = history([steps.create, steps.addMember(WORKER), steps.authorize()]);
  const childPayload = {
    missionId: CHILD_MISSION,
    groupId: CHILD_GROUP,
    parentWorkItemId: WORK,
    coordinatorId: COORD2.id,
    title: 'Child',
    objective: 'A part of the work.',
    definitionOfDone: [{ criterionId: 'c1', description: 'done', evidenceRequired: ['human_review'] }],
    budget: { currency: 'EUR', financialLimit: 10 },
    deadline: '2026-09-10T00:00:00Z',
    permissions: ['db.migrate'],
  };
  const { founding, ancestors } = childFounding(parent, childPayload);
  const contract = { ...CONTRACT, deadline: '2026-09-05T00:00:00Z', budget: { currency: 'EUR', financialLimit: 5 }, ...extra };
  return history(
    [
      (s) => command(s!, COORD, 'membership.change', { principal: WORKER, roles: ['worker'] }),
      (s) => command(s!, COORD2, 'work.authorize', { workItemId: WORK, contract }),
      (s) => command(s!, COORD2, 'work.offer', { workItemId: WORK, candidateAgentIds: [WORKER.id], selectionBasis: SELECTION }),
      steps.acceptOffer(WORKER),
    ],
    founding,
    { ancestors },
  );
}

/** The parent Group once w1 is promoted to the child: the ancestor the app loads for a Command in the child. */
function parentOfChild(): GroupState {
  return stateOf(history([steps.create, steps.addMember(WORKER), steps.authorize(), (s) => command(s!, COORD, 'mission.create_child', { missionId: CHILD_MISSION, groupId: CHILD_GROUP, parentWorkItemId: WORK, coordinatorId: COORD2.id, title: 'Child', objective: 'A part of the work.', definitionOfDone: [{ criterionId: 'c1', description: 'done', evidenceRequired: ['human_review'] }], budget: { currency: 'EUR', financialLimit: 10 }, deadline: '2026-09-10T00:00:00Z', permissions: ['db.migrate'] })]));
}

/** The child Group's founding Event, as `mission.create_child` in the parent drafts it, and the parent Group after it (the child's ancestry). */
function childFounding(parent: RecordedEvent[], payload: object): { founding: RecordedEvent[]; ancestors: GroupState[] } {
  const state = stateOf(parent);
  const decision = decideGroupCommand(state, command(state, COORD, 'mission.create_child', payload), testContext({ ...WORLD, idPrefix: 'urn:test:id:c-' }));
  if (!decision.ok) throw new Error(decision.error.reason);
  const recorded = (draft: EventDraft, sequence: number, eventId: string): RecordedEvent => ({ kind: draft.kind, payload: JSON.parse(JSON.stringify(draft.payload)) as JsonObject, actor: COORD, occurredAt: T0, sequence, eventId });
  const inParent = decision.events.find((e) => e.groupId !== CHILD_GROUP)!;
  const draft = decision.events.find((e) => e.groupId === CHILD_GROUP)!;
  return { founding: [recorded(draft, 1, 'urn:test:event:c1')], ancestors: [evolveGroup(state, recorded(inParent, state.lastSequence + 1, 'urn:test:event:p1'))] };
}
