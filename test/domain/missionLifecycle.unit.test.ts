/**
 * Submission, change requests, approval, cancellation and termination (docs/transitions.md).
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import { EXAMPLE_APPROVAL } from '../support/payloadExamples.js';
import {
  AUTHORITY,
  CONTRACT,
  COORD,
  GROUP,
  HASH_A,
  HASH_B,
  HASH_C,
  MISSION,
  OWNER,
  REGISTRY,
  WORKER,
  at,
  command,
  envelope,
  expectStateValid,
  expectValid,
  groupSpec,
  history,
  stateOf,
  steps,
  verifiedWorkHistory,
  WORK,
} from './fixtures.js';
import { execManifest, publishedEvent } from './execFixtures.js';
import { COMMON_REASONS } from '../../src/domain/commonReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { MISSION_REASONS } from '../../src/domain/mission/missionReasons.js';

/**
 * An active Mission whose one WorkItem w1 was verified with HASH_A and HASH_B as its accepted
 * result; its contract also carries the definition-of-done criterion `ledger-parity` (§13.2 step 5).
 */
const PARITY = { criterionId: 'ledger-parity', description: 'Ledger equals legacy balances.', evidenceRequired: ['deterministic_test'] };
const created = verifiedWorkHistory(history([steps.create, steps.addMember(WORKER), steps.authorize(WORK, { ...CONTRACT, acceptanceCriteria: [...CONTRACT.acceptanceCriteria, PARITY] })]));
const submitted = history([steps.submit()], created);
const submittedState = stateOf(submitted);

function approvePayload(extra: object = {}) {
  return {
    approvalId: 'urn:missionweave:approval:a1',
    missionRevision: submittedState.mission.revision,
    artifactHashes: [HASH_B, HASH_A],
    acceptancePolicyVersion: '2.0.1',
    comments: 'Looks right.',
    ...extra,
  };
}

/** The flat members plus the agreeing signed Approval. */
function approveWithDocument(extra: object = {}) {
  return approvePayload({ approval: EMBEDDED, ...extra });
}

const EMBEDDED = {
  ...EXAMPLE_APPROVAL,
  approvalId: 'urn:missionweave:approval:a1',
  missionId: MISSION,
  groupId: GROUP,
  missionRevision: submittedState.mission.revision,
  artifactHashes: [HASH_A, HASH_B],
  acceptancePolicyVersion: '2.0.1',
  approver: OWNER,
  comments: 'Looks right.',
};

