/**
 * The Authorization Service's rules (§12), one given/when/then per rule:
 * `ext.missionweave.core.capability_grant` binds a token to the Agent and Session Epoch, the
 * WorkItem and Ownership Epoch and the current Execution Lease, least privilege, ceilings capped
 * by the contract and the remaining budget, expiry within the lease, and no token before the
 * approval gate is satisfied; a token's validity (expired, superseded, lease closed, mismatched)
 * and its charges (`checkCapabilityCharge`, its ceilings); Organization policy's gate on
 * `work.start`.
 */

import { describe, expect, it } from 'vitest';
import { CAPABILITY_GRANTS_KEPT, CAPABILITY_GRANTS_PER_LEASE } from '../../src/domain/workItem/authorizationLimits.js';
import { checkCapabilityCharge } from '../../src/domain/authorization/capabilityCharge.js';
import { currentGrant, grantsOf, grantsUnderLease, withCapabilityCharge, withGrant } from '../../src/domain/workItem/capabilityGrants.js';
import { checkCapabilityValid } from '../../src/domain/authorization/capabilityStatus.js';
import { gatedCategories, requiredExecutionApproval } from '../../src/domain/workItem/executionPolicy.js';
import { NO_USAGE } from '../../src/domain/budgetMath.js';
import { workItemDocument, type WorkRecord } from '../../src/domain/workItem/workRecord.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { Decision, RecordedEvent } from '../../src/domain/model.js';
import { isRefusal } from '../../src/domain/workItem/fencing.js';
import type { Principal } from '../../src/protocol/principal.js';
import { testContext } from '../support/specification.js';
import { AUTHORITY, CONTRACT, OWNER, RUNNABLE_CONTRACT, WORK, WORKER, WORKER2, WORLD, activeWork, at, command, expectStateValid, groupSpec, history, stateOf, steps } from './fixtures.js';
import { currentLeaseId, start, thenAt, worldWith } from './ownershipCommands.js';
import { agent, SQL_CAPABILITIES } from './fixtures.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { AUTHORIZATION_REASONS } from '../../src/domain/authorization/authorizationReasons.js';

const GRANT = 'ext.missionweave.core.capability_grant';
const GRANTED = 'ext.missionweave.core.capability_granted';
const STAGING_DB = 'urn:missionweave:resource:billing-db-staging';

function grant(state: GroupState, extra: object = {}, actor: Principal = AUTHORITY) {
  const leaseId = state.workItems.get(WORK)?.state === 'active' ? currentLeaseId(state) : 'urn:missionweave:lease:none';
  return command(state, actor, GRANT, { workItemId: WORK, agentId: WORKER.id, sessionEpoch: 1, ownershipEpoch: 1, executionLeaseId: leaseId, ...extra });
}

const granted = (extra: object = {}) => (s: GroupState | null) => grant(s!, extra);

/** The grant an accepted decision records (the whole Event is stated in the first case). */
function grantOf(decision: Decision): Record<string, unknown> {
  if (!decision.ok) return expect.fail(`refused: ${decision.error.code} ${decision.error.reason}`);
  return (decision.events[0]!.payload as { grant: Record<string, unknown> }).grant;
}

function workItemOf(events: RecordedEvent[]): WorkRecord {
  return stateOf(events).workItems.get(WORK)!;
}

