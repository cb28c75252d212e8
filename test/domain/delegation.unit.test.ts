/**
 * Delegation Grants (§9.1): `membership.grant_delegation` by the current Coordinator, and their
 * use — a delegated `work.authorize`, and `checkDelegatedUse` for offers — judged against the
 * state at every use. Given / when / then, accepted and refused.
 */

import { describe, expect, it } from 'vitest';
import { fromAggregates, toAggregates } from '../../src/domain/coreModules.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import { DEFAULT_COOPERATION_LIMITS } from '../../src/domain/policy/cooperationLimits.js';
import { checkDelegatedUse } from '../../src/domain/workItem/delegation.js';
import { linksOf } from '../../src/domain/workItem/workItemDocuments.js';
import { MAX_WORK_ITEMS_PER_GRANT } from '../../src/domain/workItem/workLimits.js';
import type { Principal } from '../../src/protocol/principal.js';
import { testContext } from '../support/specification.js';
import {
  CONTRACT,
  COORD,
  COORD2,
  DELEGATE_AGENT,
  GROUP,
  MISSION,
  OWNER,
  SELECTION,
  T0,
  WORK,
  WORKER,
  WORLD,
  at,
  command,
  expectStateValid,
  groupSpec,
  history,
  stateOf,
  steps,
  verifiedWorkHistory,
} from './fixtures.js';
import { COMMON_REASONS } from '../../src/domain/commonReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { workItemDocument, workRecordOf } from '../../src/domain/workItem/workRecord.js';

const GRANT = 'urn:missionweave:delegation-grant:g1';
const W2 = 'urn:missionweave:work-item:w2';
const W3 = 'urn:missionweave:work-item:w3';

const GRANT_PAYLOAD = {
  grantId: GRANT,
  granteeAgentId: DELEGATE_AGENT.id,
  targetWorkItemId: WORK,
  allowedCapabilities: [{ id: 'acme.sql-migration', version: '1.2.0' }],
  budget: { currency: 'EUR', financialLimit: 50, modelTokenLimit: 100000, toolCallLimit: 100, computeSecondsLimit: 3600, wallClockSecondsLimit: 86400, externalSideEffectLimit: 2 },
  maxDescendantDepth: 2,
  expiresAt: at(3600),
};

/** A small contract a delegate may authorize: 20 EUR, within the Grant twice but not three times. */
const SUB_CONTRACT = { ...CONTRACT, budget: { currency: 'EUR', financialLimit: 20, modelTokenLimit: 40000, toolCallLimit: 40 } };

const withDelegate = history([
  steps.create,
  steps.addMember(WORKER),
  steps.addMember(DELEGATE_AGENT, 'work_delegate'),
  steps.authorize(),
]);

function grant(from: readonly RecordedEvent[], payload: object = {}, actor: Principal = COORD, extra: object = {}) {
  return command(stateOf(from), actor, 'membership.grant_delegation', { ...GRANT_PAYLOAD, ...payload }, extra);
}

const granted = history([(s) => command(s!, COORD, 'membership.grant_delegation', GRANT_PAYLOAD)], withDelegate);

function delegated(from: readonly RecordedEvent[], payload: object = {}, actor: Principal = DELEGATE_AGENT, extra: object = {}) {
  return command(stateOf(from), actor, 'work.authorize', { workItemId: W2, contract: SUB_CONTRACT, parentWorkItemId: WORK, delegationGrantId: GRANT, ...payload }, extra);
}

/** `events` with WorkItem `id` rewritten to `state`. */
function withState(events: readonly RecordedEvent[], id: string, state: string): RecordedEvent[] {
  if (state === 'verified') return verifiedWorkHistory(events, [id]);
  return events.map((e) => {
    const w = e.payload['workItem'] as { workItemId: string } | undefined;
    return e.kind === 'work.authorized' && w?.workItemId === id ? { ...e, payload: { ...e.payload, workItem: { ...w, state } } } : e;
  });
}

