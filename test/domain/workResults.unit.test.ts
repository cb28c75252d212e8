/**
 * The results half of the WorkItem state machine (§10.2 rows `work.submit` … `work.cancel`, and a
 * terminal Mission closing its WorkItems), given / when / then, one `describe` per row: the accepted
 * transition, then every refusal (`workExecution.unit.test.ts` has checkpoint, block, unblock and
 * the fencing table).
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import { NO_USAGE } from '../../src/domain/budgetMath.js';
import { withUsage } from '../../src/domain/workItem/usageAccount.js';
import { CLEANUP_EXTENSION } from '../../src/domain/workItem/workCleanup.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import type { ExpectedEvent } from '../support/specification.js';

import { leasesOf } from '../../src/domain/workItem/workLeases.js';
import { PROGRESS_EVIDENCE_KEPT, withEvidenceIds } from '../../src/domain/workItem/workProgress.js';
import type { Principal } from '../../src/protocol/principal.js';

import {
  AUTHORITY,
  CONTRACT,
  COORD,
  HASH_A,
  HASH_B,
  HASH_C,
  OWNER,
  REVIEWER,
  T0,
  WORK,
  WORKER,
  at,
  command,
  expectStateValid,
  groupSpec,
  history,
  stateOf,
  steps,
} from './fixtures.js';
import {
  EXEC_EPOCH,
  EXEC_OLD_RUN_LEASE,
  EXEC_RUN_LEASE,
  execEvidence,
  EXEC_LEASED,
  execFailure,
  execGiven,
  execManifest,
  execState,
  publishedEvent,
} from './execFixtures.js';
import {
  execClosed,
  execLeases,
  expectedEnded,
  expectedProgress,
  expectedWork,
} from './expectedExecution.js';
import { CASES } from './kindCases.js';
import type { RefusalReason } from '../support/specification.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { COMMON_REASONS } from '../../src/domain/commonReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { workItemIn } from './workDocuments.js';
import { workItemDocument } from '../../src/domain/workItem/workRecord.js';

const UNFINISHED = ['open', 'offered', 'queued', 'active', 'blocked', 'submitted'] as const;
const FINISHED = ['verified', 'failed', 'cancelled'] as const;
const PENDING = { offerId: 'urn:x:offer-1', agentId: WORKER.id, agentCardVersion: 3, expiresAt: at(300), status: 'pending' as const };

describe('work.submit: active → submitted (§10.2, §13.2)', () => {
  const active = execState({ state: 'active' });
  const submit = (extra: object = {}, actor: Principal = WORKER, from = active.state) =>
    command(from, actor, 'work.submit', { ...EXEC_LEASED, artifactHashes: [HASH_A], evidence: [execEvidence('urn:x:ev')], ...extra });

  it('records the submission and releases the Execution Lease; ownership stays until review', () => {
    const after = groupSpec.given(active.events).when(submit()).then(CASES['work.submit']!.events(active.state)) as GroupState;
    const workItem = after.workItems.get(WORK)!;
    expect(workItem).toMatchObject({ state: 'submitted', submission: { artifactHashes: [HASH_A], evidenceIds: ['urn:x:ev'], submittedAt: T0 } });
    expect(leasesOf(workItem).ownership).toMatchObject({ state: 'active' });
    expectStateValid(after);
  });

  it('accepts Evidence about a submitted Artifact', () => {
    const aboutArtifact = execEvidence('urn:x:ev', WORKER, { subject: { type: 'artifact', id: HASH_B } });
    const decision = groupSpec.given(active.events).when(submit({ artifactHashes: [HASH_A, HASH_B], evidence: [aboutArtifact] }));
    const after = decision.then([{ kind: 'work.submitted', payload: submittedPayload(active.state, [HASH_A, HASH_B], [aboutArtifact]) }]) as GroupState;
    expect(after.workItems.get(WORK)?.submission?.artifactHashes).toEqual([HASH_A, HASH_B]);
  });

  it('refuses Evidence that is not the owner’s own, not about this WorkItem, or repeated (INVALID_COMMAND)', () => {
    const cases: [object, RefusalReason][] = [
      [execEvidence('urn:x:ev', REVIEWER), 'evidence-producer-mismatch'],
      [execEvidence('urn:x:ev', WORKER, { workItemId: 'urn:x:other' }), 'evidence-other-work-item'],
      [execEvidence('urn:x:ev', WORKER, { groupId: 'urn:x:other' }), 'evidence-other-work-item'],
      [execEvidence('urn:x:ev', WORKER, { subject: { type: 'work_item', id: 'urn:x:other' } }), 'evidence-subject-mismatch'],
      [execEvidence('urn:x:ev', WORKER, { subject: { type: 'artifact', id: HASH_B } }), 'evidence-subject-mismatch'],
      [execEvidence('urn:x:ev', WORKER, { subject: { type: 'mission', id: 'urn:x:m' } }), 'evidence-subject-mismatch'],
    ];
    for (const [evidence, reason] of cases) groupSpec.given(active.events).when(submit({ evidence: [evidence] })).thenFails('INVALID_COMMAND', reason);
    groupSpec.given(active.events).when(submit({ evidence: [execEvidence('urn:x:ev'), execEvidence('urn:x:ev')] })).thenFails('INVALID_COMMAND', WORK_REASONS.evidenceIdRepeated);
  });

  it('submits only Artifacts this WorkItem published (INVALID_COMMAND)', () => {
    groupSpec.given(active.events).when(submit({ artifactHashes: [HASH_A, HASH_C] })).thenFails('INVALID_COMMAND', 'artifact-not-published');
    // Published in the Group, but by another WorkItem.
    const byOther = [...active.events, { ...publishedEvent(active.events, execManifest(HASH_C)), payload: { ...publishedEvent(active.events, execManifest(HASH_C)).payload, workItemId: 'urn:x:w2' } }];
    groupSpec.given(byOther).when(submit({ artifactHashes: [HASH_C] }, WORKER, stateOf(byOther))).thenFails('INVALID_COMMAND', 'artifact-not-published');
  });

  it('needs Evidence mapped to every acceptance criterion, of a kind the criterion requires, referencing only published Artifacts (§13.2, INVALID_COMMAND)', () => {
    groupSpec.given(active.events).when(submit({ evidence: [execEvidence('urn:x:ev', WORKER, { type: 'business_rule' })] })).thenFails('INVALID_COMMAND', WORK_REASONS.acceptanceCriteriaUncovered);
    groupSpec.given(active.events).when(submit({ evidence: [execEvidence('urn:x:ev', WORKER, { criterionIds: ['migration-roundtrip', 'not-in-contract'] })] })).thenFails('INVALID_COMMAND', WORK_REASONS.evidenceCriterionUnknown);
    groupSpec.given(active.events).when(submit({ evidence: [execEvidence('urn:x:ev', WORKER, { artifactHashes: [HASH_C] })] })).thenFails('INVALID_COMMAND', WORK_REASONS.evidenceArtifactUnpublished);
    // Two criteria: Evidence of each is needed; one Evidence may cover both.
    const two = twoCriteria('active');
    const covering = (ids: string[]) => submit({ evidence: [execEvidence('urn:x:ev', WORKER, { criterionIds: ids })] }, WORKER, stateOf(two));
    groupSpec.given(two).when(covering(['migration-roundtrip'])).thenFails('INVALID_COMMAND', WORK_REASONS.acceptanceCriteriaUncovered);
    const decision = groupSpec.given(two).when(covering(['migration-roundtrip'])).decision;
    expect(decision.ok ? undefined : decision.error.details).toEqual({ workItemId: WORK, uncoveredCount: 1, uncoveredCriterionIds: ['rollback-tested'] });
    expect(groupSpec.given(two).when(covering(['migration-roundtrip', 'rollback-tested'])).decision.ok).toBe(true);
  });

  it('never lets a fenced owner complete the WorkItem: a late submission after reassignment or lease expiry is refused (§11.5)', () => {
    // Reassigned: another Agent owns the WorkItem under a higher epoch; the old owner cites its own.
    const reassigned = execState({ state: 'active', owner: REVIEWER });
    groupSpec.given(reassigned.events).when(submit({ ownershipEpoch: EXEC_EPOCH - 1, executionLeaseId: EXEC_OLD_RUN_LEASE }, WORKER, reassigned.state)).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
    groupSpec.given(reassigned.events).when(submit({}, WORKER, reassigned.state)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notTheOwner);
    // Paused past its lease: same epoch, same Lease ID, but the Authority's clock says it expired.
    const paused = execState({ state: 'active', executionSeconds: 30 });
    groupSpec.given(paused.events).when(submit({}, WORKER, paused.state), { now: at(45) }).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-expired');
  });
});

/** w1 in `state` under a contract with a second acceptance criterion, `rollback-tested`. */
function twoCriteria(state: 'active' | 'submitted'): RecordedEvent[] {
  const rollback = { criterionId: 'rollback-tested', description: 'The rollback restores the schema.', evidenceRequired: ['deterministic_test'] };
  const contract = { ...CONTRACT, acceptanceCriteria: [...CONTRACT.acceptanceCriteria, rollback] };
  return execGiven({ state }, history([steps.create, steps.addMember(WORKER), steps.addMember(REVIEWER, 'reviewer'), steps.authorize(WORK, contract)]));
}