describe('ext.missionweave.core.capability_grant (§12: the Authorization Service grants a token)', () => {
  const events = activeWork();
  const s = stateOf(events);
  const lease = currentLeaseId(s);

  it('grants the owner a token bound to its Session, Ownership Epoch and Execution Lease, all the contract allows, capped by the remaining budget', () => {
    const before = s.workItems.get(WORK)!;
    const claims = {
      tokenId: 'urn:test:id:when-1',
      issuer: AUTHORITY,
      agentId: WORKER.id,
      sessionEpoch: 1,
      missionId: s.mission.missionId,
      groupId: s.groupId,
      workItemId: WORK,
      ownershipEpoch: 1,
      executionLeaseId: lease,
      tools: ['acme.sql-migration'],
      resources: [{ resource: STAGING_DB, operations: ['db.migrate', 'db.read'] }],
      // min(contract: EUR 80, 300,000 tokens, 400 calls; Mission: EUR 1,200, …): the Mission grants no side effects.
      limits: { financialMicrounits: 80_000_000, modelTokens: 300_000, toolCalls: 400 },
      issuedAt: at(0),
      expiresAt: at(300),
    };
    const workItem = workItemDocument(withGrant({ ...before, revision: before.revision + 1, updatedAt: at(0) }, claims));
    groupSpec
      .given(events)
      .when(grant(s))
      .then([{ kind: GRANTED, payload: { workItemId: WORK, workItem, grant: claims }, aggregate: { type: 'work-item', id: WORK, revision: before.revision + 1 } }], (after, _before, drafts) => {
        expect(currentGrant(after!.workItems.get(WORK)!)).toEqual({ ...claims, used: NO_USAGE });
        expect(JSON.stringify(drafts)).not.toContain('mwcap1');
        expectStateValid(after!);
      });
  });

  it('narrows to the tools, resources, operations and ceilings asked for, and expires no later than the Execution Lease', () => {
    const g = grantOf(groupSpec.given(events).when(grant(s, { tools: ['acme.sql-migration'], resources: [{ resource: STAGING_DB, operations: ['db.read'] }], limits: { toolCalls: 1 }, expiresInSeconds: 3600 })).decision);
    expect(g['resources']).toEqual([{ resource: STAGING_DB, operations: ['db.read'] }]);
    expect(g['limits']).toEqual({ toolCalls: 1 });
    expect(g['expiresAt']).toBe(at(300));
  });

  it('refuses anyone but the Group Authority service (AUTH_FORBIDDEN)', () => {
    groupSpec.given(events).when(grant(s, {}, WORKER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(events).when(grant(s, {}, OWNER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
  });

  it('refuses a WorkItem that is not active (INVALID_STATE_TRANSITION)', () => {
    const queued = history([steps.create, steps.addMember(WORKER), steps.authorize(WORK, RUNNABLE_CONTRACT), steps.offer([WORKER]), steps.acceptOffer(WORKER)]);
    groupSpec.given(queued).when(grant(stateOf(queued))).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
  });

  it('refuses an Agent that is not the owner (AUTH_FORBIDDEN), a stale Ownership Epoch (WORK_STALE_OWNERSHIP)', () => {
    groupSpec.given(events).when(grant(s, { agentId: WORKER2.id })).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notTheOwner);
    groupSpec.given(events).when(grant(s, { ownershipEpoch: 2 })).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
  });

  it('refuses a Session that is not the Agent’s current one (AUTH_STALE_SESSION)', () => {
    const replaced = worldWith({ ...agent(WORKER, 'active', SQL_CAPABILITIES), sessionEpoch: 2 });
    groupSpec.given(events).when(grant(s), replaced).thenFails('AUTH_STALE_SESSION', AUTHORIZATION_REASONS.sessionNotCurrent);
  });

  it('refuses an Execution Lease that is not the current live one (WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(events).when(grant(s, { executionLeaseId: 'urn:missionweave:lease:old' })).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-not-current');
    groupSpec.given(events).when(grant(s), { now: at(300) }).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-expired');
  });

  it('refuses tools, resources and operations beyond the contract (AUTH_FORBIDDEN)', () => {
    groupSpec.given(events).when(grant(s, { tools: ['acme.payments'] })).thenFails('AUTH_FORBIDDEN', AUTHORIZATION_REASONS.toolNotAllowed);
    groupSpec.given(events).when(grant(s, { resources: [{ resource: 'urn:missionweave:resource:prod', operations: ['db.read'] }] })).thenFails('AUTH_FORBIDDEN', 'resource-not-allowed');
    groupSpec.given(events).when(grant(s, { resources: [{ resource: STAGING_DB, operations: ['db.drop'] }] })).thenFails('AUTH_FORBIDDEN', AUTHORIZATION_REASONS.operationNotAllowed);
  });

  it('refuses a ceiling beyond what remains, or in a dimension nobody granted (BUDGET_EXCEEDED)', () => {
    groupSpec.given(events).when(grant(s, { limits: { toolCalls: 401 } })).thenFails('BUDGET_EXCEEDED', AUTHORIZATION_REASONS.capabilityOverBudget);
    groupSpec.given(events).when(grant(s, { limits: { externalActions: 1 } })).thenFails('BUDGET_EXCEEDED', AUTHORIZATION_REASONS.capabilityOverBudget);
    expect(grantOf(groupSpec.given(events).when(grant(s, { limits: { toolCalls: 400 } })).decision)['limits']).toEqual({ toolCalls: 400 });
  });

  it('refuses every token once a granted dimension is exhausted: the work pauses (BUDGET_EXCEEDED)', () => {
    const contract = { ...RUNNABLE_CONTRACT, budget: { toolCallLimit: 0, modelTokenLimit: 10 } };
    const spent = history([steps.create, steps.addMember(WORKER), steps.authorize(WORK, contract), steps.offer([WORKER]), steps.acceptOffer(WORKER), steps.startWork(WORKER)]);
    groupSpec.given(spent).when(grant(stateOf(spent))).thenFails('BUDGET_EXCEEDED', 'budget-exhausted');
  });

  it('a new grant under the same lease supersedes the earlier one, and the WorkItem keeps the last few only', () => {
    let rotated = events;
    for (let i = 0; i < CAPABILITY_GRANTS_KEPT + 2; i++) rotated = history([granted()], rotated);
    const grants = grantsOf(workItemOf(rotated));
    expect(grants).toHaveLength(CAPABILITY_GRANTS_KEPT);
    const ctx = testContext(WORLD);
    const first = grants[0]!;
    const last = grants.at(-1)!;
    expect(checkCapabilityValid(workItemOf(rotated), last, ctx)).toEqual(last);
    const old = checkCapabilityValid(workItemOf(rotated), first, ctx);
    expect(isRefusal(old) && old.error.reason).toBe('capability-revoked');
  });
});

describe('grants per Execution Lease (hostile input: each grant is an Event)', () => {
  it('grants at most CAPABILITY_GRANTS_PER_LEASE tokens under one lease, then RATE_LIMITED; a new lease starts afresh', () => {
    let many = activeWork();
    for (let i = 0; i < CAPABILITY_GRANTS_PER_LEASE; i++) many = history([granted()], many);
    const s = stateOf(many);
    expect(grantsUnderLease(s.workItems.get(WORK)!, currentLeaseId(s))).toBe(CAPABILITY_GRANTS_PER_LEASE);
    groupSpec.given(many).when(grant(s)).thenFails('RATE_LIMITED', AUTHORIZATION_REASONS.capabilityGrantsPerLease);
    const restarted = history(
      [
        (st) => command(st!, WORKER, 'work.checkpoint', { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: currentLeaseId(st!), checkpoint: { phase: 'half' } }),
        (st) => start(st!),
      ],
      many,
    );
    expect(groupSpec.given(restarted).when(grant(stateOf(restarted))).decision.ok).toBe(true);
  });
});

describe('a token’s validity (expired, revoked, mismatched) and its charges', () => {
  const events = history([granted({ limits: { toolCalls: 1, modelTokens: 100 } })], activeWork());
  const workItem = workItemOf(events);
  const claims = currentGrant(workItem)!;
  const ctx = testContext(WORLD);
  const reason = (value: unknown) => (isRefusal(value) ? `${value.error.code} ${value.error.reason}` : 'valid');

  it('is valid while its grant is the newest and its lease the current live one', () => {
    expect(reason(checkCapabilityValid(workItem, claims, ctx))).toBe('valid');
  });

  it('is expired once its expiry passed (WORK_LEASE_EXPIRED)', () => {
    expect(reason(checkCapabilityValid(workItem, claims, testContext({ ...WORLD, now: at(300) })))).toBe('WORK_LEASE_EXPIRED capability-expired');
  });

  it('is mismatched when any bound member differs, unknown when no grant has its ID (AUTH_FORBIDDEN)', () => {
    expect(reason(checkCapabilityValid(workItem, { ...claims, agentId: WORKER2.id }, ctx))).toBe('AUTH_FORBIDDEN capability-mismatch');
    expect(reason(checkCapabilityValid(workItem, { ...claims, expiresAt: at(3600) }, ctx))).toBe('AUTH_FORBIDDEN capability-mismatch');
    expect(reason(checkCapabilityValid(workItem, { ...claims, tokenId: 'urn:x:forged' }, ctx))).toBe('AUTH_FORBIDDEN capability-unknown');
  });

  it('is revoked when its lease closes (checkpoint, expiry, re-offer) or its Session is replaced (AUTH_FORBIDDEN)', () => {
    const checkpointed = history([(st) => command(st!, WORKER, 'work.checkpoint', { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: claims.executionLeaseId, checkpoint: { phase: 'half' } })], events);
    expect(reason(checkCapabilityValid(workItemOf(checkpointed), claims, ctx))).toBe('AUTH_FORBIDDEN capability-revoked');
    const replaced = testContext({ ...WORLD, ...worldWith({ ...agent(WORKER, 'active', SQL_CAPABILITIES), sessionEpoch: 2 }) });
    expect(reason(checkCapabilityValid(workItem, claims, replaced))).toBe('AUTH_FORBIDDEN capability-revoked');
  });

  it('charges within the token’s ceilings; a second tool call beyond a one-call token is BUDGET_EXCEEDED', () => {
    const state = stateOf(events);
    const call = { ...NO_USAGE, toolCalls: 1 };
    expect(checkCapabilityCharge(state, workItem, claims.tokenId, call, ctx)).toBeNull();
    const charged = withCapabilityCharge(workItem, claims.tokenId, call);
    expect(currentGrant(charged)?.used).toEqual(call);
    expect(reason(checkCapabilityCharge(state, charged, claims.tokenId, call, ctx))).toBe('BUDGET_EXCEEDED capability-limit');
    expect(reason(checkCapabilityCharge(state, workItem, claims.tokenId, { ...NO_USAGE, computeSeconds: 1 }, ctx))).toBe('BUDGET_EXCEEDED capability-limit');
    expect(reason(checkCapabilityCharge(state, workItem, 'urn:x:none', call, ctx))).toBe('AUTH_FORBIDDEN capability-unknown');
    expect(reason(checkCapabilityCharge(state, workItem, claims.tokenId, call, testContext({ ...WORLD, now: at(301) })))).toBe('WORK_LEASE_EXPIRED capability-expired');
  });
});

describe('Organization execution-approval policy (§12): gated work gets no start and no token before a human’s approval', () => {
  const PAYMENT_CONTRACT = { ...RUNNABLE_CONTRACT, allowedResources: [{ resource: STAGING_DB, operations: ['db.read', 'payment.create'] }] };
  const DESTRUCTIVE_CONTRACT = { ...RUNNABLE_CONTRACT, sideEffectRisk: 'destructive' };

  it('gates production, payments, external communication, destructive and sensitive-data work whatever the contract says; low risk proceeds', () => {
    expect(gatedCategories(PAYMENT_CONTRACT as never)).toEqual(['payment']);
    expect(gatedCategories(DESTRUCTIVE_CONTRACT as never)).toEqual(['destructive_change']);
    expect(gatedCategories({ ...RUNNABLE_CONTRACT, sideEffectRisk: 'external' } as never)).toEqual(['external_communication']);
    expect(gatedCategories({ ...RUNNABLE_CONTRACT, allowedResources: [{ resource: STAGING_DB, operations: ['data.sensitive:read', 'deploy:production'] }] } as never)).toEqual([
      'production_deployment',
      'sensitive_data_access',
    ]);
    expect(requiredExecutionApproval(PAYMENT_CONTRACT as never)).toBe('human_required');
    expect(requiredExecutionApproval(RUNNABLE_CONTRACT as never)).toBe('not_required');
    expect(requiredExecutionApproval(CONTRACT as never)).toBe('policy_required');
  });

  const gated = history([steps.create, steps.addMember(WORKER), steps.authorize(WORK, DESTRUCTIVE_CONTRACT), steps.offer([WORKER]), steps.acceptOffer(WORKER)]);

  it('work.start refuses gated work without an approval (APPROVAL_REQUIRED), even when the contract requires none', () => {
    groupSpec.given(gated).when(start(stateOf(gated))).thenFails('APPROVAL_REQUIRED', 'execution-approval-required');
  });

  it('the Group Authority may not approve policy-gated work; the human MissionOwner may, and then it starts', () => {
    const g = stateOf(gated);
    const approve = (actor: Principal) => command(g, actor, 'approval.grant_execution', { approvalId: 'urn:missionweave:approval:x1', workItemId: WORK, ownershipEpoch: 1, operations: ['db.migrate'] });
    groupSpec.given(gated).when(approve(AUTHORITY)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.humanApprovalRequired);
    const approved = history([() => approve(OWNER)], gated);
    expect(groupSpec.given(approved).when(start(stateOf(approved))).decision.ok).toBe(true);
  });

  it('issues no token until the approval (APPROVAL_REQUIRED), then only within the approved operations and expiry', () => {
    const approved = thenAt(
      gated,
      at(0),
      (st) => command(st!, OWNER, 'approval.grant_execution', { approvalId: 'urn:missionweave:approval:x2', workItemId: WORK, ownershipEpoch: 1, operations: ['db.migrate'], expiresInSeconds: 120 }),
      (st) => start(st!),
    );
    const a = stateOf(approved);
    const g = grantOf(groupSpec.given(approved).when(grant(a)).decision);
    expect(g['resources']).toEqual([{ resource: STAGING_DB, operations: ['db.migrate'] }]);
    expect(g['expiresAt']).toBe(at(120));
    groupSpec.given(approved).when(grant(a, { resources: [{ resource: STAGING_DB, operations: ['db.read'] }] })).thenFails('AUTH_FORBIDDEN', AUTHORIZATION_REASONS.operationNotAllowed);
    groupSpec.given(approved).when(grant(a), { now: at(121) }).thenFails('APPROVAL_REQUIRED', 'execution-approval-required');
  });

  it('withholds the token of contract-gated (policy_required) work once its approval lapsed, though it started under one (APPROVAL_REQUIRED)', () => {
    const started = history([
      steps.create,
      steps.addMember(WORKER),
      steps.authorize(WORK, CONTRACT),
      steps.offer([WORKER]),
      steps.acceptOffer(WORKER),
      (st) => command(st!, AUTHORITY, 'approval.grant_execution', { approvalId: 'urn:missionweave:approval:p1', workItemId: WORK, ownershipEpoch: 1, operations: ['db.migrate'], expiresInSeconds: 60 }),
      (st) => start(st!),
    ]);
    const p = stateOf(started);
    expect(grantOf(groupSpec.given(started).when(grant(p), { now: at(59) }).decision)['expiresAt']).toBe(at(60));
    groupSpec.given(started).when(grant(p), { now: at(60) }).thenFails('APPROVAL_REQUIRED', 'execution-approval-required');
  });
});
