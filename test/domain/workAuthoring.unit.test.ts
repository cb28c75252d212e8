/**
 * `work.propose`, `work.authorize` taking up a Work Proposal (§10.2 "none → open Work Proposal",
 * "open Work Proposal → open"), and Mission progress derived from the WorkItem graph with the
 * submission gate it sets (§7.3). Given / when / then, accepted and refused.
 */

import { NO_SUPPORT } from './cases/caseFixtures.js';
import { DEFAULT_COOPERATION_LIMITS } from '../../src/domain/policy/cooperationLimits.js';
import { describe, expect, it } from 'vitest';
import { fromAggregates, toAggregates } from '../../src/domain/coreModules.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import { deriveMissionProgress } from '../../src/domain/mission/missionProgress.js';
import { MAX_OPEN_PROPOSALS_PER_GROUP } from '../../src/domain/workItem/workLimits.js';
import type { Principal } from '../../src/protocol/principal.js';
import {
  CONTRACT,
  COORD,
  GROUP,
  HASH_A,
  MISSION,
  OWNER,
  T0,
  WORK,
  WORKER,
  command,
  expectStateValid,
  groupSpec,
  history,
  stateOf,
  steps,
  verifiedWorkHistory,
} from './fixtures.js';
import { expectedAuthorized } from './expectedEvents.js';
import type { RefusalReason } from '../support/specification.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { MISSION_REASONS } from '../../src/domain/mission/missionReasons.js';

const PROPOSAL = 'urn:missionweave:work-proposal:p1';
const W2 = 'urn:missionweave:work-item:w2';

const created = history([steps.create, steps.addMember(WORKER)]);
const withWork = history([steps.authorize()], created);

function propose(from: readonly RecordedEvent[], payload: object = {}, actor: Principal = WORKER, extra: object = {}) {
  return command(stateOf(from), actor, 'work.propose', { proposalId: PROPOSAL, contract: CONTRACT, ...payload }, extra);
}

function expectedProposal(proposer: Principal, extra: object = {}) {
  return { proposalId: PROPOSAL, missionId: MISSION, groupId: GROUP, proposer, contract: CONTRACT, dependencyIds: [], state: 'open', proposedAt: T0, revision: 1, ...extra };
}

