/**
 * One accepted Command per Group kind, with the Events it produces stated whole: the cases the
 * common-checks tests vary (another actor, another epoch, a terminal Mission, …).
 */

import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';

import { principalKey, type Principal } from '../../src/protocol/principal.js';
import type { ExpectedEvent, World } from '../support/specification.js';
import { archiveSnapshot, historyOf, SNAPSHOT_ID, STATE_HASH } from './archiveFixtures.js';
import {
  AUTHORITY,
  SETTLED_CHILD,
  CHILD_GROUP,
  CHILD_MISSION,
  COORD,
  COORD2,
  GROUP,
  HASH_A,
  HASH_B,
  MAIN,
  MISSION,
  OWNER,
  REVIEWER,
  T0,
  WORK,
  WORKER,
  at,
  approvalPayload,
  history,
  command,
  steps,
  verifiedWorkHistory,
} from './fixtures.js';

import { expectedChildApproved, expectedMembership, expectedPromotion } from './expectedEvents.js';

import { WORK_CASES } from './workKindCases.js';
import { workItemIn } from './workDocuments.js';
export interface KindCase {
  readonly actor: Principal;
  /** The payload in the case's Group (`events`: its recorded history, for a snapshot of it). */
  readonly payload: (state: GroupState, events?: readonly RecordedEvent[]) => object;
  /** What the world holds besides the defaults, for a Group with these Events (archival's history). */
  readonly world?: (events: readonly RecordedEvent[]) => Partial<World>;
  /** Accepted only in a terminal Mission (archival), so the terminal-Mission refusals do not apply. */
  readonly terminal?: true;
  /** The Events the case's Command produces in `state`, stated whole. */
  readonly events: (state: GroupState) => ExpectedEvent[];
  /** Needs a submitted Mission to be accepted. */
  readonly submitted?: boolean;
  /** The Group the case is accepted in, built from the busy Group (default: the busy Group). */
  readonly given?: (busy: readonly RecordedEvent[]) => RecordedEvent[];
}

const M1 = 'urn:missionweave:message:m-1';
/** The example definition of done, supported by no WorkItem criterion of the busy Group. */
export const NO_SUPPORT = ['ledger-parity', 'owner-sign-off'].map((criterionId) => ({ criterionId, workItemCount: 0, workItemIds: [] }));
const ID = 'urn:test:id:when-';
const text = (words: string) => [{ type: 'text', text: words }];

/** A Message or amendment in the main Conversation, committed now. */
function message(messageId: string, author: Principal, kind: string, content: object[], amends?: { reason: string }) {
  const common = { messageId, missionId: MISSION, groupId: GROUP, conversationId: MAIN, author, kind, authority: false };
  return amends === undefined
    ? { ...common, content, committedAt: T0 }
    : { ...common, targetMessageId: M1, content, reason: amends.reason, committedAt: T0 };
}

const CHILD_PAYLOAD = {
  missionId: CHILD_MISSION,
  groupId: CHILD_GROUP,
  parentWorkItemId: WORK,
  coordinatorId: COORD2.id,
  title: 'Child',
  objective: 'A part of the work.',
  definitionOfDone: [{ criterionId: 'c1', description: 'done', evidenceRequired: ['human_review'] }],
  budget: { currency: 'EUR', financialLimit: 10 },
  deadline: '2026-09-10T00:00:00Z',
};

/** The Mission closed with its lease revoked and its open WorkItem w1 closed too. */
function closed(s: GroupState, kind: string, reason: string, missionState: string, workState: string, closureReason: string) {
  return [
    {
      kind,
      payload: {
        reason,
        mission: { ...s.mission, state: missionState, revision: s.mission.revision + 1 },
        coordinatorLease: { ...s.coordinatorLease, state: 'revoked', closedAt: T0, closureReason },
        workItems: [{ ...workItemIn(s, WORK), state: workState, revision: 2, updatedAt: T0 }],
      },
    },
  ];
}

function approval(s: GroupState) {
  return approvalPayload(s, { approvalId: 'urn:x:approval', artifactHashes: [HASH_A, HASH_B] });
}

/** A Cooperation Override Grant letting the Worker post one Message past the rate limit (§20). */
export const GRANT_PAYLOAD = {
  grantId: 'urn:x:grant',
  policyName: 'message_rate',
  beneficiary: WORKER,
  targetCommandKind: 'message.post',
  targetActionId: 'urn:x:target',
  reason: 'incident bridge',
  expiresAt: at(3600),
};

/** The grant `GRANT_PAYLOAD` issues when the MissionOwner sends it at T0. */
export function expectedGrant(extra: object = {}) {
  const { grantId, ...rest } = GRANT_PAYLOAD;
  return { id: grantId, missionId: MISSION, groupId: GROUP, ...rest, approver: OWNER, grantedAt: T0, signature: 'A'.repeat(86), ...extra };
}

