/**
 * The cooperation controls of §20 as given/when/then cases: issuing a Cooperation Override Grant,
 * each limit refused as RATE_LIMITED without a grant and passed with an exactly matching one
 * (consumed in the same decision, naming the accepted Event), every way a grant can fail to fit,
 * and the soft-threshold notice once per window.
 */

import { describe, expect, it } from 'vitest';
import { decideGroupCommand } from '../support/coreDecider.js';
import { fromAggregates, toAggregates } from '../../src/domain/coreModules.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { CommandEnvelope, Decision, RecordedEvent } from '../../src/domain/model.js';
import { DEFAULT_COOPERATION_LIMITS, MAX_COOPERATION_GRANTS_PER_GROUP, type CooperationLimits } from '../../src/domain/policy/cooperationLimits.js';
import { WINDOW_EVENT_KINDS, rebuildRateWindows } from '../../src/domain/policy/rateWindows.js';
import type { Principal } from '../../src/protocol/principal.js';
import { recordDrafts, testContext } from '../support/specification.js';
import { AUTHORITY, COORD, COORD2, MAIN, OWNER, REVIEWER, STRANGER, T0, WORK, WORKER, WORLD, at, busyGroup, command, groupDecider, groupSpec, history, queuedWork, stateOf, steps } from './fixtures.js';
import { GRANT_PAYLOAD, expectedGrant } from './cases/policy.grant_cooperation_override.case.js';
import { POLICY_REASONS } from '../../src/domain/policy/policyReasons.js';

const busy = busyGroup();

function decide(events: readonly RecordedEvent[], cmd: CommandEnvelope, limits: Partial<CooperationLimits> = {}, now = T0): Decision {
  const ctx = { ...testContext({ ...WORLD, now, idPrefix: 'urn:test:id:coop-' }), cooperationLimits: { ...DEFAULT_COOPERATION_LIMITS, ...limits } };
  return decideGroupCommand(stateOf(events), cmd, ctx);
}

/** `events` plus what `cmd` records, which must be accepted. */
function accepted(events: readonly RecordedEvent[], cmd: CommandEnvelope, limits: Partial<CooperationLimits> = {}): RecordedEvent[] {
  const state = stateOf(events);
  const decision = decide(events, cmd, limits);
  if (!decision.ok) throw new Error(`refused: ${decision.error.code} ${decision.error.reason}`);
  return [...events, ...recordDrafts(groupDecider, state, decision.events, cmd, testContext(WORLD))];
}

function refusal(decision: Decision): { code: string; reason: string } {
  if (decision.ok) expect.fail(`accepted with ${decision.events.map((e) => e.kind).join(', ')}`);
  return { code: decision.error.code, reason: decision.error.reason };
}

let messages = 0;
function post(state: GroupState, author: Principal, extra: Partial<CommandEnvelope> = {}): CommandEnvelope {
  return command(state, author, 'message.post', { messageId: `urn:x:coop-m${++messages}`, conversationId: MAIN, content: 'again' }, extra);
}

function grant(payload: object = {}, actor: Principal = OWNER) {
  return (s: GroupState | null) => command(s as GroupState, actor, 'policy.grant_cooperation_override', { ...GRANT_PAYLOAD, ...payload });
}

/** The busy Group with the Worker at 3 Messages in the window and a message_rate grant for `urn:x:target`. */
const atLimit = history([steps.post(WORKER, 'urn:x:m2'), steps.post(WORKER, 'urn:x:m3'), grant()], busy);
const LIMIT_3 = { messagesPerWindow: 3 };

