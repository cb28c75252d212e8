/**
 * One accepted Command per Group kind, with the Events it produces stated whole: the cases the
 * common-checks tests vary (another actor, another epoch, a terminal Mission, …).
 */

import type { Lease, WorkItem } from '../../src/domain/documents.js';
import type { GroupState } from '../../src/domain/group/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import { WORK_LEASES_EXTENSION, withLeases } from '../../src/domain/workItem/workLeases.js';
import { principalKey, type Principal } from '../../src/protocol/principal.js';
import type { ExpectedEvent } from '../support/specification.js';
import {
  AUTHORITY,
  SETTLED_CHILD,
  CHILD_GROUP,
  CHILD_MISSION,
  CONTRACT,
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
  SELECTION,
  activeWork,
  at,
  approvalPayload,
  busyGroup,
  history,
  queuedWork,
  steps,
  EXEC_EPOCH,
  EXEC_RUN_LEASE,
  EXEC_SUBMITTED_EVIDENCE,
  execEvidence,
  execGiven,
  DELEGATE_AGENT,
  command,
  verifiedWorkHistory,
} from './fixtures.js';
import { expectedApprovalGranted } from './expectedApproval.js';
import { expectedAccepted, expectedOffered, expectedRenewed, expectedStarted, executionLease, leasesIn, offerEntry } from './expectedOwnership.js';
import {
  execClosed,
  execLeases,
  expectedAuthorized,
  expectedChildApproved,
  expectedBlocked,
  expectedCheckpointed,
  expectedEnded,
  expectedMembership,
  expectedProgress,
  expectedPromotion,
  expectedWork,
} from './expectedEvents.js';

export interface KindCase {
  readonly actor: Principal;
  readonly payload: (state: GroupState) => object;
  /** The Events the case's Command produces in `state`, stated whole. */
  readonly events: (state: GroupState) => ExpectedEvent[];
  /** Needs a submitted Mission to be accepted. */
  readonly submitted?: boolean;
  /** The Group the case is accepted in, built from the busy Group (default: the busy Group). */
  readonly given?: (busy: readonly RecordedEvent[]) => RecordedEvent[];
}

const M1 = 'urn:missionweave:message:m-1';
const EXECUTION_APPROVAL_ID = 'urn:missionweave:approval:exec-1';
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
        workItems: [{ ...s.workItems.get(WORK), state: workState, revision: 2, updatedAt: T0 }],
      },
    },
  ];
}

function approval(s: GroupState) {
  return approvalPayload(s, { approvalId: 'urn:x:approval', artifactHashes: [HASH_A, HASH_B] });
}

const CHECKPOINT = { phase: 'migrating', completedMilestones: ['schema copied'], nextStep: 'backfill', createdAt: T0 };
const LEASED = { workItemId: WORK, ownershipEpoch: EXEC_EPOCH, executionLeaseId: EXEC_RUN_LEASE };