/** `event` with the cleanup mark §12 asks for, on the WorkItem and in the payload. */
function withCleanup(event: ExpectedEvent, reasons: string[], externalActions = 0): ExpectedEvent {
  const cleanup = { reasons, sideEffectRisk: 'reversible', externalActions };
  const payload = event.payload as { workItem: { extensions?: object } };
  const extension = { version: '0.1.0', critical: false, data: { ...cleanup, status: 'pending' } };
  const workItem = { ...payload.workItem, extensions: { ...payload.workItem.extensions, [CLEANUP_EXTENSION]: extension } };
  return { ...event, payload: { ...payload, workItem, cleanup } };
}

/** A recorded usage Event charging w1 `externalActions` external side effects. */
function usageRecorded(s: GroupState, externalActions: number): RecordedEvent {
  const workItem = s.workItems.get(WORK)!;
  const usage = { ...NO_USAGE, externalActions };
  const charged = { ...withUsage(workItem, usage), revision: workItem.revision + 1 };
  return {
    kind: 'ext.missionweaveprotocol.core.resource_usage_recorded',
    payload: { workItemId: WORK, workItem: workItemDocument(charged) } as unknown as JsonObject,
    actor: AUTHORITY,
    occurredAt: T0,
    eventId: 'urn:test:event:usage',
    sequence: s.lastSequence + 1,
  };
}