describe('policy.grant_cooperation_override', () => {
  it('is issued by the MissionOwner, binding Mission, Group, policy, beneficiary, kind, Action ID, reason, approver, time and expiry', () => {
    groupSpec.given(busy).when(grant()(stateOf(busy))).then([{ kind: 'policy.cooperation_override.granted', payload: { cooperationOverrideGrant: expectedGrant() } }], (after) => {
      expect(after?.cooperationGrants.get('urn:x:grant')).toEqual(expectedGrant());
    });
  });

  it('is issued by the Authority as Organization policy actor', () => {
    const cmd = { ...grant()(stateOf(busy)), actor: AUTHORITY, membershipEpoch: undefined };
    groupSpec.given(busy).when(cmd).then([{ kind: 'policy.cooperation_override.granted', payload: { cooperationOverrideGrant: expectedGrant({ approver: AUTHORITY }) } }]);
  });

  it('is refused to anyone else', () => {
    groupSpec.given(busy).when(grant({}, WORKER)(stateOf(busy))).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(busy).when(grant({}, COORD)(stateOf(busy))).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(busy).when(grant({}, STRANGER)(stateOf(busy))).thenFails('GROUP_NOT_FOUND', 'group-not-found');
  });

  it(`keeps at most ${MAX_COOPERATION_GRANTS_PER_GROUP} grants in a Group (RATE_LIMITED)`, () => {
    const state = stateOf(busy);
    const one = expectedGrant();
    const full = new Map(Array.from({ length: MAX_COOPERATION_GRANTS_PER_GROUP }, (_, i) => [`urn:x:grant-${i}`, { ...one, id: `urn:x:grant-${i}` }] as const));
    const ctx = { ...testContext({ ...WORLD, idPrefix: 'urn:test:id:coop-' }), cooperationLimits: DEFAULT_COOPERATION_LIMITS };
    const cmd = grant()(state);
    expect(refusal(decideGroupCommand({ ...state, cooperationGrants: full } as GroupState, cmd, ctx))).toEqual({ code: 'RATE_LIMITED', reason: 'grant-limit' });
    full.delete('urn:x:grant-0');
    expect(decideGroupCommand({ ...state, cooperationGrants: full } as GroupState, cmd, ctx).ok).toBe(true);
  });

  it('refuses a policy that does not limit the target kind, a lapsed or too late expiry, a non-member, a taken ID', () => {
    const state = stateOf(busy);
    groupSpec.given(busy).when(grant({ policyName: 'proposal_rate' })(state)).thenFails('INVALID_COMMAND', POLICY_REASONS.policyNotForKind);
    groupSpec.given(busy).when(grant({ expiresAt: T0 })(state)).thenFails('INVALID_COMMAND', POLICY_REASONS.grantExpiryOutsideMission);
    groupSpec.given(busy).when(grant({ expiresAt: '2027-12-31T00:00:00Z' })(state)).thenFails('INVALID_COMMAND', POLICY_REASONS.grantExpiryOutsideMission);
    groupSpec.given(busy).when(grant({ beneficiary: STRANGER })(state)).thenFails('INVALID_COMMAND', POLICY_REASONS.beneficiaryNotMember);
    groupSpec.given(atLimit).when(grant()(stateOf(atLimit))).thenFails('INVALID_COMMAND', 'grant-id-taken');
  });
});

