/**
 * Bounded offline execution (§11.5): a Worker's progress buffered while the Group service was
 * unreachable, rebased into its current Session and reconciled against the WorkItem's recorded
 * leases, with its resource charge in the same decision (src/domain/workItem/reconcileOffline.ts).
 *
 * The world: Worker worker-7 owns WorkItem w1 under Ownership Epoch 1 and ran it under Execution
 * Lease exec-1 (Session 1, T0 to T0+600 s). It lost the service at T0+100 s and buffered progress
 * at T0+150 s, grace deadline T0+400 s. Its reconnection (Session 2) revoked exec-1 at T0+300 s and
 * returned w1 to `queued` (§11.3); the rebased Commands arrive at T0+320 s. A buffered checkpoint
 * is decided by the real `work.checkpoint` kind once the Worker holds exec-2 in Session 2; the
 * hook's own rules for checkpoints are also shown around a stubbed kind.
 */

import { describe, expect, it } from 'vitest';
import { evolveGroup } from '../support/coreDecider.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { Lease, WorkItem } from '../../src/domain/documents.js';
import type { CommandEnvelope, Decision, EventDraft, RecordedEvent } from '../../src/domain/model.js';
import { accept, refuse } from '../../src/domain/model.js';
import { OFFLINE_EXECUTION_EXTENSION } from '../../src/protocol/offlineExecution.js';
import { NO_USAGE, type OfflineBinding, type ResourceUsage } from '../../src/domain/workItem/offlineBinding.js';
import { chargesOfflineUsage, decideWithOfflineBinding } from '../../src/domain/workItem/reconcileOffline.js';
import { coreRegistry } from '../support/coreDecider.js';
import { type ResourceUsageRecordedPayload } from '../../src/domain/workItem/resourceUsage.js';
import { RESOURCE_USAGE_EXTENSION, usageOf, withUsage } from '../../src/domain/workItem/usageAccount.js';
import { closeLease, newWorkLease } from '../../src/domain/workItem/workLeases.js';
import { documentWithLeases, workItemIn } from './workDocuments.js';
import { EXAMPLE_WORK_CONTRACT } from '../support/payloadExamples.js';
import { recordDrafts, testContext } from '../support/specification.js';
import { COORD, GROUP, MAIN, MISSION, WORK, WORKER, WORLD, at, command, expectStateValid, groupDecider, groupSpec, history, stateOf, steps } from './fixtures.js';
import { workItemDocument, workRecordOf } from '../../src/domain/workItem/workRecord.js';

const coreKinds = coreRegistry();

const W2 = 'urn:missionweave:work-item:w2';
const EXEC = 'urn:missionweave:lease:exec-1';
const NOW = at(320);

const created = history([steps.create, steps.addMember(WORKER)]);
// A budget granting every dimension the tests charge (an ungranted one allows nothing, §12).
const CHARGED_CONTRACT = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], budget: { ...EXAMPLE_WORK_CONTRACT.budget, computeSecondsLimit: 36000, wallClockSecondsLimit: 86400 } };
const authorized = history([steps.authorize(WORK, CHARGED_CONTRACT), steps.authorize(W2)], created);
const fresh = workItemIn(stateOf(authorized));
const ctxAt = (seconds: number) => testContext({ ...WORLD, now: at(seconds) });

const ownership = newWorkLease({ leaseId: 'urn:missionweave:lease:own-1', leaseType: 'ownership', workItem: fresh, holderAgentId: WORKER.id, sessionEpoch: 1, ownershipEpoch: 1, seconds: 3600 }, ctxAt(0));
const execution = newWorkLease({ leaseId: EXEC, leaseType: 'execution', workItem: fresh, holderAgentId: WORKER.id, sessionEpoch: 1, ownershipEpoch: 1, seconds: 600 }, ctxAt(0));
const PIN = { id: 'acme.sql-migration', version: '1.4.0' };
const owner = { agentId: WORKER.id, agentCardVersion: 3, capabilityPins: [PIN], ownershipEpoch: 1, ownershipLeaseId: ownership.leaseId, acceptedAt: T(0) };
const selectionBasis = {
  requiredCapabilities: [PIN],
  verifiedMatches: [PIN],
  authorizationEligible: true,
  availabilityEstimate: T(0),
  expectedCost: 12,
  reliabilityEvidence: [],
  policyRulesApplied: ['default-placement'],
};