describe('work.propose', () => {
  it('records an open Work Proposal by any member, and no WorkItem', () => {
    for (const proposer of [WORKER, OWNER, COORD]) {
      const after = groupSpec
        .given(withWork)
        .when(propose(withWork, {}, proposer, { expectedRevision: 0 }))
        .then([{ kind: 'work.proposed', payload: { proposal: expectedProposal(proposer) }, aggregate: { type: 'work-proposal', id: PROPOSAL, revision: 1 } }]) as GroupState;
      expect(after.proposals.get(PROPOSAL)?.state).toBe('open');
      expect(after.workItems.size).toBe(1);
    }
  });

  it('keeps the parent WorkItem and dependencies it proposes', () => {
    const contract = { ...CONTRACT, dependencyWorkItemIds: [WORK] };
    groupSpec
      .given(withWork)
      .when(propose(withWork, { contract, dependencyIds: [WORK], parentWorkItemId: WORK }))
      .then([{ kind: 'work.proposed', payload: { proposal: expectedProposal(WORKER, { contract, dependencyIds: [WORK], parentWorkItemId: WORK }) } }]);
  });

  it('refuses a Proposal ID in use (INVALID_STATE_TRANSITION) and a stale expectedRevision (REVISION_CONFLICT)', () => {
    const proposed = history([(s) => command(s!, WORKER, 'work.propose', { proposalId: PROPOSAL, contract: CONTRACT })], withWork);
    groupSpec.given(proposed).when(propose(proposed)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.proposalIdTaken);
    groupSpec.given(proposed).when(propose(proposed, {}, WORKER, { expectedRevision: 0 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
  });

  it('refuses a contract that does not fit the Mission or names unknown work (INVALID_COMMAND)', () => {
    const cases: [object, RefusalReason][] = [
      [{ contract: { ...CONTRACT, dependencyWorkItemIds: ['urn:missionweave:work-item:none'] } }, 'dependency-unknown'],
      [{ dependencyIds: [WORK] }, 'dependencies-disagree'],
      [{ parentWorkItemId: 'urn:missionweave:work-item:none' }, 'parent-work-item-unknown'],
      [{ contract: { ...CONTRACT, constraints: { dependencyPolicy: 'most_verified' } } }, 'dependency-policy-unknown'],
      [{ contract: { ...CONTRACT, deadline: '2026-10-30T00:00:00Z' } }, 'deadline-outside-mission'],
      [{ contract: { ...CONTRACT, budget: { currency: 'EUR', financialLimit: 5000 } } }, 'budget-exceeds-mission'],
    ];
    for (const [payload, reason] of cases) groupSpec.given(withWork).when(propose(withWork, payload)).thenFails('INVALID_COMMAND', reason);
  });

  it('needs an active Mission (INVALID_STATE_TRANSITION)', () => {
    const submitted = history([steps.submit()], verifiedWorkHistory(withWork));
    groupSpec.given(submitted).when(propose(submitted)).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionState);
  });

  it(`bounds the open Work Proposals of a Group at ${MAX_OPEN_PROPOSALS_PER_GROUP} (RATE_LIMITED)`, () => {
    const fill = Array.from({ length: MAX_OPEN_PROPOSALS_PER_GROUP }, (_, i) => (s: GroupState | null) =>
      command(s!, WORKER, 'work.propose', { proposalId: `urn:missionweave:work-proposal:fill-${i}`, contract: CONTRACT }),
    );
    // The proposal rate and the duplicate limit (§20) are not what this test is about.
    const unlimited = { cooperationLimits: { ...DEFAULT_COOPERATION_LIMITS, proposalsPerWindow: 1_000, maxDuplicateWork: 1_000 } };
    const full = history(fill, withWork, unlimited);
    groupSpec.given(full).when(propose(full), unlimited).thenFails('RATE_LIMITED', WORK_REASONS.openProposalsLimit);
    // Taking one up frees a place.
    const takenUp = history([(s) => command(s!, COORD, 'work.authorize', { workItemId: W2, contract: CONTRACT, proposalId: 'urn:missionweave:work-proposal:fill-0' })], full, unlimited);
    groupSpec.given(takenUp).when(propose(takenUp), unlimited).then([{ kind: 'work.proposed', payload: { proposal: expectedProposal(WORKER) } }]);
  });
});

describe('work.authorize from an open Work Proposal', () => {
  const proposed = history([(s) => command(s!, WORKER, 'work.propose', { proposalId: PROPOSAL, contract: CONTRACT })], withWork);
  const state = stateOf(proposed);
  const takeUp = (payload: object = {}, actor: Principal = COORD) =>
    command(state, actor, 'work.authorize', { workItemId: W2, contract: CONTRACT, proposalId: PROPOSAL, conversationId: 'urn:x:c2', ...payload });

  it('creates the WorkItem the proposer wrote, authorized by the Coordinator, and closes the proposal in the same Event', () => {
    const base = expectedAuthorized(W2, 'urn:x:c2');
    const payload = base.payload as { workItem: object; conversation: object };
    const after = groupSpec
      .given(proposed)
      .when(takeUp())
      .then([{ ...base, payload: { ...payload, workItem: { ...payload.workItem, createdBy: WORKER }, proposalId: PROPOSAL } }]) as GroupState;
    expect(after.proposals.get(PROPOSAL)).toMatchObject({ state: 'authorized', authorizedWorkItemId: W2, revision: 2 });
    expect(after.workItems.get(W2)).toMatchObject({ createdBy: WORKER, authorizedBy: COORD, state: 'open' });
    expectStateValid(after);
    const rows = JSON.parse(JSON.stringify(toAggregates(after))) as ReturnType<typeof toAggregates>;
    // The rate windows (§20) are derived, never stored.
    expect(fromAggregates(GROUP, after.lastSequence, rows)).toEqual({ ...after, rateWindows: new Map() });
  });

  it('refuses an unknown proposal (INVALID_COMMAND) and one already taken up (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(proposed).when(takeUp({ proposalId: 'urn:missionweave:work-proposal:none' })).thenFails('INVALID_COMMAND', WORK_REASONS.proposalUnknown);
    const taken = history([() => takeUp()], proposed);
    groupSpec
      .given(taken)
      .when(command(stateOf(taken), COORD, 'work.authorize', { workItemId: 'urn:x:w3', contract: CONTRACT, proposalId: PROPOSAL }))
      .thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.proposalNotOpen);
  });

  it('refuses an amended contract, dependencies or parent (INVALID_COMMAND)', () => {
    groupSpec.given(proposed).when(takeUp({ contract: { ...CONTRACT, goal: 'Something else.' } })).thenFails('INVALID_COMMAND', WORK_REASONS.proposalAmended);
    groupSpec.given(proposed).when(takeUp({ parentWorkItemId: WORK })).thenFails('INVALID_COMMAND', WORK_REASONS.proposalAmended);
    const contract = { ...CONTRACT, dependencyWorkItemIds: [WORK] };
    groupSpec.given(proposed).when(takeUp({ contract, dependencyIds: [WORK] })).thenFails('INVALID_COMMAND', WORK_REASONS.proposalAmended);
  });

  it('is the Coordinator’s, not the proposer’s (AUTH_FORBIDDEN)', () => {
    groupSpec.given(proposed).when(takeUp({}, WORKER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
  });
});

describe('work.authorize dependencies (§10.4)', () => {
  it('refuses a WorkItem that depends on itself (INVALID_COMMAND)', () => {
    const contract = { ...CONTRACT, dependencyWorkItemIds: [W2] };
    groupSpec.given(withWork).when(command(stateOf(withWork), COORD, 'work.authorize', { workItemId: W2, contract })).thenFails('INVALID_COMMAND', WORK_REASONS.dependencyCycle);
  });
});

/** `events` with WorkItem `id` rewritten to `state` (as later WorkItem Commands leave it). */
function withState(events: readonly RecordedEvent[], id: string, state: string): RecordedEvent[] {
  return events.map((e) => {
    const w = e.payload['workItem'] as { workItemId: string } | undefined;
    return e.kind === 'work.authorized' && w?.workItemId === id ? { ...e, payload: { ...e.payload, workItem: { ...w, state } } } : e;
  });
}

const chain = (id: string, deps: string[]) => (s: GroupState | null) =>
  command(s!, COORD, 'work.authorize', { workItemId: id, contract: { ...CONTRACT, goal: `${CONTRACT.goal} (${id})`, dependencyWorkItemIds: deps } });

describe('work.authorize within its parent WorkItem (§4.11)', () => {
  const STAGING = 'urn:missionweave:resource:billing-db-staging';
  const sub = (contract: object) => command(stateOf(withWork), COORD, 'work.authorize', { workItemId: W2, contract: { ...CONTRACT, budget: { currency: 'EUR', financialLimit: 10 }, ...contract }, parentWorkItemId: WORK });
  const internal = history([(s) => command(s!, COORD, 'work.authorize', { workItemId: 'urn:x:w0', contract: { ...CONTRACT, budget: { currency: 'EUR', financialLimit: 10 }, constraints: { maxDataClassification: 'internal' } } })], created);

  it('refuses a sub-WorkItem with a resource, an operation or a classification its parent lacks, even from the Coordinator (INVALID_COMMAND)', () => {
    groupSpec.given(withWork).when(sub({ allowedResources: [{ resource: 'urn:x:prod-db', operations: ['db.write'] }] })).thenFails('INVALID_COMMAND', WORK_REASONS.resourceExceedsParent);
    groupSpec.given(withWork).when(sub({ allowedResources: [{ resource: STAGING, operations: ['db.drop'] }] })).thenFails('INVALID_COMMAND', WORK_REASONS.operationExceedsParent);
    const wider = command(stateOf(internal), COORD, 'work.authorize', { workItemId: W2, contract: { ...CONTRACT, budget: { currency: 'EUR', financialLimit: 5 }, allowedResources: [{ resource: STAGING, operations: ['db.read'], constraints: { maxDataClassification: 'confidential' } }] }, parentWorkItemId: 'urn:x:w0' });
    groupSpec.given(internal).when(wider).thenFails('INVALID_COMMAND', WORK_REASONS.classificationExceedsParent);
    groupSpec.given(withWork).when(sub({ constraints: { maxDataClassification: 'top-secret' } })).thenFails('INVALID_COMMAND', WORK_REASONS.dataClassificationUnknown);
  });

  it('accepts a narrower one, and one that states no classification (it inherits its parent’s)', () => {
    expect(groupSpec.given(withWork).when(sub({ allowedResources: [{ resource: STAGING, operations: ['db.read'] }] })).decision.ok).toBe(true);
    const inherits = command(stateOf(internal), COORD, 'work.authorize', { workItemId: W2, contract: { ...CONTRACT, budget: { currency: 'EUR', financialLimit: 5 } }, parentWorkItemId: 'urn:x:w0' });
    expect(groupSpec.given(internal).when(inherits).decision.ok).toBe(true);
  });
});

describe('mission progress (§7.3)', () => {
  const graph = history([chain(W2, [WORK]), chain('urn:x:w3', [W2]), chain('urn:x:w4', [])], withWork);

  it('counts WorkItems by state and names the critical path and the blockers', () => {
    const progress = deriveMissionProgress(stateOf(graph));
    expect(progress.counts).toMatchObject({ open: 4, verified: 0, cancelled: 0 });
    expect(progress).toMatchObject({ required: 4, requiredVerified: 0, complete: false });
    expect(progress.criticalPath).toEqual([WORK, W2, 'urn:x:w3']);
    expect(progress.blockers).toEqual([
      { workItemId: W2, reason: 'dependencies-unmet' },
      { workItemId: 'urn:x:w3', reason: 'dependencies-unmet' },
    ]);
  });

  it('shortens the critical path as work is verified, and drops cancelled work from what is required', () => {
    const progressed = withState(withState(verifiedWorkHistory(graph, [WORK]), 'urn:x:w4', 'cancelled'), 'urn:x:w3', 'blocked');
    const progress = deriveMissionProgress(stateOf(progressed));
    expect(progress).toMatchObject({ required: 3, requiredVerified: 1, complete: false, unaccepted: [W2, 'urn:x:w3'] });
    expect(progress.counts).toMatchObject({ open: 1, blocked: 1, verified: 1, cancelled: 1 });
    expect(progress.criticalPath).toEqual([W2, 'urn:x:w3']);
    expect(progress.blockers).toEqual([{ workItemId: 'urn:x:w3', reason: 'blocked' }]);
  });

  it('is complete without WorkItems, and once every required WorkItem is verified', () => {
    expect(deriveMissionProgress(stateOf(created))).toMatchObject({ required: 0, complete: true, criticalPath: [] });
    expect(deriveMissionProgress(stateOf(verifiedWorkHistory(graph)))).toMatchObject({ required: 4, requiredVerified: 4, complete: true, criticalPath: [], blockers: [] });
  });
});

describe('mission.submit_for_approval needs every required WorkItem verified', () => {
  const submit = (events: readonly RecordedEvent[]) => command(stateOf(events), COORD, 'mission.submit_for_approval', { artifactHashes: [HASH_A] });
  const submitted = (events: readonly RecordedEvent[]) => {
    const mission = stateOf(events).mission;
    return [{ kind: 'mission.submitted_for_approval', payload: { missionRevision: 2, artifactHashes: [HASH_A], mission: { ...mission, state: 'awaiting_approval', revision: 2 }, definitionOfDoneSupport: NO_SUPPORT } }];
  };

  it('accepts when every WorkItem is verified or cancelled', () => {
    const settled = verifiedWorkHistory(withWork);
    groupSpec.given(settled).when(submit(settled)).then(submitted(settled));
    // A cancelled WorkItem is not required; the submitted Artifact is w2's accepted result.
    const cancelled = withState(verifiedWorkHistory(history([steps.authorize('urn:x:w2')], withWork), ['urn:x:w2']), WORK, 'cancelled');
    groupSpec.given(cancelled).when(submit(cancelled)).then(submitted(cancelled));
  });

  it('refuses while a required WorkItem is not verified (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(withWork).when(submit(withWork)).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.requiredWorkUnaccepted);
    for (const state of ['submitted', 'failed', 'blocked']) {
      const events = withState(withWork, WORK, state);
      groupSpec.given(events).when(submit(events)).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.requiredWorkUnaccepted);
    }
  });
});