function submittedPayload(s: GroupState, artifactHashes: string[], evidence: object[]) {
  const leases = execLeases(s);
  const released = execClosed(leases['execution'], 'released', 'submitted');
  const { execution, ...rest } = leases;
  void execution;
  const ids = evidence.map((e) => (e as { evidenceId: string }).evidenceId);
  const workItem = expectedWork(
    s,
    { state: 'submitted', submission: { artifactHashes, evidenceIds: ids, submittedAt: T0 }, progress: expectedProgress('active', { nextCheckpoint: 'not reported', evidenceIds: ids }) },
    { ...rest, closed: [...(leases['closed'] as object[]), released] },
  );
  return { workItemId: WORK, workItem, ownershipEpoch: EXEC_EPOCH, artifactHashes, evidence, releasedExecutionLease: released };
}

describe('work.accept_result: submitted → verified (§10.2, §7.2, §13.2)', () => {
  const submitted = execState({ state: 'submitted' });
  const review = (extra: object = {}) => [execEvidence('urn:x:review', REVIEWER, extra)];
  const acceptResult = (evidence = review(), actor: Principal = COORD, from = submitted.state, extra: object = {}) =>
    command(from, actor, 'work.accept_result', { workItemId: WORK, evidence }, extra);

  it('verifies the WorkItem, releases every lease and keeps submission and review Evidence in its progress', () => {
    const after = groupSpec.given(submitted.events).when(acceptResult()).then(CASES['work.accept_result']!.events(submitted.state)) as GroupState;
    const workItem = after.workItems.get(WORK)!;
    expect(workItem.state).toBe('verified');
    expect(workItem.progress?.evidenceIds).toEqual(['urn:missionweave:evidence:exec-submitted', 'urn:x:review']);
    expect(leasesOf(workItem).ownership).toBeUndefined();
    expectStateValid(after);
  });

  it('is the current Coordinator’s alone, under its Coordinator Epoch (AUTH_FORBIDDEN, AUTH_STALE_COORDINATOR, WORK_LEASE_EXPIRED)', () => {
    for (const actor of [WORKER, REVIEWER, OWNER]) groupSpec.given(submitted.events).when(acceptResult(review(), actor)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(submitted.events).when(acceptResult(review(), COORD, submitted.state, { coordinatorEpoch: undefined })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(submitted.events).when(acceptResult(), { now: at(601) }).thenFails('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired);
  });

  it('refuses a Coordinator that owns the WorkItem: never the sole reviewer of its own output (§7.2)', () => {
    const own = execState({ state: 'submitted', owner: COORD });
    groupSpec.given(own.events).when(acceptResult(review(), COORD, own.state)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.coordinatorReviewsOwnWork);
  });

  it('needs review Evidence that passed, about this WorkItem or its submitted Artifacts, not by the owner (INVALID_COMMAND)', () => {
    groupSpec.given(submitted.events).when(acceptResult([execEvidence('urn:x:review', WORKER)])).thenFails('INVALID_COMMAND', WORK_REASONS.evidenceByOwner);
    groupSpec.given(submitted.events).when(acceptResult(review({ result: 'inconclusive' }))).thenFails('INVALID_COMMAND', WORK_REASONS.reviewNotPassed);
    groupSpec.given(submitted.events).when(acceptResult(review({ subject: { type: 'artifact', id: HASH_B } }))).thenFails('INVALID_COMMAND', WORK_REASONS.evidenceSubjectMismatch);
    groupSpec.given(submitted.events).when(acceptResult(review({ workItemId: 'urn:x:other' }))).thenFails('INVALID_COMMAND', WORK_REASONS.evidenceOtherWorkItem);
  });

  it('needs passed review Evidence for every acceptance criterion (§13.2, INVALID_COMMAND)', () => {
    const two = twoCriteria('submitted');
    const reviewing = (ids: string[]) => acceptResult([execEvidence('urn:x:review', REVIEWER, { criterionIds: ids })], COORD, stateOf(two));
    groupSpec.given(two).when(reviewing(['migration-roundtrip'])).thenFails('INVALID_COMMAND', WORK_REASONS.acceptanceCriteriaUncovered);
    expect(groupSpec.given(two).when(reviewing(['rollback-tested', 'migration-roundtrip'])).decision.ok).toBe(true);
    groupSpec.given(submitted.events).when(acceptResult(review({ artifactHashes: [HASH_C] }))).thenFails('INVALID_COMMAND', WORK_REASONS.evidenceArtifactUnpublished);
  });

  it('needs a submitted WorkItem of this Group in an active Mission (INVALID_STATE_TRANSITION, INVALID_COMMAND)', () => {
    for (const state of ['open', 'queued', 'active', 'blocked'] as const) {
      const other = execState({ state });
      groupSpec.given(other.events).when(acceptResult(review(), COORD, other.state)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
    }
    groupSpec.given(submitted.events).when(command(submitted.state, COORD, 'work.accept_result', { workItemId: 'urn:x:none', evidence: review() })).thenFails('INVALID_COMMAND', 'work-item-unknown');
    // An `awaiting_approval` Mission has every required WorkItem verified (§7.3), so none is left
    // in this state to reach the Mission-state check; the common checks test that check per kind.
  });
});

describe('work.fail: unfinished → failed (§10.2, §11.4)', () => {
  const failure = (by: Principal = COORD) => [execEvidence('urn:x:failure', by, { type: 'failure_report', result: 'failed' })];
  const fail = (from: GroupState, extra: object = {}, actor: Principal = COORD, envelope: object = {}) =>
    command(from, actor, 'work.fail', { workItemId: WORK, reason: 'Superseded.', evidence: failure(), ...extra }, envelope);

  it.each(UNFINISHED)('the Coordinator fails a WorkItem that is %s, revoking its leases and withdrawing pending offers', (state) => {
    const from = execState({ state, offers: [PENDING] });
    const change = { progress: { ...expectedProgress(state, { nextCheckpoint: 'not reported', evidenceIds: ['urn:x:failure'] }) } };
    const after = groupSpec.given(from.events).when(fail(from.state)).then([expectedEnded(from.state, 'work.failed', 'Superseded.', { evidence: failure() }, change)]) as GroupState;
    const workItem = after.workItems.get(WORK)!;
    expect(workItem.state).toBe('failed');
    expect(workItem.offers?.map((o) => o.status)).toEqual(['withdrawn']);
    expect([leasesOf(workItem).ownership, leasesOf(workItem).execution]).toEqual([undefined, undefined]);
    expectStateValid(after);
  });

  it('the owner reports its failure under its current lease, with its own Evidence', () => {
    const active = execState({ state: 'active' });
    groupSpec.given(active.events).when(fail(active.state, { ...EXEC_LEASED, evidence: failure(WORKER) }, WORKER)).then([
      expectedEnded(active.state, 'work.failed', 'the source table is corrupt', { evidence: execFailure() }, {
        progress: expectedProgress('active', { nextCheckpoint: 'not reported', evidenceIds: ['urn:x:failure'] }),
      }),
    ].map((e) => ({ ...e, payload: { ...e.payload, reason: 'Superseded.' } })));
    groupSpec.given(active.events).when(fail(active.state, { ...EXEC_LEASED, evidence: failure(COORD) }, WORKER)).thenFails('INVALID_COMMAND', WORK_REASONS.evidenceProducerMismatch);
  });

  it('requires failure Evidence (INVALID_COMMAND)', () => {
    const open = execState({ state: 'open' });
    groupSpec.given(open.events).when(command(open.state, COORD, 'work.fail', { workItemId: WORK, reason: 'no reason given' })).thenFails('INVALID_COMMAND', WORK_REASONS.failureEvidenceRequired);
    const active = execState({ state: 'active' });
    groupSpec.given(active.events).when(command(active.state, WORKER, 'work.fail', { ...EXEC_LEASED, reason: 'broken' })).thenFails('INVALID_COMMAND', WORK_REASONS.failureEvidenceRequired);
    groupSpec.given(open.events).when(fail(open.state, { evidence: [execEvidence('urn:x:f', COORD, { workItemId: 'urn:x:other' })] })).thenFails('INVALID_COMMAND', WORK_REASONS.evidenceOtherWorkItem);
  });

  it('is refused to other members, to a Worker citing no lease, and to a Coordinator without its epoch or lease', () => {
    const active = execState({ state: 'active' });
    groupSpec.given(active.events).when(fail(active.state, {}, WORKER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(active.events).when(fail(active.state, {}, REVIEWER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(active.events).when(fail(active.state, {}, COORD, { coordinatorEpoch: undefined })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(active.events).when(fail(active.state), { now: at(601) }).thenFails('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired);
  });

  it.each(FINISHED)('refuses a WorkItem that is already %s (INVALID_STATE_TRANSITION)', (state) => {
    const done = execState({ state });
    groupSpec.given(done.events).when(fail(done.state)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
  });
});

describe('work.cancel: unfinished → cancelled (§10.2, §12)', () => {
  const cancel = (from: GroupState, actor: Principal = COORD, extra: object = {}) => command(from, actor, 'work.cancel', { workItemId: WORK, reason: 'Out of scope.' }, extra);

  it.each(UNFINISHED)('the Coordinator or the MissionOwner cancels a WorkItem that is %s, revoking its leases and withdrawing pending offers', (state) => {
    const from = execState({ state, offers: [PENDING] });
    // Every owned state of the fixtures had an Execution Lease (a released one at least): the
    // reversible-risk contract's work had started, so cleanup is due (§12).
    const started = !['open', 'offered'].includes(state);
    for (const actor of [COORD, OWNER]) {
      const ended = expectedEnded(from.state, 'work.cancelled', 'Out of scope.');
      const after = groupSpec.given(from.events).when(cancel(from.state, actor)).then([started ? withCleanup(ended, ['execution-started']) : ended]) as GroupState;
      expect(after.workItems.get(WORK)?.offers?.map((o) => o.status)).toEqual(['withdrawn']);
      expectStateValid(after);
    }
  });

  it('marks cleanup due for recorded external side effects even before any execution, and none for work that never ran or risks nothing', () => {
    const open = execState({ state: 'open' });
    const charged = stateOf([...open.events, usageRecorded(open.state, 2)]);
    const events = [...open.events, usageRecorded(open.state, 2)];
    const after = groupSpec.given(events).when(cancel(charged)).then([withCleanup(expectedEnded(charged, 'work.cancelled', 'Out of scope.'), ['external-side-effects-recorded'], 2)]) as GroupState;
    expect(workItemIn(after, WORK).extensions?.[CLEANUP_EXTENSION]?.data).toMatchObject({ status: 'pending', reasons: ['external-side-effects-recorded'] });
    // A risk-free contract that ran leaves nothing to undo.
    const safe = execGiven({ state: 'active' }, history([steps.create, steps.addMember(WORKER), steps.authorize(WORK, { ...CONTRACT, sideEffectRisk: 'none' })]));
    groupSpec.given(safe).when(cancel(stateOf(safe))).then([expectedEnded(stateOf(safe), 'work.cancelled', 'Out of scope.')]);
  });

  it('is refused to Workers, the owner included, and to a Coordinator without its epoch (AUTH_FORBIDDEN, AUTH_STALE_COORDINATOR)', () => {
    const active = execState({ state: 'active' });
    for (const actor of [WORKER, REVIEWER]) groupSpec.given(active.events).when(cancel(active.state, actor)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(active.events).when(cancel(active.state, COORD, { coordinatorEpoch: undefined })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
  });

  it.each(FINISHED)('refuses a WorkItem that is already %s (INVALID_STATE_TRANSITION)', (state) => {
    const done = execState({ state });
    groupSpec.given(done.events).when(cancel(done.state)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
  });

  it('refuses a WorkItem the Group does not have (INVALID_COMMAND)', () => {
    const open = execState({ state: 'open' });
    groupSpec.given(open.events).when(command(open.state, COORD, 'work.cancel', { workItemId: 'urn:x:none', reason: 'x' })).thenFails('INVALID_COMMAND', 'work-item-unknown');
  });
});

describe('parent Mission failure or cancellation (§10.2, last row; §12)', () => {
  it.each([
    ['mission.cancel', OWNER, 'cancelled'],
    ['mission.terminate', COORD, 'failed'],
  ] as const)('%s ends an active WorkItem with every lease revoked and its offers withdrawn', (kind, actor, workState) => {
    const active = execState({ state: 'active', offers: [{ ...PENDING, agentId: REVIEWER.id }] });
    const events = history([(s) => command(s!, actor, kind, { reason: 'stop' })], active.events);
    const workItem = stateOf(events).workItems.get(WORK)!;
    expect(workItem.state).toBe(workState);
    expect(workItem.offers?.map((o) => o.status)).toEqual(['withdrawn']);
    const leases = leasesOf(workItem);
    expect([leases.ownership, leases.execution]).toEqual([undefined, undefined]);
    // §12: the started, reversible-risk work is marked for cleanup as `work.cancel` marks it.
    expect(workItemIn(stateOf(events), WORK).extensions?.[CLEANUP_EXTENSION]?.data).toEqual({ reasons: ['execution-started'], sideEffectRisk: 'reversible', externalActions: 0, status: 'pending' });
    expect(leases.closed?.at(-1)).toMatchObject({ leaseId: EXEC_RUN_LEASE, state: 'revoked' });
    expectStateValid(stateOf(events));
    // The owner's delayed Command finds its lease gone.
    groupSpec.given(events).when(command(stateOf(events), WORKER, 'work.submit', { ...EXEC_LEASED, artifactHashes: [HASH_A], evidence: [execEvidence('urn:x:ev')] })).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
  });
});

describe('the Evidence a WorkItem keeps in its progress (§11.4)', () => {
  it('adds each ID once, newest last, and keeps at most PROGRESS_EVIDENCE_KEPT (the schema bound)', () => {
    const base = expectedProgress('x') as unknown as Parameters<typeof withEvidenceIds>[0];
    const full = { ...base, evidenceIds: Array.from({ length: PROGRESS_EVIDENCE_KEPT }, (_, i) => `urn:x:e${i}`) };
    const after = withEvidenceIds(full, ['urn:x:e0', 'urn:x:new', 'urn:x:new']);
    expect(after.evidenceIds).toHaveLength(PROGRESS_EVIDENCE_KEPT);
    expect(after.evidenceIds.slice(-2)).toEqual(['urn:x:e0', 'urn:x:new']);
    expect(after.evidenceIds[0]).toBe('urn:x:e2');
    expect(new Set(after.evidenceIds).size).toBe(PROGRESS_EVIDENCE_KEPT);
  });
});