describe('the Message rate (§20)', () => {
  it('refuses a Message past the limit as RATE_LIMITED with the policy, the limit and when it resets, changing nothing', () => {
    const decision = decide(atLimit, post(stateOf(atLimit), WORKER), LIMIT_3);
    expect(decision).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'RATE_LIMITED', reason: 'message_rate-exceeded', details: { policy: 'message_rate', limit: 3, observed: 4, resetsAt: at(60) } }),
    });
  });

  it('counts per actor: another member still posts', () => {
    expect(decide(atLimit, post(stateOf(atLimit), REVIEWER), LIMIT_3).ok).toBe(true);
  });

  it('limits Agents only: a human posts on, and no notice is raised for it', () => {
    const owned = history([steps.post(OWNER, 'urn:x:o1'), steps.post(OWNER, 'urn:x:o2'), steps.post(OWNER, 'urn:x:o3')], atLimit);
    const decision = decide(owned, post(stateOf(owned), OWNER), { messagesPerWindow: 2 });
    expect(decision.ok && decision.events.map((e) => e.kind)).toEqual(['message.posted']);
  });

  it('frees a place when the window has passed', () => {
    expect(decide(atLimit, post(stateOf(atLimit), WORKER), LIMIT_3, at(61)).ok).toBe(true);
  });

  it('passes with the exactly matching grant, consumed in the same decision and naming the accepted Event', () => {
    const state = stateOf(atLimit);
    const cmd = post(state, WORKER, { actionId: 'urn:x:target', cooperationOverrideGrantId: 'urn:x:grant' });
    const decision = decide(atLimit, cmd, LIMIT_3);
    if (!decision.ok) expect.fail(decision.error.reason);
    expect(decision.events.map((e) => e.kind)).toEqual(['message.posted', 'ext.missionweave.core.cooperation_override_consumed']);
    const [posted, consumed] = decision.events;
    expect(posted?.eventId).toBe('urn:test:id:coop-1');
    expect(consumed?.payload).toEqual({
      grantId: 'urn:x:grant',
      policyName: 'message_rate',
      targetCommandKind: 'message.post',
      targetActionId: 'urn:x:target',
      consumedEventId: 'urn:test:id:coop-1',
      consumedAt: T0,
    });
    const after = stateOf(accepted(atLimit, cmd, LIMIT_3));
    expect(after.cooperationGrants.get('urn:x:grant')).toEqual(expectedGrant({ consumedAt: T0, consumedEventId: 'urn:test:id:coop-1' }));
  });

  it('refuses any other use of a consumed grant', () => {
    const cmd = post(stateOf(atLimit), WORKER, { actionId: 'urn:x:target', cooperationOverrideGrantId: 'urn:x:grant' });
    const used = accepted(atLimit, cmd, LIMIT_3);
    const again = post(stateOf(used), WORKER, { actionId: 'urn:x:target-2', cooperationOverrideGrantId: 'urn:x:grant' });
    expect(refusal(decide(used, again, LIMIT_3))).toEqual({ code: 'AUTH_FORBIDDEN', reason: 'grant-consumed' });
  });

  it('refuses a lapsed grant, an unknown one, and one for another actor, Action ID, kind or policy', () => {
    const state = stateOf(atLimit);
    const cite = (actor: Principal, actionId: string, grantId = 'urn:x:grant') => post(state, actor, { actionId, cooperationOverrideGrantId: grantId });
    const shortGrant = history([grant({ grantId: 'urn:x:short', targetActionId: 'urn:x:late', expiresAt: at(30) })], atLimit);
    const late = post(stateOf(shortGrant), WORKER, { actionId: 'urn:x:late', cooperationOverrideGrantId: 'urn:x:short' });
    expect(refusal(decide(shortGrant, late, LIMIT_3, at(40)))).toEqual({ code: 'AUTH_FORBIDDEN', reason: 'grant-expired' });
    expect(decide(shortGrant, late, LIMIT_3, at(20)).ok).toBe(true);
    expect(refusal(decide(atLimit, cite(WORKER, 'urn:x:target', 'urn:x:forged'), LIMIT_3))).toEqual({ code: 'AUTH_FORBIDDEN', reason: 'grant-unknown' });
    expect(refusal(decide(atLimit, cite(WORKER, 'urn:x:other'), LIMIT_3))).toEqual({ code: 'AUTH_FORBIDDEN', reason: 'grant-other-action' });
    // The Reviewer over the limit too, citing the Worker's grant.
    const reviewed = history([steps.post(REVIEWER, 'urn:x:r1')], atLimit);
    const byReviewer = post(stateOf(reviewed), REVIEWER, { actionId: 'urn:x:target', cooperationOverrideGrantId: 'urn:x:grant' });
    expect(refusal(decide(reviewed, byReviewer, { messagesPerWindow: 1 }))).toEqual({ code: 'AUTH_FORBIDDEN', reason: 'grant-other-beneficiary' });
    const proposalGrant = history([grant({ grantId: 'urn:x:p-grant', policyName: 'proposal_rate', targetCommandKind: 'work.propose' })], atLimit);
    const viaProposal = post(stateOf(proposalGrant), WORKER, { actionId: 'urn:x:target', cooperationOverrideGrantId: 'urn:x:p-grant' });
    expect(refusal(decide(proposalGrant, viaProposal, LIMIT_3))).toEqual({ code: 'AUTH_FORBIDDEN', reason: 'grant-other-kind' });
  });

  it('refuses a grant cited when no limit is passed', () => {
    const cmd = post(stateOf(atLimit), WORKER, { actionId: 'urn:x:target', cooperationOverrideGrantId: 'urn:x:grant' });
    expect(refusal(decide(atLimit, cmd))).toEqual({ code: 'INVALID_COMMAND', reason: 'no-limit-exceeded' });
  });

  it('tells the Coordinator once per window when an actor reaches the soft threshold', () => {
    // Limit 5: the soft threshold is 4; the Worker has 3 in the window.
    const limits = { messagesPerWindow: 5 };
    const first = decide(atLimit, post(stateOf(atLimit), WORKER), limits);
    if (!first.ok) expect.fail(first.error.reason);
    expect(first.events.map((e) => e.kind)).toEqual(['message.posted', 'ext.missionweave.core.cooperation_threshold_reached']);
    expect(first.events[1]?.payload).toEqual({ policyName: 'message_rate', principal: WORKER, count: 4, softThreshold: 4, limit: 5, windowEndsAt: at(60) });
    const noticed = accepted(atLimit, post(stateOf(atLimit), WORKER), limits);
    const second = decide(noticed, post(stateOf(noticed), WORKER), limits);
    expect(second.ok && second.events.map((e) => e.kind)).toEqual(['message.posted']);
    // A new window, a new notice.
    const later = decide(noticed, post(stateOf(noticed), WORKER), { messagesPerWindow: 1_000 }, at(61));
    expect(later.ok && later.events.map((e) => e.kind)).toEqual(['message.posted']);
    const third = decide(noticed, post(stateOf(noticed), WORKER), { messagesPerWindow: 2 }, at(61));
    expect(third.ok && third.events.map((e) => e.kind)).toEqual(['message.posted', 'ext.missionweave.core.cooperation_threshold_reached']);
  });
});