describe('membership.grant_delegation', () => {
  it('records a Grant with every member §9.1 lists, bound to the current epochs', () => {
    const after = groupSpec
      .given(withDelegate)
      .when(grant(withDelegate, {}, COORD, { expectedRevision: 0 }))
      .then([
        {
          kind: 'membership.delegation.granted',
          payload: {
            delegationGrant: {
              ...GRANT_PAYLOAD,
              missionId: MISSION,
              groupId: GROUP,
              granteeMembershipEpoch: 1,
              coordinatorEpoch: 1,
              issuedBy: COORD,
              grantedAt: T0,
              usedBy: [],
              revision: 1,
            },
          },
          aggregate: { type: 'delegation-grant', id: GRANT, revision: 1 },
        },
      ]) as GroupState;
    expect(after.delegationGrants.get(GRANT)?.granteeAgentId).toBe(DELEGATE_AGENT.id);
  });

  it('is the current Coordinator’s alone (AUTH_FORBIDDEN, AUTH_STALE_COORDINATOR, WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(withDelegate).when(grant(withDelegate, {}, OWNER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(withDelegate).when(grant(withDelegate, {}, DELEGATE_AGENT)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(withDelegate).when(grant(withDelegate, {}, COORD, { coordinatorEpoch: 2 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(withDelegate).when(grant(withDelegate, {}, COORD, { coordinatorEpoch: undefined })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(withDelegate).when(grant(withDelegate), { now: at(601) }).thenFails('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired);
  });

  it('needs a fresh Grant ID and an active Mission (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(granted).when(grant(granted)).thenFails('INVALID_STATE_TRANSITION', 'grant-id-taken');
    const submitted = history([steps.submit()], verifiedWorkHistory(withDelegate));
    groupSpec.given(submitted).when(grant(submitted)).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionState);
  });

  it('needs a grantee with an active work_delegate Membership (INVALID_COMMAND)', () => {
    groupSpec.given(withDelegate).when(grant(withDelegate, { granteeAgentId: WORKER.id })).thenFails('INVALID_COMMAND', WORK_REASONS.granteeNotDelegate);
    groupSpec.given(withDelegate).when(grant(withDelegate, { granteeAgentId: COORD2.id })).thenFails('INVALID_COMMAND', WORK_REASONS.granteeNotDelegate);
  });

  it('needs an unfinished target (INVALID_COMMAND, INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(withDelegate).when(grant(withDelegate, { targetWorkItemId: W3 })).thenFails('INVALID_COMMAND', WORK_REASONS.targetWorkItemUnknown);
    for (const ended of ['verified', 'failed', 'cancelled']) {
      const events = withState(withDelegate, WORK, ended);
      groupSpec.given(events).when(grant(events)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.grantTargetEnded);
    }
  });

  it('keeps expiry and ceilings within what the Coordinator holds (INVALID_COMMAND)', () => {
    groupSpec.given(withDelegate).when(grant(withDelegate, { expiresAt: at(-1) })).thenFails('INVALID_COMMAND', WORK_REASONS.expiryOutsideMission);
    groupSpec.given(withDelegate).when(grant(withDelegate, { expiresAt: '2026-10-01T00:00:00Z' })).thenFails('INVALID_COMMAND', WORK_REASONS.expiryOutsideMission);
    groupSpec.given(withDelegate).when(grant(withDelegate, { budget: { ...GRANT_PAYLOAD.budget, financialLimit: 81 } })).thenFails('INVALID_COMMAND', WORK_REASONS.budgetExceedsTarget);
    groupSpec.given(withDelegate).when(grant(withDelegate, { budget: { ...GRANT_PAYLOAD.budget, wallClockSecondsLimit: 2_000_000 } })).thenFails('INVALID_COMMAND', WORK_REASONS.budgetExceedsMission);
  });
});