function T(seconds: number): string {
  return at(seconds);
}

/** w1 as the Worker left it: owned, and `active` under exec-1 or back in `queued` with exec-1 revoked. */
function ownedWork(change: Partial<WorkItem> = {}, closedAt: number | null = 300, lease: Lease = execution): WorkItem {
  const base: WorkItem = { ...fresh, state: closedAt === null ? 'active' : 'queued', owner, selectionBasis, ...change };
  return closedAt === null
    ? documentWithLeases(base, { ownership, execution: lease })
    : documentWithLeases(base, { ownership, closed: [closeLease(lease, 'revoked', 'session-replaced', ctxAt(closedAt))] });
}

/** The authorized history with w1 (and, when given, w2 or the Mission) rewritten as later Commands leave them. */
function given(work: WorkItem = ownedWork(), other?: WorkItem, missionBudget?: object): RecordedEvent[] {
  return authorized.map((event) => {
    if (event.kind === 'mission.created' && missionBudget !== undefined) {
      const mission = event.payload['mission'] as object;
      return { ...event, payload: { ...event.payload, mission: { ...mission, budget: missionBudget } as unknown as RecordedEvent['payload'] } };
    }
    if (event.kind !== 'work.authorized') return event;
    const id = (event.payload['workItem'] as unknown as WorkItem).workItemId;
    const replacement = id === WORK ? work : other;
    return replacement === undefined ? event : { ...event, payload: { ...event.payload, workItem: replacement as unknown as RecordedEvent['payload'] } };
  });
}

const BINDING: OfflineBinding = {
  agentId: WORKER.id,
  groupId: GROUP,
  workItemId: WORK,
  sessionEpoch: 1,
  ownershipEpoch: 1,
  executionLeaseId: EXEC,
  disconnectedAt: at(100),
  bufferedAt: at(150),
  graceDeadline: at(400),
  executionLeaseExpiresAt: at(600),
  resourceUsageDelta: NO_USAGE,
};

const usage = (change: Partial<ResourceUsage>): ResourceUsage => ({ ...NO_USAGE, ...change });

function bound(binding: Partial<OfflineBinding> = {}, extension: object = {}) {
  return { [OFFLINE_EXECUTION_EXTENSION]: { version: '0.1.0', critical: true, data: { ...BINDING, ...binding }, ...extension } } as unknown as CommandEnvelope['extensions'];
}

let messages = 0;
/** A buffered `message.post`, rebased into Session 2. */
function post(events: readonly RecordedEvent[], binding: Partial<OfflineBinding> = {}, extra: Partial<CommandEnvelope> = {}, conversationId?: string): CommandEnvelope {
  const state = stateOf(events);
  const conversation = conversationId ?? (workItemIn(state, WORK)).conversationId;
  return command(state, WORKER, 'message.post', { messageId: `urn:missionweave:message:offline-${++messages}`, conversationId: conversation, content: 'migrated 40% of the rows' }, {
    sessionEpoch: 2,
    issuedAt: NOW,
    extensions: bound(binding),
    ...extra,
  });
}

function decide(events: readonly RecordedEvent[], cmd: CommandEnvelope, now = NOW): Decision {
  return groupSpec.given(events).when(cmd, { now }).decision;
}

function after(events: readonly RecordedEvent[], cmd: CommandEnvelope, now = NOW): { drafts: readonly EventDraft[]; state: GroupState } {
  const decision = decide(events, cmd, now);
  if (!decision.ok) expect.fail(`refused: ${decision.error.code} ${decision.error.reason}`);
  const ctx = testContext({ ...WORLD, now });
  const before = stateOf(events);
  const recorded = recordDrafts(groupDecider, before, decision.events, cmd, ctx);
  return { drafts: decision.events, state: recorded.reduce(evolveGroup, before as GroupState | null) as GroupState };
}