describe('mission.submit_for_approval', () => {
  const state = stateOf(created);
  const submit = (extra = {}, hashes = [HASH_B, HASH_A]) => command(state, COORD, 'mission.submit_for_approval', { artifactHashes: hashes }, extra);

  it('moves the Mission to awaiting_approval and records the new revision and sorted Artifact set', () => {
    const after = groupSpec
      .given(created)
      .when(submit({ expectedRevision: 1 }))
      .then([
        {
          kind: 'mission.submitted_for_approval',
          payload: {
            missionRevision: 2,
            artifactHashes: [HASH_A, HASH_B],
            mission: { ...state.mission, state: 'awaiting_approval', revision: 2 },
            definitionOfDoneSupport: [
              { criterionId: 'ledger-parity', workItemCount: 1, workItemIds: [WORK] },
              { criterionId: 'owner-sign-off', workItemCount: 0, workItemIds: [] },
            ],
          },
          aggregate: { type: 'mission', id: MISSION, revision: 2 },
        },
      ]) as GroupState;
    expect(after.mission).toMatchObject({ state: 'awaiting_approval', revision: 2 });
    expect(after.missionNotes.submission).toEqual({ missionRevision: 2, artifactHashes: [HASH_A, HASH_B], submittedAt: at(0) });
    expectStateValid(after);
  });

  it('needs Coordinator authority (AUTH_FORBIDDEN, AUTH_STALE_COORDINATOR, WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(created).when(command(state, OWNER, 'mission.submit_for_approval', { artifactHashes: [HASH_A] })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(command(state, WORKER, 'mission.submit_for_approval', { artifactHashes: [HASH_A] })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(submit({ coordinatorEpoch: 2 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(created).when(submit(), { now: at(600) }).thenFails('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired);
  });

  it('needs an active Mission (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(submitted).when(command(submittedState, COORD, 'mission.submit_for_approval', { artifactHashes: [HASH_A] })).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionState);
  });

  it('checks expectedRevision against the Mission (REVISION_CONFLICT)', () => {
    groupSpec.given(created).when(submit({ expectedRevision: 7 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
    const decision = groupSpec.given(created).when(submit({ expectedRevision: 7 })).decision;
    expect(decision.ok ? undefined : decision.error.details).toEqual({ expectedRevision: 7, currentRevision: 1 });
  });

  it('refuses repeated Artifact hashes (INVALID_COMMAND)', () => {
    groupSpec.given(created).when(submit({}, [HASH_A, HASH_A])).thenFails('INVALID_COMMAND', MISSION_REASONS.artifactSetInvalid);
  });

  it('takes only Artifacts of accepted results: never published here, or published but not accepted, is refused (INVALID_COMMAND)', () => {
    groupSpec.given(created).when(submit({}, [HASH_A, HASH_C])).thenFails('INVALID_COMMAND', 'artifact-not-published');
    const draft = [...created, publishedEvent(created, execManifest(HASH_C))];
    expect(stateOf(draft).artifacts.has(HASH_C)).toBe(true);
    groupSpec.given(draft).when(command(stateOf(draft), COORD, 'mission.submit_for_approval', { artifactHashes: [HASH_C] })).thenFails('INVALID_COMMAND', MISSION_REASONS.artifactNotAccepted);
  });
});

describe('mission.request_changes', () => {
  const request = (missionRevision: number, actor = OWNER) =>
    command(submittedState, actor, 'mission.request_changes', { missionRevision, feedback: 'Add the 2021 accounts.' });

  it('returns the Mission to active at the next revision and clears the submission', () => {
    const after = groupSpec.given(submitted).when(request(2)).then([
      {
        kind: 'mission.changes_requested',
        payload: { missionRevision: 2, feedback: 'Add the 2021 accounts.', mission: { ...submittedState.mission, state: 'active', revision: 3 } },
        aggregate: { type: 'mission', id: MISSION, revision: 3 },
      },
    ]) as GroupState;
    expect(after.mission).toMatchObject({ state: 'active', revision: 3 });
    expect(after.missionNotes.submission).toBeUndefined();
    expectStateValid(after);
  });

  it('is the MissionOwner’s (AUTH_FORBIDDEN)', () => {
    groupSpec.given(submitted).when(request(2, COORD)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
  });

  it('needs a Mission awaiting approval (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(created).when(command(stateOf(created), OWNER, 'mission.request_changes', { missionRevision: 1, feedback: 'x' })).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionState);
  });

  it('answers only the submitted revision (REVISION_CONFLICT)', () => {
    groupSpec.given(submitted).when(request(1)).thenFails('REVISION_CONFLICT', MISSION_REASONS.submittedRevisionMismatch);
  });
});

describe('mission.approve', () => {
  const approve = (payload: object = approvePayload(), actor = OWNER) => command(submittedState, actor, 'mission.approve', payload);

  it('refuses a flat approval without the embedded signed Approval document (INVALID_COMMAND)', () => {
    groupSpec.given(submitted).when(approve()).thenFails('INVALID_COMMAND', MISSION_REASONS.approvalDocumentRequired);
  });

  it('records the embedded signed Approval unchanged, ends the Mission and releases the lease', () => {
    const after = groupSpec.given(submitted).when(approve(approvePayload({ approval: EMBEDDED }))).then([
      {
        kind: 'mission.approved',
        payload: {
          approval: EMBEDDED,
          mission: { ...submittedState.mission, state: 'approved', revision: 3 },
          coordinatorLease: { ...submittedState.coordinatorLease, state: 'released', closedAt: at(0), closureReason: 'Mission approved' },
        },
        aggregate: { type: 'mission', id: MISSION, revision: 3 },
      },
    ]) as GroupState;
    expect(after.missionNotes.approval).toEqual(EMBEDDED);
    expect(after.mission).toMatchObject({ state: 'approved', revision: 3 });
    expect(after.coordinatorLease).toMatchObject({ state: 'released', closureReason: 'Mission approved' });
    expectValid('approval', after.missionNotes.approval);
    expectStateValid(after);
  });

  it('is the MissionOwner’s (AUTH_FORBIDDEN)', () => {
    groupSpec.given(submitted).when(approve(approveWithDocument(), COORD)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(submitted).when(approve(approveWithDocument(), WORKER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
  });

  it('needs a Mission awaiting approval (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(created).when(command(stateOf(created), OWNER, 'mission.approve', approvePayload({ missionRevision: 1 }))).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionState);
  });

  it('approves only the submitted revision (REVISION_CONFLICT)', () => {
    groupSpec.given(submitted).when(approve(approvePayload({ missionRevision: 1 }))).thenFails('REVISION_CONFLICT', MISSION_REASONS.submittedRevisionMismatch);
  });

  it('approves exactly the submitted Artifact set (INVALID_COMMAND)', () => {
    groupSpec.given(submitted).when(approve(approvePayload({ artifactHashes: [HASH_A] }))).thenFails('INVALID_COMMAND', MISSION_REASONS.artifactSetMismatch);
  });

  it('refuses an embedded Approval that disagrees with the Command or is not the actor’s (INVALID_COMMAND)', () => {
    const cases = [
      { approver: { type: 'human', id: 'urn:missionweave:human:someone-else' } },
      { missionRevision: 1 },
      { artifactHashes: [HASH_A] },
      { approvalId: 'urn:missionweave:approval:other' },
      { acceptancePolicyVersion: '9.9.9' },
      { comments: 'different words' },
      { missionId: 'urn:missionweave:mission:other' },
      { kind: 'child_mission' },
    ];
    for (const change of cases) {
      groupSpec.given(submitted).when(approve(approvePayload({ approval: { ...EMBEDDED, ...change } }))).thenFails('INVALID_COMMAND', MISSION_REASONS.approvalDisagrees);
    }
  });

});

describe('mission.cancel', () => {
  const state = stateOf(created);

  for (const [who, cmd] of [
    ['the MissionOwner', command(state, OWNER, 'mission.cancel', { reason: 'Vendor contract ended.' })],
    ['the Organization authority service', envelope('mission.cancel', AUTHORITY, { reason: 'Vendor contract ended.' })],
  ] as const) {
    it(`cancels the Mission and revokes the Coordinator lease, by ${who}`, () => {
      const after = groupSpec.given(created).when(cmd).then([
        {
          kind: 'mission.cancelled',
          payload: {
            reason: 'Vendor contract ended.',
            mission: { ...state.mission, state: 'cancelled', revision: 2 },
            coordinatorLease: { ...state.coordinatorLease, state: 'revoked', closedAt: at(0), closureReason: 'Mission cancelled' },
            workItems: [],
          },
          aggregate: { type: 'mission', id: MISSION, revision: 2 },
        },
      ]) as GroupState;
      expect(after.mission).toMatchObject({ state: 'cancelled', revision: 2 });
      expect(after.coordinatorLease).toMatchObject({ state: 'revoked', closedAt: at(0), closureReason: 'Mission cancelled' });
      expectStateValid(after);
    });
  }

  it('is not the Coordinator’s nor another service’s (AUTH_FORBIDDEN)', () => {
    groupSpec.given(created).when(command(state, COORD, 'mission.cancel', { reason: 'x' })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(envelope('mission.cancel', REGISTRY, { reason: 'x' })).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
  });

  it('cannot cancel a terminal Mission (INVALID_STATE_TRANSITION)', () => {
    const cancelled = history([steps.cancel()], created);
    groupSpec.given(cancelled).when(command(stateOf(cancelled), OWNER, 'mission.cancel', { reason: 'again' })).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
  });
});

describe('mission.terminate', () => {
  const state = stateOf(created);

  for (const [who, cmd] of [
    ['the Coordinator', command(state, COORD, 'mission.terminate', { reason: 'Archive unreadable.' })],
    ['the Organization authority service', envelope('mission.terminate', AUTHORITY, { reason: 'Archive unreadable.' })],
  ] as const) {
    it(`fails the Mission and revokes the Coordinator lease, by ${who}`, () => {
      const after = groupSpec.given(created).when(cmd).then([
        {
          kind: 'mission.terminated',
          payload: {
            reason: 'Archive unreadable.',
            mission: { ...state.mission, state: 'failed', revision: 2 },
            coordinatorLease: { ...state.coordinatorLease, state: 'revoked', closedAt: at(0), closureReason: 'Mission failed' },
            workItems: [],
          },
          aggregate: { type: 'mission', id: MISSION, revision: 2 },
        },
      ]) as GroupState;
      expect(after.mission).toMatchObject({ state: 'failed', revision: 2 });
      expect(after.coordinatorLease).toMatchObject({ state: 'revoked', closureReason: 'Mission failed' });
      expectStateValid(after);
    });
  }

  it('needs Coordinator authority or the authority service (AUTH_FORBIDDEN, AUTH_STALE_COORDINATOR, WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(created).when(command(state, OWNER, 'mission.terminate', { reason: 'x' })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(command(state, WORKER, 'mission.terminate', { reason: 'x' })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(command(state, COORD, 'mission.terminate', { reason: 'x' }, { coordinatorEpoch: 0 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(created).when(command(state, COORD, 'mission.terminate', { reason: 'x' }), { now: at(900) }).thenFails('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired);
    groupSpec.given(created).when(envelope('mission.terminate', REGISTRY, { reason: 'x' })).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
  });

  it('cannot terminate a terminal Mission (INVALID_STATE_TRANSITION)', () => {
    const approved = history([steps.approve()], submitted);
    groupSpec.given(approved).when(envelope('mission.terminate', AUTHORITY, { reason: 'late' })).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
  });
});
