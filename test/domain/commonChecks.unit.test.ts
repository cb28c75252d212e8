/**
 * The checks every Group Command passes before its kind's own rules (docs/transitions.md,
 * "Checks inside the Group decider"), for every Group kind the registry knows.
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/group/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import { principalKey, type Principal } from '../../src/protocol/principal.js';
import type { ExpectedEvent } from '../support/specification.js';
import {
  COMMAND_RULES,
  AUTHORITY,
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
  REGISTRY,
  REVIEWER,
  STRANGER,
  T0,
  WORK,
  WORKER,
  at,
  approvalPayload,
  busyGroup,
  command,
  envelope,
  expectedMembership,
  expectedPromotion,
  groupSpec,
  history,
  stateOf,
  steps,
} from './fixtures.js';

interface KindCase {
  readonly actor: Principal;
  readonly payload: (state: GroupState) => object;
  /** The Events the case's Command produces in `state`, stated whole. */
  readonly events: (state: GroupState) => ExpectedEvent[];
  /** Needs a submitted Mission to be accepted. */
  readonly submitted?: boolean;
}

const M1 = 'urn:missionweave:message:m-1';
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

/** One Command per Group kind that its usual sender may send and that is accepted. */
const CASES: Readonly<Record<string, KindCase>> = {
  'mission.create_child': {
    actor: COORD,
    payload: () => CHILD_PAYLOAD,
    events: (s) => expectedPromotion(s, CHILD_PAYLOAD, { state: 'open' }),
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
  'work.authorize': {
    actor: COORD,
    payload: () => ({ workItemId: 'urn:x:w2', contract: CONTRACT }),
    events: () => {
      const conversationId = `${ID}1`;
      const workItem = {
        workItemId: 'urn:x:w2',
        missionId: MISSION,
        groupId: GROUP,
        conversationId,
        revision: 1,
        state: 'open',
        exclusive: true,
        contract: CONTRACT,
        createdBy: COORD,
        authorizedBy: COORD,
        createdAt: T0,
      };
      const conversation = {
        conversationId,
        missionId: MISSION,
        groupId: GROUP,
        type: 'work_item',
        primaryWorkItemId: 'urn:x:w2',
        title: CONTRACT.goal,
        access: { mode: 'group' },
        createdBy: COORD,
        createdAt: T0,
        state: 'active',
        revision: 0,
      };
      return [{ kind: 'work.authorized', payload: { workItem, conversation, proposalId: null } }];
    },
  },
};

const GROUP_KINDS = Object.entries(COMMAND_RULES)
  .filter(([, rules]) => rules.scope === 'group')
  .map(([kind]) => kind);

const busy = busyGroup();
const submitted = history([steps.submit([HASH_A, HASH_B])], busy);
const TERMINAL: Record<string, RecordedEvent[]> = {
  approved: history([steps.approve()], submitted),
  cancelled: history([steps.cancel()], busy),
  failed: history([steps.terminate()], busy),
};

function caseOf(kind: string): KindCase {
  const found = CASES[kind];
  if (found === undefined) throw new Error(`no test case for ${kind}`);
  return found;
}

function validCommand(kind: string, events: readonly RecordedEvent[], actor?: Principal, extra: object = {}) {
  const state = stateOf(events);
  const c = caseOf(kind);
  return command(state, actor ?? c.actor, kind, c.payload(state), extra);
}

describe('the registry', () => {
  it('has a test case for every Group kind', () => {
    expect([...GROUP_KINDS].sort()).toEqual(Object.keys(CASES).sort());
  });

  it('accepts each case in a live Mission (so the refusals below come from the checks)', () => {
    for (const kind of GROUP_KINDS) {
      const events = caseOf(kind).submitted === true ? submitted : busy;
      groupSpec.given(events).when(validCommand(kind, events)).then(caseOf(kind).events(stateOf(events)));
    }
  });

  it('refuses a kind it does not know (INVALID_COMMAND)', () => {
    groupSpec.given(busy).when(command(stateOf(busy), COORD, 'work.offer', { workItemId: WORK })).thenFails('INVALID_COMMAND', 'kind-not-supported');
    groupSpec.given([]).when(envelope('toString', OWNER, {})).thenFails('INVALID_COMMAND', 'kind-not-supported');
  });
});

describe.each(GROUP_KINDS)('%s', (kind) => {
  it('answers a missing Group with GROUP_NOT_FOUND', () => {
    groupSpec.given([]).when(validCommand(kind, busy)).thenFails('GROUP_NOT_FOUND', 'group-not-found');
  });

  it('answers a Principal who never was a member with GROUP_NOT_FOUND', () => {
    for (const outsider of [STRANGER, COORD2]) {
      groupSpec.given(busy).when(validCommand(kind, busy, outsider, { membershipEpoch: 1 })).thenFails('GROUP_NOT_FOUND', 'group-not-found');
    }
  });

  it('refuses an ended or provisional Membership (MEMBERSHIP_REQUIRED)', () => {
    const ended = history([(s) => command(s!, OWNER, 'membership.end', { principal: WORKER })], busy);
    groupSpec.given(ended).when(validCommand(kind, ended, WORKER)).thenFails('MEMBERSHIP_REQUIRED', 'membership-ended');
    const provisional = history(
      [(s) => command(s!, OWNER, 'membership.change', { principal: COORD2, roles: ['worker'], provisional: true, contextPackageId: 'urn:x:cp', provisionalExpiresAt: at(3600) })],
      busy,
    );
    groupSpec.given(provisional).when(validCommand(kind, provisional, COORD2)).thenFails('MEMBERSHIP_REQUIRED', 'membership-provisional');
  });

  it('refuses a Membership Epoch that is not the current one (MEMBERSHIP_STALE)', () => {
    const events = caseOf(kind).submitted === true ? submitted : busy;
    groupSpec.given(events).when(validCommand(kind, events, undefined, { membershipEpoch: 2 })).thenFails('MEMBERSHIP_STALE', 'membership-epoch-stale');
    groupSpec.given(events).when(validCommand(kind, events, undefined, { membershipEpoch: undefined })).thenFails('MEMBERSHIP_STALE', 'membership-epoch-stale');
  });

  it('lets only the Group Authority service send it, and only where listed (AUTH_FORBIDDEN)', () => {
    const rules = COMMAND_RULES[kind]!;
    groupSpec.given(busy).when(validCommand(kind, busy, REGISTRY, { membershipEpoch: undefined })).thenFails('AUTH_FORBIDDEN', 'service-not-authorized');
    if (!rules.authority.includes('organization-authority')) {
      groupSpec.given(busy).when(validCommand(kind, busy, AUTHORITY, { membershipEpoch: undefined })).thenFails('AUTH_FORBIDDEN', 'service-not-authorized');
    }
  });

  for (const [terminal, events] of Object.entries(TERMINAL)) {
    it(`is refused by a ${terminal} Mission (INVALID_STATE_TRANSITION)`, () => {
      groupSpec.given(events).when(validCommand(kind, events)).thenFails('INVALID_STATE_TRANSITION', 'mission-terminal');
      if (COMMAND_RULES[kind]!.authority.includes('organization-authority')) {
        groupSpec.given(events).when(validCommand(kind, events, AUTHORITY, { membershipEpoch: undefined })).thenFails('INVALID_STATE_TRANSITION', 'mission-terminal');
      }
    });
  }

  it('checks expectedRevision against the aggregate the kind changes (REVISION_CONFLICT)', () => {
    const events = caseOf(kind).submitted === true ? submitted : busy;
    const state = stateOf(events);
    const rules = COMMAND_RULES[kind]!;
    const plain = validCommand(kind, events);
    const current = (rules.target as (s: GroupState, c: typeof plain) => number | undefined)(state, plain);
    expect(current).toBeTypeOf('number');
    groupSpec.given(events).when({ ...plain, expectedRevision: current! + 1 }).thenFails('REVISION_CONFLICT', 'revision-conflict');
    groupSpec
      .given(events)
      .when({ ...plain, expectedRevision: current! })
      .then(caseOf(kind).events(state), (_after, _before, drafts) => {
        // expectedRevision names exactly the aggregate whose next revision the Event produces.
        expect(drafts[0]?.aggregate.revision).toBe(current! + 1);
      });
  });

  it('refuses an envelope workItemId or conversationId the payload does not act on (INVALID_COMMAND)', () => {
    groupSpec.given(busy).when(validCommand(kind, busy, undefined, { workItemId: 'urn:x:not-this-one' })).thenFails('INVALID_COMMAND', 'envelope-target-mismatch');
    groupSpec.given(busy).when(validCommand(kind, busy, undefined, { conversationId: 'urn:x:not-this-one' })).thenFails('INVALID_COMMAND', 'envelope-target-mismatch');
  });
});

describe('order of the checks', () => {
  it('does not tell a non-member anything about the Mission', () => {
    const cancelled = TERMINAL['cancelled']!;
    groupSpec.given(cancelled).when(validCommand('mission.cancel', cancelled, STRANGER, { membershipEpoch: 1 })).thenFails('GROUP_NOT_FOUND', 'group-not-found');
  });

  it('checks Membership before Coordinator authority, and the epoch before the lease', () => {
    const state = stateOf(busy);
    groupSpec.given(busy).when(command(state, COORD, 'mission.renew_coordinator', {}, { membershipEpoch: 5, coordinatorEpoch: 5 })).thenFails('MEMBERSHIP_STALE', 'membership-epoch-stale');
    groupSpec.given(busy).when(command(state, COORD, 'mission.renew_coordinator', {}, { coordinatorEpoch: 5 }), { now: at(9999) }).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
  });
});
