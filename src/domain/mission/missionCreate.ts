/** `mission.create` (§7.1): a human founds a Mission and its Group; `mission.created` is sequence 1. */

import { principalKey } from '../../protocol/principal.js';
import type { MissionCreatedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import type { ApprovalPolicy } from '../documents.js';
import { activeAgent } from '../stateQueries.js';
import { accept, refuse, type AgentFacts, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { isAfterNow } from '../rules.js';
import { newMissionGroup, type CreationPayload } from './newMission.js';
import { checkRegisteredPins } from '../group/profilePins.js';
import { MISSION_REASONS } from './missionReasons.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';

/**
 * `mission.create` and `mission.create_follow_up` (§7.1): a human founds a Mission, and with it a
 * new Group whose first Event this is. A follow-up links to an approved Mission of the same
 * owner; corrections never reopen an approved Mission.
 */

/** The Organization default: a human approves the result and every high-risk execution. */
const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = { finalHumanApproval: true, highRiskExecutionApproval: true };

/**
 * The checks every Mission creation shares: fresh Group and Mission IDs, a Coordinator with an
 * active Agent Card, a deadline still ahead. Returns the Coordinator's facts, or the refusal.
 */
export function checkNewMission(
  payload: CreationPayload,
  groupTaken: boolean,
  ctx: DecisionContext,
): Refusal | AgentFacts {
  if (groupTaken || ctx.groupExists(payload.groupId)) {
    return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.groupIdTaken, 'the Group ID is already in use');
  }
  if (ctx.mission(payload.missionId) !== undefined) {
    return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.missionIdTaken, 'the Mission ID is already in use');
  }
  const coordinator = activeAgent(ctx, payload.coordinatorId);
  if (coordinator === undefined) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.coordinatorCardInactive, 'the Coordinator has no active Agent Card');
  }
  if (!isAfterNow(payload.deadline, ctx)) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.deadlinePassed, 'the Mission deadline must lie in the future');
  }
  return coordinator;
}

type CreateCommand = CommandOf<'mission.create'> | CommandOf<'mission.create_follow_up'>;

/**
 * A Mission creation emitted as `eventKind`. A follow-up (`missionCreateFollowUp.ts`) passes
 * `followUpSource`, which checks the Mission it follows up and returns its ID, or the refusal.
 */
export function createMission<K extends string>(
  state: GroupState | null,
  command: CreateCommand,
  ctx: DecisionContext,
  eventKind: K,
  followUpSource?: () => Refusal | string,
): Decision<EventDraft<K, MissionCreatedPayload>> {
  const { payload } = command;
  if (command.groupId !== payload.groupId) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.groupIdMismatch, 'the envelope and payload name different Groups');
  }
  const coordinator = checkNewMission(payload, state !== null, ctx);
  if ('ok' in coordinator) return coordinator;
  const pins = 'pinnedProfiles' in payload ? checkRegisteredPins(payload.pinnedProfiles ?? [], ctx) : null;
  if (pins !== null) return pins;
  const followUpToMissionId = followUpSource?.();
  if (followUpToMissionId !== undefined && typeof followUpToMissionId !== 'string') return followUpToMissionId;
  const created = newMissionGroup(
    {
      payload,
      owner: command.actor,
      coordinator,
      approvalPolicy: payload.approvalPolicy ?? DEFAULT_APPROVAL_POLICY,
      ...(followUpToMissionId === undefined ? {} : { followUpToMissionId }),
    },
    ctx,
  );
  return accept({
    kind: eventKind,
    payload: { ...created, followUpOfMissionId: followUpToMissionId ?? null },
    aggregate: { type: 'mission', id: created.mission.missionId, revision: created.mission.revision },
  });
}

export function decideMissionCreate(state: GroupState | null, command: CommandOf<'mission.create'>, ctx: DecisionContext) {
  return createMission(state, command, ctx, 'mission.created');
}

/** A new Group's state from its founding Event alone. */
export function foundGroup(payload: MissionCreatedPayload, sequence: number): GroupState {
  return {
    groupId: payload.group.groupId,
    lastSequence: sequence,
    group: payload.group,
    mission: payload.mission,
    missionNotes: { title: payload.title, permissions: payload.permissions },
    coordinatorLease: payload.coordinatorLease,
    formerCoordinatorLeases: new Map(),
    memberships: new Map(payload.memberships.map((m) => [principalKey(m.member), m])),
    conversations: new Map([[payload.conversation.conversationId, payload.conversation]]),
    messages: new Map(),
    workItems: new Map(),
    proposals: new Map(),
    delegationGrants: new Map(),
    extensions: new Map(),
    artifacts: new Map(),
    cooperationGrants: new Map(),
    rateWindows: new Map(),
  };
}

export const missionCreated = defineEvent<MissionCreatedPayload>()({
  kind: 'mission.created',
  addressees: workAddressees,
  founds: true,
  found: (payload, meta) => foundGroup(payload, meta.sequence),
});

export const missionCreate = defineKind({
  kind: 'mission.create',
  examples: MISSION_EXAMPLES['mission.create'],
  scope: 'new-group',
  authority: ['creator'],
  events: [missionCreated],
  creates: (command) => ({ groupId: command.payload.groupId, missionId: command.payload.missionId }),
  preload: {
    agents: (command) => [command.payload.coordinatorId],
    missions: (command) => [command.payload.missionId],
    profiles: (command) => (command.payload.pinnedProfiles ?? []).map((p) => p.profileUri),
  },
  target: () => 0,
  conversationOf: (_state, command) => command.payload.mainConversationId,
  decide: decideMissionCreate,
});