describe('the proposal rate, Mission depth and Worker load (§20, §14)', () => {
  it('refuses a proposal past the proposal rate', () => {
    const proposed = history([(s) => command(s as GroupState, WORKER, 'work.propose', { proposalId: 'urn:x:p1', contract: stateOf(busy).workItems.get(WORK)?.contract })], busy);
    const next = command(stateOf(proposed), WORKER, 'work.propose', { proposalId: 'urn:x:p2', contract: stateOf(busy).workItems.get(WORK)?.contract });
    expect(refusal(decide(proposed, next, { proposalsPerWindow: 1 }))).toEqual({ code: 'RATE_LIMITED', reason: 'proposal_rate-exceeded' });
    expect(decide(proposed, next, { proposalsPerWindow: 2 }).ok).toBe(true);
  });

  it('refuses a child Mission beyond the configured depth unless the MissionOwner grants delegation_depth', () => {
    const childPayload = {
      missionId: 'urn:x:child-mission',
      groupId: 'urn:x:child-group',
      parentWorkItemId: WORK,
      coordinatorId: COORD2.id,
      title: 'Child',
      objective: 'A part of the work.',
      definitionOfDone: [{ criterionId: 'c1', description: 'done', evidenceRequired: ['human_review'] }],
      budget: { currency: 'EUR', financialLimit: 10 },
      deadline: '2026-09-10T00:00:00Z',
    };
    const child = (s: GroupState, extra: Partial<CommandEnvelope> = {}) => command(s, COORD, 'mission.create_child', childPayload, extra);
    const refused = decide(busy, child(stateOf(busy)), { maxMissionDepth: 0 });
    expect(refused.ok ? null : refused.error.details).toEqual({ policy: 'delegation_depth', limit: 0, observed: 1 });
    expect(decide(busy, child(stateOf(busy)))).toMatchObject({ ok: true });
    const granted = history([grant({ grantId: 'urn:x:depth', policyName: 'delegation_depth', beneficiary: COORD, targetCommandKind: 'mission.create_child', targetActionId: 'urn:x:deep' })], busy);
    const passed = decide(granted, child(stateOf(granted), { actionId: 'urn:x:deep', cooperationOverrideGrantId: 'urn:x:depth' }), { maxMissionDepth: 0 });
    expect(passed.ok && passed.events.map((e) => e.kind)).toEqual(['mission.child.created', 'mission.created', 'ext.missionweave.core.cooperation_override_consumed']);
  });

  it('refuses a Worker more queued or active WorkItems than the limits, and a grant for the other policy', () => {
    const queued = queuedWork();
    const start = command(stateOf(queued), WORKER, 'work.start', { workItemId: WORK, ownershipEpoch: 1 });
    expect(refusal(decide(queued, start, { maxActiveWorkItems: 0 }))).toEqual({ code: 'RATE_LIMITED', reason: 'active_work_items-exceeded' });
    expect(decide(queued, start).ok).toBe(true);
    const offered = history([steps.offer([WORKER])], busy);
    const accept = (extra: Partial<CommandEnvelope> = {}) => command(stateOf(offered), WORKER, 'work.accept_offer', { workItemId: WORK }, extra);
    expect(refusal(decide(offered, accept(), { maxQueuedWorkItems: 0 }))).toEqual({ code: 'RATE_LIMITED', reason: 'queued_work_items-exceeded' });
    const wrongPolicy = history([grant({ grantId: 'urn:x:active', policyName: 'active_work_items', targetCommandKind: 'work.accept_offer', targetActionId: 'urn:x:accept' })], offered);
    const cited = command(stateOf(wrongPolicy), WORKER, 'work.accept_offer', { workItemId: WORK }, { actionId: 'urn:x:accept', cooperationOverrideGrantId: 'urn:x:active' });
    expect(refusal(decide(wrongPolicy, cited, { maxQueuedWorkItems: 0 }))).toEqual({ code: 'AUTH_FORBIDDEN', reason: 'grant-other-policy' });
  });
});

