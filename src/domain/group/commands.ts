/**
 * The Command registry of the Group decider: for each kind, who may send it, which Mission
 * states admit it, which aggregate `expectedRevision` names, which Conversation or WorkItem the
 * envelope may point at, and the kind's own rules. The checks every kind shares
 * (docs/transitions.md, "Checks inside the Group decider") run from this data in
 * `decideGroup.ts`; a new kind is one more entry here.
 */

import type { MissionState, Principal } from '../documents.js';
import type { CommandEnvelope, Decision, DecisionContext } from '../model.js';
import {
  decideMessageCorrect,
  decideMessagePost,
  decideMessageRedact,
  decideMessageRetract,
} from '../conversation/decideMessages.js';
import { decideMembershipChange, decideMembershipEnd } from '../membership/decideMembership.js';
import { decideApprove, decideRequestChanges, decideSubmitForApproval } from '../mission/approval.js';
import { decideCancel, decideTerminate } from '../mission/closeMission.js';
import { decideAssignCoordinator, decideRenewCoordinator } from '../mission/coordinator.js';
import { decideCreateChild } from '../mission/createChild.js';
import { decideFollowUpCreate, decideMissionCreate } from '../mission/createMission.js';
import { decideWorkAuthorize } from '../workItem/authorizeWork.js';
import { leaseRevision, type GroupState } from './groupState.js';
import { membershipOf } from './stateQueries.js';

/**
 * Who may send a kind. `creator`: a human founding a Group (no Membership yet). `member`: any
 * active member. `mission-owner`, `coordinator` (the lease holder, under its live lease and
 * current epoch), `organization-authority` (the Group Authority service, the only service that
 * acts in Groups) and `subject` (the Principal the payload names) as docs/transitions.md lists.
 */
export type Authority = 'creator' | 'member' | 'mission-owner' | 'coordinator' | 'organization-authority' | 'subject';

/** Reads the aggregate, Conversation, WorkItem or Principal a Command names. */
type Pointer<S, T> = (state: S, command: CommandEnvelope) => T;

interface CommonRules<S> {
  readonly authority: readonly Authority[];
  /**
   * The current revision of the aggregate the Command changes, compared with `expectedRevision`;
   * 0 for one that does not exist yet, `undefined` when the kind's own rules refuse the target.
   */
  readonly target: Pointer<S, number | undefined>;
  /** The Conversation / WorkItem an envelope `conversationId` / `workItemId` must name. */
  readonly conversationOf?: Pointer<S, string | undefined>;
  readonly workItemOf?: Pointer<S, string | undefined>;
}

export interface GroupKindRules extends CommonRules<GroupState> {
  readonly scope: 'group';
  /** Mission states the kind needs beyond not being terminal (absent: any live state). */
  readonly missionStates?: readonly MissionState[];
  readonly subject?: (command: CommandEnvelope) => Principal;
  readonly decide: (state: GroupState, command: CommandEnvelope, ctx: DecisionContext) => Decision;
}

export interface NewGroupKindRules extends CommonRules<GroupState | null> {
  readonly scope: 'new-group';
  readonly decide: (state: GroupState | null, command: CommandEnvelope, ctx: DecisionContext) => Decision;
}

export type KindRules = GroupKindRules | NewGroupKindRules;

function text(command: CommandEnvelope, member: string): string {
  const value = command.payload[member];
  return typeof value === 'string' ? value : '';
}

function principalOf(command: CommandEnvelope): Principal {
  return command.payload['principal'] as unknown as Principal;
}

const missionRevision = (state: GroupState): number => state.mission.revision;
const messageConversation = (state: GroupState, command: CommandEnvelope): string | undefined =>
  state.messages.get(text(command, 'messageId'))?.message.conversationId;
const amendedConversationRevision = (state: GroupState, command: CommandEnvelope): number | undefined => {
  const conversationId = messageConversation(state, command);
  return conversationId === undefined ? undefined : state.conversations.get(conversationId)?.revision;
};