describe('work.authorize under a Delegation Grant', () => {
  it('authorizes a descendant of the target, attributed to the Grant, which records the use', () => {
    const after = groupSpec.given(granted).when(delegated(granted, { conversationId: 'urn:x:c2' })).then([
      {
        kind: 'work.authorized',
        payload: {
          workItem: {
            workItemId: W2,
            missionId: MISSION,
            groupId: GROUP,
            conversationId: 'urn:x:c2',
            revision: 1,
            state: 'open',
            exclusive: true,
            contract: SUB_CONTRACT,
            createdBy: DELEGATE_AGENT,
            authorizedBy: DELEGATE_AGENT,
            createdAt: T0,
            extensions: { 'urn:missionweave:extension:work-item-links': { version: '0.1.0', critical: false, data: { parentWorkItemId: WORK, delegationGrantId: GRANT } } },
          },
          conversation: {
            conversationId: 'urn:x:c2',
            missionId: MISSION,
            groupId: GROUP,
            type: 'work_item',
            primaryWorkItemId: W2,
            title: CONTRACT.goal,
            access: { mode: 'group' },
            createdBy: DELEGATE_AGENT,
            createdAt: T0,
            state: 'active',
            revision: 0,
          },
          proposalId: null,
        },
      },
    ]) as GroupState;
    expect(after.delegationGrants.get(GRANT)).toMatchObject({ usedBy: [W2], revision: 2 });
    expect(linksOf(after.workItems.get(W2)!)).toEqual({ parentWorkItemId: WORK, delegationGrantId: GRANT });
    expectStateValid(after);
    // The Grant and its use survive the store's rows, as the app reloads them.
    const rows = JSON.parse(JSON.stringify(toAggregates(after))) as ReturnType<typeof toAggregates>;
    expect(fromAggregates(GROUP, after.lastSequence, rows)).toEqual(after);
  });

  it('goes as deep as the Grant allows and no deeper (AUTH_FORBIDDEN)', () => {
    const two = history([() => delegated(granted), (s) => command(s!, DELEGATE_AGENT, 'work.authorize', { workItemId: W3, contract: { ...SUB_CONTRACT, budget: { currency: 'EUR', financialLimit: 5 } }, parentWorkItemId: W2, delegationGrantId: GRANT })], granted);
    expect(stateOf(two).delegationGrants.get(GRANT)?.usedBy).toEqual([W2, W3]);
    groupSpec.given(two).when(delegated(two, { workItemId: 'urn:x:w4', parentWorkItemId: W3, contract: { ...SUB_CONTRACT, budget: { currency: 'EUR', financialLimit: 1 } } })).thenFails('AUTH_FORBIDDEN', WORK_REASONS.grantDepthExceeded);
  });

  it('meets the Organization’s delegation depth at issuance and at every use, authorize and offer alike (RATE_LIMITED)', () => {
    const bound = (maxDelegatedWorkDepth: number) => ({ cooperationLimits: { ...DEFAULT_COOPERATION_LIMITS, maxDelegatedWorkDepth } });
    groupSpec.given(withDelegate).when(grant(withDelegate), bound(1)).thenFails('RATE_LIMITED', 'delegation_depth-exceeded');
    expect(groupSpec.given(withDelegate).when(grant(withDelegate), bound(2)).decision.ok).toBe(true);
    // Under a Grant of depth 2 issued before the policy tightened to 1: W2 (depth 1) may be used, W3 (depth 2) may not.
    const one = history([() => delegated(granted)], granted);
    const deeper = delegated(one, { workItemId: W3, parentWorkItemId: W2, contract: { ...SUB_CONTRACT, budget: { currency: 'EUR', financialLimit: 5 } } });
    groupSpec.given(one).when(deeper, bound(1)).thenFails('RATE_LIMITED', 'delegation_depth-exceeded');
    const offer = command(stateOf(one), DELEGATE_AGENT, 'work.offer', { workItemId: W2, candidateAgentIds: [WORKER.id], selectionBasis: SELECTION, delegationGrantId: GRANT });
    expect(groupSpec.given(one).when(offer, bound(1)).decision.ok).toBe(true);
    groupSpec.given(one).when(offer, bound(0)).thenFails('RATE_LIMITED', 'delegation_depth-exceeded');
    // Someone else citing the Grant is refused by the Grant's own rules, not measured.
    groupSpec.given(one).when(delegated(one, { workItemId: W3, parentWorkItemId: W2 }, WORKER), bound(0)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notTheGrantee);
  });

  it('stays inside the target subtree (AUTH_FORBIDDEN)', () => {
    groupSpec.given(granted).when(delegated(granted, { parentWorkItemId: undefined })).thenFails('AUTH_FORBIDDEN', WORK_REASONS.delegatedParentRequired);
    const other = history([steps.authorize('urn:x:w0')], granted);
    groupSpec.given(other).when(delegated(other, { parentWorkItemId: 'urn:x:w0' })).thenFails('AUTH_FORBIDDEN', WORK_REASONS.outsideGrantScope);
  });

  it('requires only capabilities the Grant allows, at its minimum version or above (AUTH_FORBIDDEN)', () => {
    const older = { ...SUB_CONTRACT, requiredCapabilities: [{ id: 'acme.sql-migration', version: '1.1.9' }] };
    groupSpec.given(granted).when(delegated(granted, { contract: older })).thenFails('AUTH_FORBIDDEN', WORK_REASONS.capabilityOutsideGrant);
    const other = { ...SUB_CONTRACT, requiredCapabilities: [{ id: 'acme.payments', version: '9.0.0' }] };
    groupSpec.given(granted).when(delegated(granted, { contract: other })).thenFails('AUTH_FORBIDDEN', WORK_REASONS.capabilityOutsideGrant);
    const preRelease = { ...SUB_CONTRACT, requiredCapabilities: [{ id: 'acme.sql-migration', version: '1.2.0-rc.1' }] };
    groupSpec.given(granted).when(delegated(granted, { contract: preRelease })).thenFails('AUTH_FORBIDDEN', WORK_REASONS.capabilityOutsideGrant);
  });

  it('keeps the cumulative budget of its WorkItems within every ceiling (BUDGET_EXCEEDED)', () => {
    const twice = history([() => delegated(granted), (s) => command(s!, DELEGATE_AGENT, 'work.authorize', { workItemId: W3, contract: SUB_CONTRACT, parentWorkItemId: WORK, delegationGrantId: GRANT })], granted);
    groupSpec.given(twice).when(delegated(twice, { workItemId: 'urn:x:w4' })).thenFails('BUDGET_EXCEEDED', WORK_REASONS.grantBudgetExceeded);
  });

  it('is refused for an unknown Grant (INVALID_COMMAND) and for anyone but the grantee (AUTH_FORBIDDEN)', () => {
    groupSpec.given(granted).when(delegated(granted, { delegationGrantId: 'urn:x:none' })).thenFails('INVALID_COMMAND', WORK_REASONS.delegationGrantUnknown);
    groupSpec.given(granted).when(delegated(granted, {}, WORKER)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notTheGrantee);
    groupSpec.given(granted).when(delegated(granted, { delegationGrantId: undefined })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(granted).when(delegated(granted, {}, COORD)).thenFails('INVALID_COMMAND', WORK_REASONS.coordinatorCitesGrant);
  });

  it('stops at once when the grantee Membership changes or ends its role (MEMBERSHIP_STALE, AUTH_FORBIDDEN)', () => {
    const changed = history([(s) => command(s!, OWNER, 'membership.change', { principal: DELEGATE_AGENT, roles: ['work_delegate'] })], granted);
    groupSpec.given(changed).when(delegated(changed)).thenFails('MEMBERSHIP_STALE', WORK_REASONS.grantMembershipChanged);
    const demoted = history([(s) => command(s!, OWNER, 'membership.change', { principal: DELEGATE_AGENT, roles: ['worker'] })], granted);
    groupSpec.given(demoted).when(delegated(demoted)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.granteeNotDelegate);
  });

  it('stops at once when the Coordinator is replaced, the Grant expires or the target ends', () => {
    const replaced = history([(s) => command(s!, OWNER, 'mission.assign_coordinator', { coordinatorId: COORD2.id })], granted);
    groupSpec.given(replaced).when(delegated(replaced)).thenFails('AUTH_STALE_COORDINATOR', WORK_REASONS.grantCoordinatorReplaced);
    groupSpec.given(granted).when(delegated(granted), { now: at(3600) }).thenFails('AUTH_FORBIDDEN', 'grant-expired');
    // Past the Coordinator lease but within the Grant: the Grant alone carries the authority.
    expect(groupSpec.given(granted).when(delegated(granted), { now: at(3599) }).decision.ok).toBe(true);
    for (const ended of ['verified', 'failed', 'cancelled']) {
      const events = withState(granted, WORK, ended);
      groupSpec.given(events).when(delegated(events)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.grantTargetEnded);
    }
  });
});

describe('checkDelegatedUse for an offer', () => {
  const ctx = testContext(WORLD);
  const withChild = history([() => delegated(granted)], granted);
  const state = stateOf(withChild);
  const actor = { actor: DELEGATE_AGENT };

  it('allows a descendant, and the target when its budget fits the Grant', () => {
    expect(checkDelegatedUse(state, actor, GRANT, { kind: 'offer', workItem: state.workItems.get(W2)! }, ctx)).toBeNull();
    // w1's 80 EUR exceed the Grant's 50: offering it would put more work under the Grant than it allows.
    expect(checkDelegatedUse(state, actor, GRANT, { kind: 'offer', workItem: state.workItems.get(WORK)! }, ctx)?.error.reason).toBe('grant-budget-exceeded');
    const before = stateOf(granted);
    const wide = { ...before.delegationGrants.get(GRANT)!, budget: { ...GRANT_PAYLOAD.budget, financialLimit: 80, modelTokenLimit: 300000, toolCallLimit: 400 } };
    const roomy: GroupState = { ...before, delegationGrants: new Map([[GRANT, wide]]) };
    expect(checkDelegatedUse(roomy, actor, GRANT, { kind: 'offer', workItem: before.workItems.get(WORK)! }, ctx)).toBeNull();
  });

  it('lets the grantee send work.offer for a descendant under its Grant, and nothing outside it', () => {
    const offer = (from: readonly RecordedEvent[], workItemId: string, actor: Principal = DELEGATE_AGENT) =>
      command(stateOf(from), actor, 'work.offer', { workItemId, candidateAgentIds: [WORKER.id], selectionBasis: SELECTION, delegationGrantId: GRANT });
    const offered = stateOf(history([() => offer(withChild, W2)], withChild));
    expect(offered.workItems.get(W2)).toMatchObject({ state: 'offered', offers: [{ agentId: WORKER.id, status: 'pending' }] });
    expect(offered.delegationGrants.get(GRANT)?.usedBy).toEqual([W2]);
    const outside = history([steps.authorize('urn:x:w0')], withChild);
    groupSpec.given(outside).when(offer(outside, 'urn:x:w0')).thenFails('AUTH_FORBIDDEN', WORK_REASONS.outsideGrantScope);
    groupSpec.given(withChild).when(offer(withChild, W2, WORKER)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notTheGrantee);
  });

  it('refuses work outside the subtree, and work attributed to another Grant', () => {
    const outside = stateOf(history([steps.authorize('urn:x:w0')], withChild));
    expect(checkDelegatedUse(outside, actor, GRANT, { kind: 'offer', workItem: outside.workItems.get('urn:x:w0')! }, ctx)?.error.reason).toBe('outside-grant-scope');
    const w2 = state.workItems.get(W2)!;
    const foreign = workRecordOf({ ...workItemDocument(w2), extensions: { 'urn:missionweave:extension:work-item-links': { version: '0.1.0', critical: false, data: { parentWorkItemId: WORK, delegationGrantId: 'urn:x:other' } } } });
    expect(checkDelegatedUse(state, actor, GRANT, { kind: 'offer', workItem: foreign }, ctx)?.error.reason).toBe('work-item-other-grant');
  });

  it(`bounds the WorkItems used under one Grant at ${MAX_WORK_ITEMS_PER_GRANT} (RATE_LIMITED), counting each once`, () => {
    const grantNow = state.delegationGrants.get(GRANT)!;
    const usedBy = Array.from({ length: MAX_WORK_ITEMS_PER_GRANT }, (_, i) => (i === 0 ? W2 : `urn:x:used-${i}`));
    const full: GroupState = { ...state, delegationGrants: new Map([[GRANT, { ...grantNow, usedBy }]]) };
    const fresh = stateOf(history([steps.authorize('urn:x:w9')], withChild)).workItems.get('urn:x:w9')!;
    const deeper = workRecordOf({ ...workItemDocument(fresh), extensions: { 'urn:missionweave:extension:work-item-links': { version: '0.1.0', critical: false, data: { parentWorkItemId: WORK } } } });
    const fullWith: GroupState = { ...full, workItems: new Map([...full.workItems, ['urn:x:w9', deeper]]) };
    expect(checkDelegatedUse(fullWith, actor, GRANT, { kind: 'offer', workItem: deeper }, ctx)?.error).toMatchObject({ code: 'RATE_LIMITED', reason: 'grant-use-limit' });
    expect(checkDelegatedUse(full, actor, GRANT, { kind: 'offer', workItem: state.workItems.get(W2)! }, ctx)).toBeNull();
  });
});
