/**
 * Dependencies (§10.4): the contract's dependency policy, cycle refusal, and
 * `ext.missionweaveprotocol.core.work_dependency_add` revising the contract (§10.1) with renewed
 * acceptance. Given / when / then, accepted and refused.
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import { checkDependenciesMet, dependencyPolicyOf, dependsOn } from '../../src/domain/workItem/dependencies.js';
import type { Principal } from '../../src/protocol/principal.js';
import { CONTRACT, COORD, OWNER, T0, WORK, WORKER, at, command, expectStateValid, groupSpec, history, stateOf, steps, verifiedWorkHistory } from './fixtures.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { workItemIn } from './workDocuments.js';

const ADD = 'ext.missionweaveprotocol.core.work_dependency_add';
const W2 = 'urn:missionweave:work-item:w2';
const W3 = 'urn:missionweave:work-item:w3';
const LINKS = 'urn:missionweave:extension:work-item-links';
const LEASES = 'urn:missionweave:extension:work-leases';

const created = history([steps.create, steps.addMember(WORKER)]);
const two = history([steps.authorize(), steps.authorize(W2)], created);

const addStep = (workItemId: string, dependencyId: string) => (s: GroupState | null) => command(s!, COORD, ADD, { workItemId, dependencyId });

function add(from: readonly RecordedEvent[], payload: object = {}, actor: Principal = COORD, extra: object = {}) {
  return command(stateOf(from), actor, ADD, { workItemId: WORK, dependencyId: W2, ...payload }, extra);
}

/** `events` with WorkItem `id` rewritten by `change` (as other WorkItem Commands leave it). */
function rewritten(events: readonly RecordedEvent[], id: string, change: object): RecordedEvent[] {
  return events.map((e) => {
    const w = e.payload['workItem'] as { workItemId: string } | undefined;
    return e.kind === 'work.authorized' && w?.workItemId === id ? { ...e, payload: { ...e.payload, workItem: { ...w, ...change } } } : e;
  });
}

const capability = { id: 'acme.sql-migration', version: '1.4.0' };
const lease = (leaseId: string, leaseType: string) => ({
  leaseId,
  leaseType,
  missionId: 'urn:missionweave:mission:m1',
  groupId: 'urn:missionweave:group:g1',
  workItemId: WORK,
  holderAgentId: WORKER.id,
  sessionEpoch: 1,
  ownershipEpoch: 1,
  issuedAt: T0,
  startsAt: T0,
  expiresAt: at(900),
  state: 'active',
  renewalCount: 0,
});
const OWNERSHIP = lease('urn:missionweave:lease:own-1', 'ownership');
const EXECUTION = lease('urn:missionweave:lease:exec-1', 'execution');
const OWNED = {
  owner: { agentId: WORKER.id, agentCardVersion: 3, capabilityPins: [capability], ownershipEpoch: 1, ownershipLeaseId: OWNERSHIP.leaseId, acceptedAt: T0 },
  selectionBasis: {
    requiredCapabilities: [capability],
    verifiedMatches: [capability],
    authorizationEligible: true,
    availabilityEstimate: T0,
    expectedCost: 12,
    reliabilityEvidence: [],
    policyRulesApplied: ['default-placement'],
  },
};