const creation: Omit<NewGroupKindRules, 'decide'> = {
  scope: 'new-group',
  authority: ['creator'],
  target: () => 0,
  conversationOf: (_state, command) => command.payload['mainConversationId'] as string | undefined,
};

const amendment = {
  scope: 'group',
  target: amendedConversationRevision,
  conversationOf: messageConversation,
} as const;

export const COMMAND_RULES: Readonly<Record<string, KindRules>> = {
  'mission.create': { ...creation, decide: decideMissionCreate },
  'mission.create_follow_up': { ...creation, decide: decideFollowUpCreate },
  'mission.create_child': {
    scope: 'group',
    authority: ['coordinator'],
    missionStates: ['active'],
    target: (state, command) => state.workItems.get(text(command, 'parentWorkItemId'))?.revision,
    workItemOf: (_state, command) => text(command, 'parentWorkItemId'),
    decide: decideCreateChild,
  },
  'mission.assign_coordinator': {
    scope: 'group',
    authority: ['mission-owner', 'organization-authority'],
    target: missionRevision,
    decide: decideAssignCoordinator,
  },
  'mission.renew_coordinator': {
    scope: 'group',
    authority: ['coordinator'],
    target: (state) => leaseRevision(state.coordinatorLease),
    decide: decideRenewCoordinator,
  },
  'mission.submit_for_approval': {
    scope: 'group',
    authority: ['coordinator'],
    missionStates: ['active'],
    target: missionRevision,
    decide: decideSubmitForApproval,
  },
  'mission.request_changes': {
    scope: 'group',
    authority: ['mission-owner'],
    missionStates: ['awaiting_approval'],
    target: missionRevision,
    decide: decideRequestChanges,
  },
  'mission.approve': {
    scope: 'group',
    authority: ['mission-owner'],
    missionStates: ['awaiting_approval'],
    target: missionRevision,
    decide: decideApprove,
  },
  'mission.cancel': {
    scope: 'group',
    authority: ['mission-owner', 'organization-authority'],
    target: missionRevision,
    decide: decideCancel,
  },
  'mission.terminate': {
    scope: 'group',
    authority: ['coordinator', 'organization-authority'],
    target: missionRevision,
    decide: decideTerminate,
  },
  'membership.change': {
    scope: 'group',
    authority: ['mission-owner', 'coordinator'],
    target: (state, command) => membershipOf(state, principalOf(command))?.membershipEpoch ?? 0,
    decide: decideMembershipChange,
  },
  'membership.end': {
    scope: 'group',
    authority: ['mission-owner', 'coordinator', 'subject'],
    subject: principalOf,
    target: (state, command) => membershipOf(state, principalOf(command))?.membershipEpoch,
    decide: decideMembershipEnd,
  },
  'message.post': {
    scope: 'group',
    authority: ['member'],
    target: (state, command) => state.conversations.get(text(command, 'conversationId'))?.revision,
    conversationOf: (_state, command) => text(command, 'conversationId'),
    decide: decideMessagePost,
  },
  'message.correct': { ...amendment, authority: ['member'], decide: decideMessageCorrect },
  'message.retract': { ...amendment, authority: ['member'], decide: decideMessageRetract },
  'message.redact': { ...amendment, authority: ['mission-owner', 'coordinator'], decide: decideMessageRedact },
  'work.authorize': {
    scope: 'group',
    authority: ['coordinator'],
    missionStates: ['active'],
    target: (state, command) => state.workItems.get(text(command, 'workItemId'))?.revision ?? 0,
    workItemOf: (_state, command) => text(command, 'workItemId'),
    conversationOf: (_state, command) => command.payload['conversationId'] as string | undefined,
    decide: decideWorkAuthorize,
  },
};

export function rulesOf(kind: string): KindRules | undefined {
  return Object.hasOwn(COMMAND_RULES, kind) ? COMMAND_RULES[kind] : undefined;
}