function refusal(events: readonly RecordedEvent[], cmd: CommandEnvelope, now = NOW): { code: string; reason: string } {
  const decision = decide(events, cmd, now);
  if (decision.ok) expect.fail(`accepted with ${decision.events.map((e) => e.kind).join(', ')}`);
  return { code: decision.error.code, reason: decision.error.reason };
}

describe('offline progress that reconciles (§11.5)', () => {
  it('posts a buffered Message in the WorkItem Conversation as history; no usage, no charge', () => {
    const { drafts, state } = after(given(), post(given()));
    expect(drafts.map((d) => d.kind)).toEqual(['message.posted']);
    expect(usageOf(state.workItems.get(WORK)!)).toEqual(NO_USAGE);
    expectStateValid(state);
  });

  it('reconciles against an Execution Lease that is still current (not yet revoked)', () => {
    const events = given(ownedWork({}, null));
    expect(after(events, post(events)).drafts.map((d) => d.kind)).toEqual(['message.posted']);
  });

  it('charges a nonzero delta first, in the same decision, naming both sessions', () => {
    const delta = usage({ modelTokens: 1200, toolCalls: 3, computeSeconds: 40, wallClockSeconds: 50, financialMicrounits: 250000 });
    const cmd = post(given(), { resourceUsageDelta: delta });
    const { drafts, state } = after(given(), cmd);
    expect(drafts.map((d) => d.kind)).toEqual(['ext.missionweaveprotocol.core.resource_usage_recorded', 'message.posted']);
    const payload = drafts[0]?.payload as ResourceUsageRecordedPayload;
    expect(drafts[0]?.aggregate).toEqual({ type: 'work-item', id: WORK, revision: fresh.revision + 1 });
    expect(payload).toMatchObject({
      workItemId: WORK,
      ownershipEpoch: 1,
      executionLeaseId: EXEC,
      usageDelta: delta,
      cumulativeUsage: delta,
      remainingBudget: { financialMicrounits: 80_000_000 - 250000, modelTokens: 300000 - 1200, toolCalls: 397 },
      missionUsage: { missionId: MISSION, cumulativeUsage: delta },
      offlineReconciliation: { disconnectedAt: at(100), bufferedAt: at(150), graceDeadline: at(400), executionSessionEpoch: 1, reconciliationSessionEpoch: 2, reconciledAt: NOW, progressActionId: cmd.actionId, progressKind: 'message.post' },
    });
    const work = workItemIn(state);
    expect(usageOf(state.workItems.get(WORK)!)).toEqual(delta);
    expect(work.extensions?.[RESOURCE_USAGE_EXTENSION]?.critical).toBe(false);
    expect(work.state).toBe('queued');
    expectStateValid(state);
  });

  it('adds up charges, and counts every WorkItem of the Mission', () => {
    const first = after(given(), post(given(), { resourceUsageDelta: usage({ modelTokens: 100 }) }));
    const recorded = [...given(), ...recordDrafts(groupDecider, stateOf(given()), first.drafts, post(given()), ctxAt(320))];
    const second = after(recorded, post(recorded, { resourceUsageDelta: usage({ modelTokens: 50 }), bufferedAt: at(200) }));
    const payload = second.drafts[0]?.payload as ResourceUsageRecordedPayload;
    expect(payload.cumulativeUsage.modelTokens).toBe(150);
    expect(payload.missionUsage.cumulativeUsage.modelTokens).toBe(150);
  });

  it('leaves a Command without the binding as it was', () => {
    const cmd = command(stateOf(given()), WORKER, 'message.post', { messageId: 'urn:missionweave:message:plain', conversationId: MAIN, content: 'hi' });
    expect(after(given(), cmd).drafts.map((d) => d.kind)).toEqual(['message.posted']);
  });
});