/** One Command per Group kind that its usual sender may send and that is accepted. */
export const CASES: Readonly<Record<string, KindCase>> = {
  'mission.create_child': {
    actor: COORD,
    payload: () => CHILD_PAYLOAD,
    events: (s) => expectedPromotion(s, CHILD_PAYLOAD),
  },
  'mission.assign_coordinator': {
    actor: OWNER,
    payload: () => ({ coordinatorId: COORD2.id }),
    events: (s) => {
      const lease = { ...s.coordinatorLease, leaseId: `${ID}1`, holderAgentId: COORD2.id, coordinatorEpoch: 2, expiresAt: at(300) };
      const coordinator = s.memberships.get(principalKey(COORD));
      const payload = {
        previousCoordinatorId: COORD.id,
        coordinatorId: COORD2.id,
        coordinatorEpoch: 2,
        leaseExpiresAt: at(300),
        coordinatorLease: lease,
        previousCoordinatorLease: { ...s.coordinatorLease, state: 'revoked', closedAt: T0, closureReason: 'Replaced by Coordinator Epoch 2' },
        memberships: [{ ...coordinator, state: 'ended', membershipEpoch: 2, endedAt: T0 }, expectedMembership(`${ID}2`, COORD2, 'coordinator')],
        mission: { ...s.mission, revision: 2, coordinator: { agentId: COORD2.id, agentCardVersion: 3, coordinatorEpoch: 2, leaseId: `${ID}1` } },
      };
      return [{ kind: 'mission.coordinator.assigned', payload }];
    },
  },
  'mission.renew_coordinator': {
    actor: COORD,
    payload: () => ({}),
    events: (s) => [
      {
        kind: 'mission.coordinator.renewed',
        payload: { coordinatorEpoch: 1, leaseExpiresAt: at(300), coordinatorLease: { ...s.coordinatorLease, expiresAt: at(300), renewalCount: 1, lastRenewedAt: T0 } },
      },
    ],
  },
  'mission.submit_for_approval': {
    actor: COORD,
    // §7.3: submission needs every required WorkItem verified.
    given: (busy) => verifiedWorkHistory(busy),
    payload: () => ({ artifactHashes: [HASH_A] }),
    events: (s) => [
      {
        kind: 'mission.submitted_for_approval',
        payload: { missionRevision: 2, artifactHashes: [HASH_A], mission: { ...s.mission, state: 'awaiting_approval', revision: 2 }, definitionOfDoneSupport: NO_SUPPORT },
      },
    ],
  },
  'mission.request_changes': {
    actor: OWNER,
    submitted: true,
    payload: (s) => ({ missionRevision: s.mission.revision, feedback: 'More.' }),
    events: (s) => [{ kind: 'mission.changes_requested', payload: { missionRevision: 2, feedback: 'More.', mission: { ...s.mission, state: 'active', revision: 3 } } }],
  },
  'mission.approve': {
    actor: OWNER,
    submitted: true,
    payload: approval,
    events: (s) => [
      {
        kind: 'mission.approved',
        payload: {
          approval: approval(s)['approval'] as object,
          mission: { ...s.mission, state: 'approved', revision: 3 },
          coordinatorLease: { ...s.coordinatorLease, state: 'released', closedAt: T0, closureReason: 'Mission approved' },
        },
      },
    ],
  },
  'mission.cancel': {
    actor: OWNER,
    payload: () => ({ reason: 'Stop.' }),
    events: (s) => closed(s, 'mission.cancelled', 'Stop.', 'cancelled', 'cancelled', 'Mission cancelled'),
  },
  'mission.terminate': {
    actor: COORD,
    payload: () => ({ reason: 'Impossible.' }),
    events: (s) => closed(s, 'mission.terminated', 'Impossible.', 'failed', 'failed', 'Mission failed'),
  },
  'membership.change': {
    actor: OWNER,
    payload: () => ({ principal: COORD2, roles: ['observer'] }),
    events: (s) => [{ kind: 'membership.changed', payload: { membership: expectedMembership(`${ID}1`, COORD2, 'observer', { visibilityStartSequence: s.lastSequence + 1 }) } }],
  },
  'membership.end': {
    actor: OWNER,
    payload: () => ({ principal: REVIEWER }),
    events: (s) => [
      {
        kind: 'membership.ended',
        payload: { principal: REVIEWER, membership: { ...s.memberships.get(principalKey(REVIEWER)), state: 'ended', membershipEpoch: 2, endedAt: T0 } },
      },
    ],
  },
  'message.post': {
    actor: WORKER,
    payload: () => ({ messageId: 'urn:x:new', conversationId: MAIN, content: 'hi' }),
    events: () => [{ kind: 'message.posted', payload: { message: message('urn:x:new', WORKER, 'message', text('hi')) } }],
  },
  'message.correct': {
    actor: WORKER,
    payload: () => ({ amendmentId: 'urn:x:a', messageId: M1, replacementContent: 'v2', reason: 'typo' }),
    events: () => [{ kind: 'message.corrected', payload: { amendment: message('urn:x:a', WORKER, 'correction', text('v2'), { reason: 'typo' }) } }],
  },
  'message.retract': {
    actor: WORKER,
    payload: () => ({ amendmentId: 'urn:x:a', messageId: M1, reason: 'wrong place' }),
    events: () => [
      {
        kind: 'message.retracted',
        payload: { amendment: message('urn:x:a', WORKER, 'retraction', text('[Message retracted by its author]'), { reason: 'wrong place' }) },
      },
    ],
  },
  'message.redact': {
    actor: OWNER,
    payload: () => ({ amendmentId: 'urn:x:a', messageId: M1, reason: 'policy' }),
    events: () => [
      { kind: 'message.redacted', payload: { amendment: message('urn:x:a', OWNER, 'redaction', text('[Message redacted under policy]'), { reason: 'policy' }) } },
    ],
  },
  'ext.missionweave.core.child_mission_settle': {
    actor: AUTHORITY,
    // w1 promoted to the approved child the world's store knows (created when none existed).
    given: (busy) =>
      history([(s) => command(s!, COORD, 'mission.create_child', { ...CHILD_PAYLOAD, missionId: SETTLED_CHILD.missionId, groupId: SETTLED_CHILD.groupId })], busy, { missions: [] }),
    payload: () => ({ parentWorkItemId: WORK, childMissionId: SETTLED_CHILD.missionId }),
    events: (s) => [expectedChildApproved(s, WORK, { missionId: SETTLED_CHILD.missionId, groupId: SETTLED_CHILD.groupId, ...SETTLED_CHILD.approval! })],
  },
  'ext.missionweaveprotocol.core.group_archive': {
    actor: AUTHORITY,
    terminal: true,
    given: (busy) => history([steps.cancel()], busy),
    payload: (_s, events = []) => ({ snapshot: archiveSnapshot(events) }),
    world: (events) => ({ histories: [historyOf(events)] }),
    events: (s) => [
      { kind: 'group.snapshot.created', payload: { snapshotId: SNAPSHOT_ID, throughSequence: s.lastSequence, stateHash: STATE_HASH } },
      { kind: 'group.archived', payload: { snapshotId: SNAPSHOT_ID, archivedAt: T0, group: { ...s.group, state: 'archived', archivedAt: T0, archiveSnapshotId: SNAPSHOT_ID } } },
    ],
  },
  'ext.missionweave.core.budget_revise': {
    actor: OWNER,
    payload: () => ({ budget: { ...REVISED_BUDGET }, reason: 'More tool calls for the backfill.' }),
    events: (s) => [
      {
        kind: 'ext.missionweave.core.mission_budget_revised',
        payload: {
          missionId: s.mission.missionId,
          mission: { ...s.mission, budget: REVISED_BUDGET, revision: s.mission.revision + 1 },
          previousBudget: s.mission.budget,
          budget: REVISED_BUDGET,
          reason: 'More tool calls for the backfill.',
          resumedWorkItems: [],
        },
      },
    ],
  },
  'ext.missionweaveprotocol.core.profile_pin': {
    actor: OWNER,
    payload: () => PIN,
    world: () => ({ profiles: [PIN] }),
    events: (s) => [
      {
        kind: 'ext.missionweaveprotocol.core.profile_pinned',
        payload: { missionId: s.mission.missionId, pin: PIN, mission: { ...s.mission, pinnedProfiles: [PIN], revision: s.mission.revision + 1 } },
      },
    ],
  },
  'policy.grant_cooperation_override': {
    actor: OWNER,
    payload: () => GRANT_PAYLOAD,
    events: () => [{ kind: 'policy.cooperation_override.granted', payload: { cooperationOverrideGrant: expectedGrant() } }],
  },
  ...WORK_CASES,
};

/** A registered Extension Profile major version (`profile_pin`'s case). */
const PIN = { profileUri: 'urn:missionweave:profile:example:tally:1', majorVersion: 1 };

/** The example Mission budget with more tool calls (`budget_revise`'s case). */
const REVISED_BUDGET = { currency: 'EUR', financialLimit: 1200, modelTokenLimit: 4000000, toolCallLimit: 6000, computeSecondsLimit: 864000, wallClockSecondsLimit: 1209600 };