describe('Group state', () => {
  it('keeps grants as their own rows and the rate windows out of storage', () => {
    const state = stateOf(atLimit);
    expect(state.rateWindows.size).toBeGreaterThan(0);
    const rows = toAggregates(state);
    expect(rows.filter((r) => r.type === 'cooperation-override-grant')).toEqual([{ type: 'cooperation-override-grant', id: 'urn:x:grant', revision: 1, document: expectedGrant() }]);
    const reloaded = fromAggregates(state.groupId, state.lastSequence, rows);
    expect(reloaded.cooperationGrants).toEqual(state.cooperationGrants);
    expect(reloaded.rateWindows.size).toBe(0);
  });

  it('rebuilds the rate windows and notices from the Events of the kinds that count, as evolve built them', () => {
    const limits = { messagesPerWindow: 5 };
    const noticed = accepted(atLimit, post(stateOf(atLimit), WORKER), limits);
    const windowEvents = noticed.filter((e) => WINDOW_EVENT_KINDS.includes(e.kind)).map((e, i) => ({ ...e, sequence: e.sequence ?? i + 1, payload: e.payload as never }));
    expect(windowEvents.map((e) => e.kind)).toContain('ext.missionweave.core.cooperation_threshold_reached');
    const rebuilt = rebuildRateWindows(windowEvents);
    expect(rebuilt).toEqual(stateOf(noticed).rateWindows);
    expect([...rebuilt.values()].some((w) => w.noticedUntil !== undefined)).toBe(true);
  });
});