/** The kinds of the execution half of §10.2 (checkpoint … cancel), on w1 as far on as each needs. */
const EXECUTION_CASES: Readonly<Record<string, KindCase>> = {
  'work.checkpoint': {
    actor: WORKER,
    given: () => execGiven({ state: 'active' }),
    payload: () => ({ ...LEASED, checkpoint: CHECKPOINT }),
    events: (s) => [expectedCheckpointed(s, CHECKPOINT)],
  },
  'work.block': {
    actor: WORKER,
    given: () => execGiven({ state: 'active' }),
    payload: () => ({ ...LEASED, reason: 'needs DBA approval', checkpoint: CHECKPOINT, blockedLeaseSeconds: 120 }),
    events: (s) => [expectedBlocked(s, 'needs DBA approval', CHECKPOINT, 120)],
  },
  'work.unblock': {
    actor: COORD,
    given: () => execGiven({ state: 'blocked' }),
    payload: () => ({ workItemId: WORK }),
    events: (s) => {
      const leases = execLeases(s);
      const ownership = { ...(leases['ownership'] as object), leaseType: 'ownership' };
      const workItem = expectedWork(s, { state: 'queued', progress: expectedProgress('blocked', { nextCheckpoint: 'not reported' }) }, { ...leases, ownership });
      return [{ kind: 'work.unblocked', payload: { workItemId: WORK, workItem, state: 'queued', status: 'queued' } }];
    },
  },
  'work.submit': {
    actor: WORKER,
    given: () => execGiven({ state: 'active' }),
    payload: () => ({ ...LEASED, artifactHashes: [HASH_A], evidence: [execEvidence('urn:x:ev')] }),
    events: (s) => {
      const leases = execLeases(s);
      const released = execClosed(leases['execution'], 'released', 'submitted');
      const { execution, ...rest } = leases;
      void execution;
      const change = {
        state: 'submitted',
        submission: { artifactHashes: [HASH_A], evidenceIds: ['urn:x:ev'], submittedAt: T0 },
        progress: expectedProgress('active', { nextCheckpoint: 'not reported', evidenceIds: ['urn:x:ev'] }),
      };
      const workItem = expectedWork(s, change, { ...rest, closed: [...(leases['closed'] as object[]), released] });
      const payload = { workItemId: WORK, workItem, ownershipEpoch: EXEC_EPOCH, artifactHashes: [HASH_A], evidence: [execEvidence('urn:x:ev')], releasedExecutionLease: released };
      return [{ kind: 'work.submitted', payload }];
    },
  },
  'work.accept_result': {
    actor: COORD,
    given: () => execGiven({ state: 'submitted' }),
    payload: () => ({ workItemId: WORK, evidence: [execEvidence('urn:x:review', REVIEWER)] }),
    events: (s) => {
      const { ownership, ...rest } = execLeases(s);
      void ownership;
      const progress = expectedProgress('submitted', { nextCheckpoint: 'not reported', evidenceIds: [EXEC_SUBMITTED_EVIDENCE, 'urn:x:review'] });
      const workItem = expectedWork(s, { state: 'verified', progress }, rest);
      return [{ kind: 'work.result.accepted', payload: { workItemId: WORK, workItem, evidence: [execEvidence('urn:x:review', REVIEWER)] } }];
    },
  },
  'work.fail': {
    actor: COORD,
    payload: () => ({ workItemId: WORK, reason: 'Superseded.', evidence: [execEvidence('urn:x:failure', COORD, { type: 'failure_report', result: 'failed' })] }),
    events: (s) => [
      expectedEnded(s, 'work.failed', 'Superseded.', { evidence: [execEvidence('urn:x:failure', COORD, { type: 'failure_report', result: 'failed' })] }, {
        progress: expectedProgress('open', { nextCheckpoint: 'not reported', evidenceIds: ['urn:x:failure'] }),
      }),
    ],
  },
  'work.cancel': {
    actor: COORD,
    payload: () => ({ workItemId: WORK, reason: 'Out of scope.' }),
    events: (s) => [expectedEnded(s, 'work.cancelled', 'Out of scope.')],
  },
};