describe('offline progress that is refused (§11.5)', () => {
  it('outside the historical lease and grace window (WORK_LEASE_EXPIRED, INVALID_COMMAND)', () => {
    const late = ownedWork({}, 300, { ...execution, startsAt: at(120) });
    expect(refusal(given(late), post(given(late)))).toEqual({ code: 'WORK_LEASE_EXPIRED', reason: 'offline-outside-window' });
    expect(refusal(given(), post(given(), { bufferedAt: at(400) }))).toEqual({ code: 'INVALID_COMMAND', reason: 'offline-binding-window' });
    expect(refusal(given(), post(given(), { disconnectedAt: at(160) }))).toEqual({ code: 'INVALID_COMMAND', reason: 'offline-binding-window' });
    expect(refusal(given(), post(given(), { graceDeadline: at(700) }))).toEqual({ code: 'INVALID_COMMAND', reason: 'offline-binding-window' });
    expect(refusal(given(), post(given(), {}, { issuedAt: at(140) }))).toEqual({ code: 'INVALID_COMMAND', reason: 'offline-binding-window' });
    expect(refusal(given(), post(given(), { executionLeaseExpiresAt: at(900), graceDeadline: at(800) }))).toEqual({ code: 'WORK_LEASE_EXPIRED', reason: 'offline-lease-expiry-mismatch' });
    expect(refusal(given(), post(given(), { bufferedAt: at(350) }, { issuedAt: at(360) }), at(320))).toEqual({ code: 'INVALID_COMMAND', reason: 'offline-binding-future' });
  });

  it('after the historical lease closed (WORK_LEASE_EXPIRED)', () => {
    const closedEarly = given(ownedWork({}, 120));
    expect(refusal(closedEarly, post(closedEarly))).toEqual({ code: 'WORK_LEASE_EXPIRED', reason: 'offline-after-lease-closure' });
    const forgotten = given(documentWithLeases(ownedWork(), { ownership }));
    expect(refusal(forgotten, post(forgotten))).toEqual({ code: 'WORK_LEASE_EXPIRED', reason: 'offline-lease-unknown' });
    expect(refusal(given(), post(given(), { sessionEpoch: 2 }))).toEqual({ code: 'WORK_LEASE_EXPIRED', reason: 'offline-lease-mismatch' });
  });

  it('for a changed owner: another Agent or another Ownership Epoch (WORK_STALE_OWNERSHIP)', () => {
    const reassigned = given(ownedWork({ owner: { ...owner, ownershipEpoch: 2 } }));
    expect(refusal(reassigned, post(reassigned))).toEqual({ code: 'WORK_STALE_OWNERSHIP', reason: 'offline-owner-changed' });
    const other = given(ownedWork({ owner: { ...owner, agentId: COORD.id } }));
    expect(refusal(other, post(other))).toEqual({ code: 'WORK_STALE_OWNERSHIP', reason: 'offline-owner-changed' });
  });

  it('outside the bound WorkItem Conversation (AUTH_FORBIDDEN)', () => {
    expect(refusal(given(), post(given(), {}, {}, MAIN))).toEqual({ code: 'AUTH_FORBIDDEN', reason: 'offline-outside-conversation' });
    const w2Conversation = (stateOf(given()).workItems.get(W2) as WorkItem).conversationId;
    expect(refusal(given(), post(given(), {}, {}, w2Conversation))).toEqual({ code: 'AUTH_FORBIDDEN', reason: 'offline-outside-conversation' });
  });

  it('into a WorkItem that moved on (INVALID_STATE_TRANSITION)', () => {
    for (const state of ['submitted', 'failed', 'open'] as const) {
      const moved = given(ownedWork({ state }));
      expect(refusal(moved, post(moved))).toEqual({ code: 'INVALID_STATE_TRANSITION', reason: 'offline-work-item-state' });
    }
  });

  it('for another actor or Group than the binding names', () => {
    expect(refusal(given(), post(given(), { agentId: COORD.id }))).toEqual({ code: 'AUTH_FORBIDDEN', reason: 'offline-binding-actor' });
    expect(refusal(given(), post(given(), { groupId: 'urn:missionweave:group:other' }))).toEqual({ code: 'INVALID_COMMAND', reason: 'offline-binding-group' });
    expect(refusal(given(), post(given(), { workItemId: 'urn:missionweave:work-item:none' }))).toEqual({ code: 'INVALID_COMMAND', reason: 'work-item-unknown' });
  });

  it('on a kind that cannot be buffered, not critical, or of a version not interpreted', () => {
    const state = stateOf(given());
    const retract = command(state, WORKER, 'message.retract', { amendmentId: 'urn:missionweave:message:x-retraction', messageId: 'urn:missionweave:message:x', reason: 'typo' }, { sessionEpoch: 2, issuedAt: NOW, extensions: bound() });
    expect(refusal(given(), retract)).toEqual({ code: 'INVALID_COMMAND', reason: 'offline-binding-kind' });
    expect(refusal(given(), post(given(), {}, { extensions: bound({}, { critical: false }) }))).toEqual({ code: 'INVALID_COMMAND', reason: 'offline-binding-not-critical' });
    expect(refusal(given(), post(given(), {}, { extensions: bound({}, { version: '1.0.0' }) }))).toEqual({ code: 'UNKNOWN_CRITICAL_EXTENSION', reason: 'offline-binding-version' });
  });

  it('when the charge overflows the WorkItem or the Mission budget: no charge, no Message (BUDGET_EXCEEDED)', () => {
    expect(refusal(given(), post(given(), { resourceUsageDelta: usage({ toolCalls: 401 }) }))).toEqual({ code: 'BUDGET_EXCEEDED', reason: 'work-item-budget' });
    expect(refusal(given(), post(given(), { resourceUsageDelta: usage({ financialMicrounits: 80_000_001 }) }))).toEqual({ code: 'BUDGET_EXCEEDED', reason: 'work-item-budget' });
    const spent = ownedWork();
    const w2 = workItemIn(stateOf(authorized), W2);
    const w2Spent = workItemDocument(withUsage(workRecordOf(w2), usage({ modelTokens: 200000 })));
    const tight = given(spent, w2Spent, { currency: 'EUR', financialLimit: 80, modelTokenLimit: 300000, toolCallLimit: 400 });
    expect(refusal(tight, post(tight, { resourceUsageDelta: usage({ modelTokens: 150000 }) }))).toEqual({ code: 'BUDGET_EXCEEDED', reason: 'mission-budget' });
    expect(after(tight, post(tight, { resourceUsageDelta: usage({ modelTokens: 100000 }) })).drafts).toHaveLength(2);
  });
});

