/**
 * The two §20 limits judged on the Group state (`src/domain/policy/decompositionLimits.ts`):
 * unresolved clarification rounds (`work.block` while the Worker already holds blocked work) and
 * circular or duplicate decomposition (a proposal or WorkItem asking for what unfinished work of
 * the Group already asks for; a child Mission repeating its Mission's objective). Each refused as
 * RATE_LIMITED with nothing changed, passed with an exactly matching Cooperation Override Grant.
 */

import { describe, expect, it } from 'vitest';
import { decideGroupCommand } from '../support/coreDecider.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { CommandEnvelope, Decision, RecordedEvent } from '../../src/domain/model.js';
import { DEFAULT_COOPERATION_LIMITS, type CooperationLimits } from '../../src/domain/policy/cooperationLimits.js';
import { clarificationCrossing, clarificationLimit } from '../../src/domain/policy/decompositionLimits.js';
import type { Principal } from '../../src/protocol/principal.js';
import { testContext } from '../support/specification.js';
import { EXEC_CHECKPOINT, EXEC_LEASED, execState } from './execFixtures.js';
import { CONTRACT, COORD, COORD2, OWNER, T0, WORK, WORKER, WORKER2, WORLD, busyGroup, command, history, stateOf } from './fixtures.js';
import { GRANT_PAYLOAD } from './cases/policy.grant_cooperation_override.case.js';

function decide(events: readonly RecordedEvent[], cmd: CommandEnvelope, limits: Partial<CooperationLimits> = {}): Decision {
  const ctx = { ...testContext({ ...WORLD, now: T0, idPrefix: 'urn:test:id:dec-' }), cooperationLimits: { ...DEFAULT_COOPERATION_LIMITS, ...limits } };
  return decideGroupCommand(stateOf(events), cmd, ctx);
}

function kinds(decision: Decision): string[] {
  if (!decision.ok) expect.fail(`refused: ${decision.error.code} ${decision.error.reason}`);
  return decision.events.map((e) => e.kind);
}

function refusal(decision: Decision): { code: string; reason: string; details: unknown } {
  if (decision.ok) expect.fail(`accepted with ${decision.events.map((e) => e.kind).join(', ')}`);
  return { code: decision.error.code, reason: decision.error.reason, details: decision.error.details };
}

function grant(payload: object, actor: Principal = OWNER) {
  return (s: GroupState | null) => command(s as GroupState, actor, 'policy.grant_cooperation_override', { ...GRANT_PAYLOAD, ...payload });
}

const CONSUMED = 'ext.missionweave.core.cooperation_override_consumed';

describe('unresolved clarification rounds (§20)', () => {
  const active = execState({ state: 'active' });
  const block = (s: GroupState, extra: Partial<CommandEnvelope> = {}) =>
    command(s, WORKER, 'work.block', { ...EXEC_LEASED, reason: 'which schema?', checkpoint: EXEC_CHECKPOINT }, extra);

  it('refuses a work.block past the limit of open rounds as RATE_LIMITED, and accepts it under the limit', () => {
    expect(refusal(decide(active.events, block(active.state), { maxUnresolvedClarifications: 0 }))).toEqual({
      code: 'RATE_LIMITED',
      reason: 'unresolved_clarifications-exceeded',
      details: { policy: 'unresolved_clarifications', limit: 0, observed: 1 },
    });
    expect(kinds(decide(active.events, block(active.state)))).toEqual(['work.blocked']);
  });

  it('counts the blocked WorkItems the Worker owns in the Group, not another Worker’s', () => {
    const blocked = stateOf(execState({ state: 'blocked' }).events);
    const next = { ...block(blocked), payload: { ...block(blocked).payload, workItemId: 'urn:x:other' } };
    const limits = { ...DEFAULT_COOPERATION_LIMITS, maxUnresolvedClarifications: 1 };
    expect(clarificationLimit(blocked, next, limits)).toEqual({ policy: 'unresolved_clarifications', limit: 1, observed: 2 });
    expect(clarificationLimit(blocked, { ...next, actor: WORKER2 }, limits)).toBeNull();
    expect(clarificationLimit(blocked, next, { ...limits, maxUnresolvedClarifications: 2 })).toBeNull();
  });

  it('tells the Coordinator when a block raises the open rounds to the soft threshold, once per rise', () => {
    // Limit 2: the soft threshold is 1, so the Worker's first open round is the one that reaches it.
    const decision = decide(active.events, block(active.state), { maxUnresolvedClarifications: 2 });
    expect(kinds(decision)).toEqual(['work.blocked', 'ext.missionweave.core.cooperation_threshold_reached']);
    expect(decision.ok && decision.events[1]?.payload).toEqual({ policyName: 'unresolved_clarifications', principal: WORKER, count: 1, softThreshold: 1, limit: 2 });
    // Past the threshold (limit 3, soft 2: one open round, this block makes 2) a notice; at 1 of soft 2, none.
    const blocked = stateOf(execState({ state: 'blocked' }).events);
    const another = { ...block(blocked), payload: { ...block(blocked).payload, workItemId: 'urn:x:other' } };
    expect(clarificationCrossing(blocked, another, { ...DEFAULT_COOPERATION_LIMITS, maxUnresolvedClarifications: 3 })).toMatchObject({ count: 2, softThreshold: 2 });
    expect(clarificationCrossing(blocked, another, { ...DEFAULT_COOPERATION_LIMITS, maxUnresolvedClarifications: 2 })).toBeNull();
  });

  it('passes with a MissionOwner grant naming unresolved_clarifications, consumed with the block', () => {
    const granted = history([grant({ grantId: 'urn:x:clar', policyName: 'unresolved_clarifications', targetCommandKind: 'work.block', targetActionId: 'urn:x:block' })], active.events);
    const cited = block(stateOf(granted), { actionId: 'urn:x:block', cooperationOverrideGrantId: 'urn:x:clar' });
    expect(kinds(decide(granted, cited, { maxUnresolvedClarifications: 0 }))).toEqual(['work.blocked', CONSUMED]);
    // The grant is for this limit only: with the limit not passed, citing it is refused.
    expect(refusal(decide(granted, cited)).reason).toBe('no-limit-exceeded');
  });
});