/** A Delegation Grant over w1 for delegate-5, within w1's and the Mission's budgets. */
const DELEGATION_PAYLOAD = {
  grantId: 'urn:x:grant',
  granteeAgentId: DELEGATE_AGENT.id,
  targetWorkItemId: WORK,
  allowedCapabilities: [{ id: 'acme.sql-migration', version: '1.0.0' }],
  budget: { currency: 'EUR', financialLimit: 10, modelTokenLimit: 1000, toolCallLimit: 10, computeSecondsLimit: 60, wallClockSecondsLimit: 600, externalSideEffectLimit: 0 },
  maxDescendantDepth: 2,
  expiresAt: at(3600),
};

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
      { kind: 'mission.submitted_for_approval', payload: { missionRevision: 2, artifactHashes: [HASH_A], mission: { ...s.mission, state: 'awaiting_approval', revision: 2 } } },
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
  'work.propose': {
    actor: WORKER,
    payload: () => ({ proposalId: 'urn:x:p1', contract: CONTRACT }),
    events: () => [
      {
        kind: 'work.proposed',
        payload: {
          proposal: { proposalId: 'urn:x:p1', missionId: MISSION, groupId: GROUP, proposer: WORKER, contract: CONTRACT, dependencyIds: [], state: 'open', proposedAt: T0, revision: 1 },
        },
      },
    ],
  },
  'membership.grant_delegation': {
    actor: COORD,
    given: (busy) => history([(s) => command(s!, OWNER, 'membership.change', { principal: DELEGATE_AGENT, roles: ['work_delegate'] })], busy),
    payload: () => DELEGATION_PAYLOAD,
    events: () => [
      {
        kind: 'membership.delegation.granted',
        payload: {
          delegationGrant: {
            ...DELEGATION_PAYLOAD,
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
      },
    ],
  },
  'ext.missionweaveprotocol.core.work_dependency_add': {
    actor: COORD,
    given: (busy) => history([steps.authorize('urn:x:w0')], busy),
    payload: () => ({ workItemId: WORK, dependencyId: 'urn:x:w0' }),
    events: (s) => {
      const item = s.workItems.get(WORK)!;
      const contractVersion = item.contract.contractVersion + 1;
      const workItem = { ...item, contract: { ...item.contract, contractVersion, dependencyWorkItemIds: ['urn:x:w0'] }, revision: 2, updatedAt: T0 };
      return [{ kind: 'work.contract.revised', payload: { workItemId: WORK, workItem, contractVersion, dependencyId: 'urn:x:w0', revokedLeases: [] } }];
    },
  },
  'work.authorize': {
    actor: COORD,
    payload: () => ({ workItemId: 'urn:x:w2', contract: CONTRACT }),
    events: () => [expectedAuthorized('urn:x:w2', `${ID}1`)],
  },
  'work.offer': {
    actor: COORD,
    payload: () => ({ workItemId: WORK, candidateAgentIds: [WORKER.id], selectionBasis: SELECTION }),
    events: (s) => [expectedOffered(s, [WORKER], [offerEntry(`${ID}1`, WORKER, at(300))])],
  },
  'work.accept_offer': {
    actor: WORKER,
    given: () => history([steps.offer([WORKER])], busyGroup()),
    payload: () => ({ workItemId: WORK }),
    events: (s) => [expectedAccepted(s, WORKER, `${ID}1`)],
  },
  'approval.grant_execution': {
    actor: OWNER,
    given: () => history([steps.offer([WORKER]), steps.acceptOffer(WORKER)], busyGroup()),
    payload: () => ({ approvalId: EXECUTION_APPROVAL_ID, workItemId: WORK, ownershipEpoch: 1, operations: ['db.migrate'] }),
    events: (s) => [expectedApprovalGranted(s, { approvalId: EXECUTION_APPROVAL_ID })],
  },
  'work.start': {
    actor: WORKER,
    given: queuedWork,
    payload: () => ({ workItemId: WORK, ownershipEpoch: 1 }),
    events: (s) => [expectedStarted(s, executionLease({ leaseId: `${ID}1`, holder: WORKER, ownershipEpoch: 1, seconds: 300 }))],
  },
  'ext.missionweaveprotocol.core.work_execution_lease_renew': {
    actor: WORKER,
    given: activeWork,
    payload: (s) => ({ workItemId: WORK, ownershipEpoch: 1, executionLeaseId: (leasesIn(s)['execution'] as { leaseId?: string } | undefined)?.leaseId ?? 'urn:x:no-lease' }),
    events: (s) => [expectedRenewed(s, 300, T0)],
  },
  'ext.missionweave.core.work_lease_close': {
    actor: AUTHORITY,
    given: () => busyGroup().map((event) => (event.kind === 'work.authorized' ? { ...event, payload: { ...event.payload, workItem: leasedWorkItem(event.payload['workItem'] as unknown as WorkItem) } } as unknown as RecordedEvent : event)),
    payload: () => ({ workItemId: WORK, ownershipEpoch: 1, leaseId: EXPIRED_LEASE.leaseId, holderAgentId: WORKER.id, cause: 'expired' }),
    events: (state) => {
      const before = state.workItems.get(WORK) as WorkItem;
      const closed: Lease = { ...EXPIRED_LEASE, state: 'expired', closedAt: T0, closureReason: 'expired' };
      const workItem = { ...before, state: 'queued', revision: before.revision + 1, updatedAt: T0, extensions: { ...before.extensions, [WORK_LEASES_EXTENSION]: { version: '0.1.0', critical: false, data: { closed: [closed] } } } };
      return [{ kind: 'ext.missionweave.core.work_lease_closed', payload: { workItemId: WORK, workItem, ownershipEpoch: 1, cause: 'expired', closedLease: closed, closedLeases: [closed] } }];
    },
  },
  ...EXECUTION_CASES,
};

/** An Execution Lease of worker-7 that expired a minute before T0 (its ownership lease too). */
const EXPIRED_LEASE: Lease = {
  leaseId: 'urn:x:lease-exe',
  leaseType: 'execution',
  missionId: MISSION,
  groupId: GROUP,
  workItemId: WORK,
  holderAgentId: WORKER.id,
  sessionEpoch: 1,
  ownershipEpoch: 1,
  issuedAt: at(-600),
  startsAt: at(-600),
  expiresAt: at(-60),
  state: 'active',
  renewalCount: 0,
};

/** The open WorkItem made active under `EXPIRED_LEASE`, as the work.* kinds leave it. */
function leasedWorkItem(workItem: WorkItem): WorkItem {
  const pin = { id: 'code.review', version: '1.0.0' };
  return withLeases({
    ...workItem,
    state: 'active',
    owner: { agentId: WORKER.id, agentCardVersion: 3, capabilityPins: [pin], ownershipEpoch: 1, ownershipLeaseId: 'urn:x:lease-own', acceptedAt: at(-600) },
    selectionBasis: { requiredCapabilities: [pin], verifiedMatches: [pin], authorizationEligible: true, availabilityEstimate: T0, expectedCost: 1, reliabilityEvidence: [], policyRulesApplied: [] },
  }, { execution: EXPIRED_LEASE });
}