describe('a buffered work.checkpoint, decided by the work.checkpoint kind', () => {
  // After reconnecting, the Worker started exec-2 in Session 2; exec-1 was revoked at T0+300 s.
  const exec2 = newWorkLease({ leaseId: 'urn:missionweave:lease:exec-2', leaseType: 'execution', workItem: fresh, holderAgentId: WORKER.id, sessionEpoch: 2, ownershipEpoch: 1, seconds: 600 }, ctxAt(310));
  const restarted = documentWithLeases({ ...fresh, state: 'active', owner, selectionBasis }, { ownership, execution: exec2, closed: [closeLease(execution, 'revoked', 'session-replaced', ctxAt(300))] });
  const checkpoint = (executionLeaseId: string, binding: Partial<OfflineBinding> = {}) =>
    command(stateOf(given(restarted)), WORKER, 'work.checkpoint', { workItemId: WORK, ownershipEpoch: 1, executionLeaseId, checkpoint: { phase: 'copying', createdAt: at(140) } }, {
      sessionEpoch: 2,
      issuedAt: NOW,
      extensions: bound(binding),
    });

  it('applies as a checkpoint of the current lease, after its charge: the WorkItem is queued with the checkpoint and the usage', () => {
    const { drafts, state } = after(given(restarted), checkpoint(exec2.leaseId, { resourceUsageDelta: usage({ computeSeconds: 30 }) }));
    expect(drafts.map((d) => d.kind)).toEqual(['ext.missionweaveprotocol.core.resource_usage_recorded', 'work.checkpointed']);
    expect(drafts.map((d) => d.aggregate.revision)).toEqual([fresh.revision + 1, fresh.revision + 2]);
    const work = workItemIn(state, WORK);
    expect(work.state).toBe('queued');
    expect(usageOf(state.workItems.get(WORK)!).computeSeconds).toBe(30);
    expectStateValid(state);
  });

  it('is refused when it still cites the historical lease, which its new Session cannot use (WORK_LEASE_EXPIRED), and nothing is charged', () => {
    expect(refusal(given(restarted), checkpoint(EXEC, { resourceUsageDelta: usage({ computeSeconds: 30 }) }))).toEqual({ code: 'WORK_LEASE_EXPIRED', reason: 'execution-lease-not-current' });
    const stillCurrent = given(ownedWork({}, null));
    const cmd = command(stateOf(stillCurrent), WORKER, 'work.checkpoint', { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: EXEC, checkpoint: { phase: 'copying', createdAt: at(140) } }, { sessionEpoch: 2, issuedAt: NOW, extensions: bound() });
    expect(refusal(stillCurrent, cmd)).toEqual({ code: 'WORK_LEASE_EXPIRED', reason: 'execution-lease-other-session' });
  });
});