describe('circular or duplicate decomposition (§20)', () => {
  const busy = busyGroup();
  const propose = (s: GroupState, proposalId: string, contract: object = CONTRACT, extra: Partial<CommandEnvelope> = {}) =>
    command(s, WORKER, 'work.propose', { proposalId, contract }, extra);

  it('refuses a proposal asking for what unfinished WorkItems already ask for, naming how many alike', () => {
    // busyGroup holds WorkItem w1 authorized with CONTRACT.
    expect(refusal(decide(busy, propose(stateOf(busy), 'urn:x:p1'), { maxDuplicateWork: 1 }))).toEqual({
      code: 'RATE_LIMITED',
      reason: 'duplicate_decomposition-exceeded',
      details: { policy: 'duplicate_decomposition', limit: 1, observed: 2 },
    });
    // Another goal, or other criteria, is other work; with the default limit a little redundancy passes.
    expect(kinds(decide(busy, propose(stateOf(busy), 'urn:x:p1', { ...CONTRACT, goal: 'Something else.' }), { maxDuplicateWork: 1 }))).toEqual(['work.proposed']);
    const criteria = [{ ...CONTRACT.acceptanceCriteria[0]!, description: 'another check' }];
    expect(kinds(decide(busy, propose(stateOf(busy), 'urn:x:p1', { ...CONTRACT, acceptanceCriteria: criteria }), { maxDuplicateWork: 1 }))).toEqual(['work.proposed']);
    expect(kinds(decide(busy, propose(stateOf(busy), 'urn:x:p1')))).toEqual(['work.proposed']);
  });

  it('counts open proposals, lets the Coordinator take one up, and refuses a second WorkItem beside it', () => {
    const other = { ...CONTRACT, goal: 'Write the runbook.' };
    const proposed = history([(s) => propose(s as GroupState, 'urn:x:p1', other)], busy);
    const limits = { maxDuplicateWork: 1 };
    expect(refusal(decide(proposed, propose(stateOf(proposed), 'urn:x:p2', other), limits)).reason).toBe('duplicate_decomposition-exceeded');
    const takeUp = command(stateOf(proposed), COORD, 'work.authorize', { workItemId: 'urn:x:w-runbook', contract: other, proposalId: 'urn:x:p1' });
    expect(kinds(decide(proposed, takeUp, limits))).toEqual(['work.authorized']);
    const beside = command(stateOf(proposed), COORD, 'work.authorize', { workItemId: 'urn:x:w-runbook', contract: other });
    expect(refusal(decide(proposed, beside, limits))).toMatchObject({ code: 'RATE_LIMITED', reason: 'duplicate_decomposition-exceeded' });
  });

  it('passes a duplicate with an exactly matching grant, consumed with the proposal', () => {
    const granted = history([grant({ grantId: 'urn:x:dup', policyName: 'duplicate_decomposition', targetCommandKind: 'work.propose', targetActionId: 'urn:x:again' })], busy);
    const cited = propose(stateOf(granted), 'urn:x:p1', CONTRACT, { actionId: 'urn:x:again', cooperationOverrideGrantId: 'urn:x:dup' });
    expect(kinds(decide(granted, cited, { maxDuplicateWork: 1 }))).toEqual(['work.proposed', CONSUMED]);
  });

  it('refuses a child Mission whose objective repeats its Mission’s (circular decomposition)', () => {
    const state = stateOf(busy);
    const childPayload = {
      missionId: 'urn:x:child-mission',
      groupId: 'urn:x:child-group',
      parentWorkItemId: WORK,
      coordinatorId: COORD2.id,
      title: 'Child',
      objective: ` ${state.mission.objective} `,
      definitionOfDone: [{ criterionId: 'c1', description: 'done', evidenceRequired: ['human_review'] }],
      budget: { currency: 'EUR', financialLimit: 10 },
      deadline: '2026-09-10T00:00:00Z',
    };
    expect(refusal(decide(busy, command(state, COORD, 'mission.create_child', childPayload)))).toEqual({
      code: 'RATE_LIMITED',
      reason: 'duplicate_decomposition-exceeded',
      details: { policy: 'duplicate_decomposition', limit: 0, observed: 1 },
    });
    expect(kinds(decide(busy, command(state, COORD, 'mission.create_child', { ...childPayload, objective: 'A part of the work.' })))).toEqual(['mission.child.created', 'mission.created']);
  });
});