describe('ext.missionweaveprotocol.core.work_dependency_add', () => {
  it('adds the edge to an open WorkItem and increments the contract version (work.contract.revised)', () => {
    const item = workItemIn(stateOf(two));
    const contract = { ...CONTRACT, contractVersion: 2, dependencyWorkItemIds: [W2] };
    const after = groupSpec
      .given(two)
      .when(add(two, {}, COORD, { expectedRevision: 1, workItemId: WORK }))
      .then([
        {
          kind: 'work.contract.revised',
          payload: { workItemId: WORK, workItem: { ...item, contract, revision: 2, updatedAt: T0 }, contractVersion: 2, dependencyId: W2, revokedLeases: [] },
          aggregate: { type: 'work-item', id: WORK, revision: 2 },
          workItemId: WORK,
        },
      ]) as GroupState;
    expect(dependsOn(after, WORK, W2)).toBe(true);
    expectStateValid(after);
  });

  it('keeps an owned WorkItem in its state with its owner fenced: renewed acceptance through a new offer (§10.1, §10.2)', () => {
    const queued = rewritten(two, WORK, { state: 'queued', ...OWNED, extensions: { [LEASES]: { version: '0.1.0', critical: false, data: { ownership: OWNERSHIP } } } });
    const item = workItemIn(stateOf(queued));
    const revoked = { ...OWNERSHIP, state: 'revoked', closedAt: T0, closureReason: 'Work Contract revised to version 2' };
    const after = groupSpec
      .given(queued)
      .when(add(queued))
      .then([
        {
          kind: 'work.contract.revised',
          payload: {
            workItemId: WORK,
            workItem: {
              ...item,
              contract: { ...CONTRACT, contractVersion: 2, dependencyWorkItemIds: [W2] },
              revision: 2,
              updatedAt: T0,
              extensions: { [LEASES]: { version: '0.1.0', critical: false, data: {} } },
            },
            contractVersion: 2,
            dependencyId: W2,
            revokedLeases: [revoked],
          },
        },
      ]) as GroupState;
    expect(after.workItems.get(WORK)).toMatchObject({ state: 'queued', owner: { agentId: WORKER.id, ownershipEpoch: 1 } });
    expectStateValid(after);
  });

  it('refuses an active WorkItem: its Worker is not interrupted (§10.2, §11.3; INVALID_STATE_TRANSITION)', () => {
    const active = rewritten(two, WORK, { state: 'active', ...OWNED, extensions: { [LEASES]: { version: '0.1.0', critical: false, data: { ownership: OWNERSHIP, execution: EXECUTION } } } });
    groupSpec.given(active).when(add(active)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemActive);
  });

  it('withdraws the pending offers of an offered WorkItem, which stays offered', () => {
    const offers = [{ offerId: 'urn:x:offer', agentId: WORKER.id, agentCardVersion: 3, expiresAt: at(300), status: 'pending' }];
    const offered = rewritten(two, WORK, { state: 'offered', offers });
    const decision = groupSpec.given(offered).when(add(offered)).decision;
    expect(decision.ok && decision.events[0]?.payload).toMatchObject({ workItem: { state: 'offered', offers: [{ status: 'withdrawn' }] } });
  });

  it('refuses an edge that would close a cycle (INVALID_COMMAND)', () => {
    groupSpec.given(two).when(add(two, { dependencyId: WORK })).thenFails('INVALID_COMMAND', WORK_REASONS.dependencyCycle);
    const chain = history([(s) => command(s!, COORD, 'work.authorize', { workItemId: W3, contract: { ...CONTRACT, dependencyWorkItemIds: [W2] } })], history([addStep(WORK, W2)], two));
    // w1 → w2 and w3 → w2 exist; w2 → w1 closes w1 → w2 → w1, w2 → w3 closes w3 → w2 → w3.
    groupSpec.given(chain).when(add(chain, { workItemId: W2, dependencyId: WORK })).thenFails('INVALID_COMMAND', WORK_REASONS.dependencyCycle);
    groupSpec.given(chain).when(add(chain, { workItemId: W2, dependencyId: W3 })).thenFails('INVALID_COMMAND', WORK_REASONS.dependencyCycle);
    groupSpec.given(chain).when(add(chain, { workItemId: W3, dependencyId: WORK })).then([{ kind: 'work.contract.revised', payload: expectedRevised(chain, W3, WORK) }]);
  });

  it('refuses unknown WorkItems, a repeated edge and a full contract (INVALID_COMMAND, INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(two).when(add(two, { workItemId: W3 })).thenFails('INVALID_COMMAND', 'work-item-unknown');
    groupSpec.given(two).when(add(two, { dependencyId: W3 })).thenFails('INVALID_COMMAND', WORK_REASONS.dependencyUnknown);
    const once = history([addStep(WORK, W2)], two);
    groupSpec.given(once).when(add(once)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.dependencyExists);
    const ids = Array.from({ length: 1000 }, (_, i) => `urn:x:dep-${i}`);
    const full = rewritten(two, WORK, { contract: { ...CONTRACT, dependencyWorkItemIds: ids } });
    groupSpec.given(full).when(add(full)).thenFails('INVALID_COMMAND', WORK_REASONS.dependenciesFull);
  });

  it('refuses a WorkItem past revision or carried by a child Mission (INVALID_STATE_TRANSITION)', () => {
    for (const state of ['submitted', 'failed', 'cancelled']) {
      const events = rewritten(two, WORK, { state });
      groupSpec.given(events).when(add(events)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
    }
    const verified = verifiedWorkHistory(two, [WORK]);
    groupSpec.given(verified).when(add(verified)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
    const promoted = rewritten(two, WORK, { extensions: { [LINKS]: { version: '0.1.0', critical: false, data: { childMission: { missionId: 'urn:x:m', groupId: 'urn:x:g', failurePolicy: 'block_parent_work_item' } } } } });
    groupSpec.given(promoted).when(add(promoted)).thenFails('INVALID_STATE_TRANSITION', 'work-item-has-child');
  });

  it('needs Coordinator authority, the current revision and an active Mission', () => {
    groupSpec.given(two).when(add(two, {}, WORKER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(two).when(add(two, {}, OWNER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(two).when(add(two, {}, COORD, { expectedRevision: 2 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
    const submitted = history([steps.submit()], verifiedWorkHistory(two));
    groupSpec.given(submitted).when(add(submitted)).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionState);
  });
});


/** The expected `work.contract.revised` payload adding `dependencyId` to the open `workItemId`. */
function expectedRevised(events: readonly RecordedEvent[], workItemId: string, dependencyId: string) {
  const item = workItemIn(stateOf(events), workItemId);
  const contractVersion = item.contract.contractVersion + 1;
  const contract = { ...item.contract, contractVersion, dependencyWorkItemIds: [...item.contract.dependencyWorkItemIds, dependencyId] };
  return { workItemId, workItem: { ...item, contract, revision: item.revision + 1, updatedAt: T0 }, contractVersion, dependencyId, revokedLeases: [] };
}

describe('the dependency policy (§10.4)', () => {
  const dependent = history([(s) => command(s!, COORD, 'work.authorize', { workItemId: W3, contract: { ...CONTRACT, dependencyWorkItemIds: [WORK, W2] } })], two);
  const policy = (events: readonly RecordedEvent[], dependencyPolicy?: string) => {
    const state = stateOf(events);
    const w3 = state.workItems.get(W3)!;
    const contract = dependencyPolicy === undefined ? w3.contract : { ...w3.contract, constraints: { dependencyPolicy } };
    return checkDependenciesMet(state, { ...w3, contract });
  };

  it('defaults to all_verified', () => {
    expect(dependencyPolicyOf(stateOf(two).workItems.get(WORK)!.contract)).toBe('all_verified');
    expect(policy(dependent)?.error).toMatchObject({ code: 'INVALID_STATE_TRANSITION', reason: 'dependencies-unmet', details: { unmetDependencyIds: [WORK, W2] } });
    expect(policy(verifiedWorkHistory(dependent, [WORK]))?.error.details).toMatchObject({ unmetDependencyIds: [W2] });
    expect(policy(verifiedWorkHistory(dependent, [WORK, W2]))).toBeNull();
  });

  it('all_submitted counts a submitted result as met', () => {
    const submitted = rewritten(verifiedWorkHistory(dependent, [WORK]), W2, { state: 'submitted' });
    expect(policy(submitted, 'all_submitted')).toBeNull();
    expect(policy(submitted, 'all_verified')?.error.details).toMatchObject({ dependencyPolicy: 'all_verified', unmetDependencyIds: [W2] });
    expect(policy(dependent, 'all_submitted')?.error.details).toMatchObject({ unmetDependencyIds: [WORK, W2] });
  });

  it('refuses an unknown policy where a contract enters the Group (INVALID_COMMAND)', () => {
    const contract = { ...CONTRACT, constraints: { dependencyPolicy: 'any' } };
    groupSpec.given(two).when(command(stateOf(two), COORD, 'work.authorize', { workItemId: W3, contract })).thenFails('INVALID_COMMAND', WORK_REASONS.dependencyPolicyUnknown);
    const accepted = { ...CONTRACT, constraints: { dependencyPolicy: 'all_submitted' } };
    expect(groupSpec.given(two).when(command(stateOf(two), COORD, 'work.authorize', { workItemId: W3, contract: accepted })).decision.ok).toBe(true);
  });
});