describe('the offline hook around a stubbed kind', () => {
  const checkpointCmd = (payload: object = {}, binding: Partial<OfflineBinding> = {}) =>
    command(stateOf(given()), WORKER, 'work.checkpoint', { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: 'urn:missionweave:lease:exec-2', checkpoint: { phase: 'copying', createdAt: at(140) }, ...payload }, {
      sessionEpoch: 2,
      issuedAt: NOW,
      extensions: bound(binding),
    });
  const ok = { kind: 'work.checkpointed', payload: {}, aggregate: { type: 'work-item' as const, id: WORK, revision: 9 } };

  it('runs the kind on the charged state and puts the charge first', () => {
    let seen: GroupState | undefined;
    const decision = decideWithOfflineBinding((state) => ((seen = state), accept(ok)), stateOf(given()), checkpointCmd({}, { resourceUsageDelta: usage({ toolCalls: 2 }) }), ctxAt(320));
    expect(decision.ok && decision.events.map((e) => e.kind)).toEqual(['ext.missionweaveprotocol.core.resource_usage_recorded', 'work.checkpointed']);
    expect(usageOf(seen!.workItems.get(WORK)!).toolCalls).toBe(2);
  });

  it("refuses the charge with the kind's refusal (one transaction)", () => {
    const decision = decideWithOfflineBinding(() => refuse('WORK_LEASE_EXPIRED', 'execution-lease-not-current', 'x'), stateOf(given()), checkpointCmd({}, { resourceUsageDelta: usage({ toolCalls: 2 }) }), ctxAt(320));
    expect(decision).toMatchObject({ ok: false, error: { code: 'WORK_LEASE_EXPIRED' } });
  });

  it('refuses a checkpoint of another WorkItem or epoch, or taken outside the offline window', () => {
    const stub = () => accept(ok);
    const judge = (cmd: CommandEnvelope) => {
      const d = decideWithOfflineBinding(stub, stateOf(given()), cmd, ctxAt(320));
      return d.ok ? 'accepted' : d.error.reason;
    };
    expect(judge(checkpointCmd())).toBe('accepted');
    expect(judge(checkpointCmd({ workItemId: W2 }))).toBe('offline-outside-work-item');
    expect(judge(checkpointCmd({ ownershipEpoch: 2 }))).toBe('offline-outside-work-item');
    expect(judge(checkpointCmd({ checkpoint: { phase: 'copying', createdAt: at(90) } }))).toBe('offline-checkpoint-outside-window');
    expect(judge(checkpointCmd({ checkpoint: { phase: 'copying', createdAt: at(151) } }))).toBe('offline-checkpoint-outside-window');
  });
});

describe('the ancestry of a buffered charge (§12)', () => {
  it('is locked only for a Command that carries usage, so the charge can reach every ancestor Group', () => {
    expect(coreKinds.groupKind('message.post')?.ancestry).toBe(chargesOfflineUsage);
    expect(coreKinds.groupKind('work.checkpoint')?.ancestry).toBe(chargesOfflineUsage);
    expect(chargesOfflineUsage({ extensions: bound({ resourceUsageDelta: usage({ toolCalls: 1 }) }) })).toBe(true);
    expect(chargesOfflineUsage({ extensions: bound() })).toBe(false);
    expect(chargesOfflineUsage({})).toBe(false);
  });
});
