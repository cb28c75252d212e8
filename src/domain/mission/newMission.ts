/**
 * What creating a Mission brings into being, whichever Command creates it (§7.1, §14): the
 * Mission, its Group, its Group-level Conversation, the MissionOwner's and the Coordinator's
 * Memberships and the first Coordinator lease.
 */

import type { MissionCreateChildPayload, MissionCreateFollowUpPayload, MissionCreatePayload } from '../../protocol/schemas/payloadTypes.js';
import type { ApprovalPolicy, Lease, Mission, Principal } from '../documents.js';
import type { MissionCreatedPayload } from '../groupEvents.js';
import type { AgentFacts, DecisionContext } from '../model.js';
import { newConversation } from '../conversations.js';
import { FULL_VISIBILITY, grantMembership } from '../membership/membershipDocuments.js';
import { DEFAULT_LEASE_SECONDS, nowPlusSeconds } from '../rules.js';

/** The payloads that create a Mission; they share the members read here (§7.1, §14). */
export type CreationPayload = MissionCreatePayload | MissionCreateFollowUpPayload | MissionCreateChildPayload;

export interface NewMission {
  readonly payload: CreationPayload;
  readonly owner: Principal;
  readonly coordinator: AgentFacts;
  readonly approvalPolicy: ApprovalPolicy;
  readonly parent?: Mission['parent'];
  readonly followUpToMissionId?: string;
}

/** A Coordinator lease of `epoch`, bound to the holder's current session (§7.2). */
export function coordinatorLease(
  mission: Pick<Mission, 'missionId' | 'groupId'>,
  leaseId: string,
  holder: AgentFacts,
  coordinatorEpoch: number,
  leaseSeconds: number,
  ctx: DecisionContext,
): Lease {
  return {
    leaseId,
    leaseType: 'coordinator',
    missionId: mission.missionId,
    groupId: mission.groupId,
    holderAgentId: holder.agentId,
    // An Agent that never opened a session is bound to the first one it will open.
    sessionEpoch: holder.sessionEpoch ?? 1,
    coordinatorEpoch,
    issuedAt: ctx.now,
    startsAt: ctx.now,
    expiresAt: nowPlusSeconds(ctx, leaseSeconds),
    state: 'active',
    renewalCount: 0,
  };
}

/** The payload of the new Group's first Event, without the kind-specific link members. */
export function newMissionGroup(spec: NewMission, ctx: DecisionContext): MissionCreatedPayload {
  const { payload, owner, coordinator } = spec;
  const ids = { missionId: payload.missionId, groupId: payload.groupId };
  const leaseId = ctx.newId();
  const mission: Mission = {
    ...ids,
    revision: 1,
    objective: payload.objective,
    definitionOfDone: payload.definitionOfDone,
    missionOwner: { type: owner.type, id: owner.id },
    coordinator: {
      agentId: coordinator.agentId,
      agentCardVersion: coordinator.cardVersion,
      coordinatorEpoch: 1,
      leaseId,
    },
    state: 'active',
    budget: payload.budget,
    deadline: payload.deadline,
    approvalPolicy: spec.approvalPolicy,
    ...(spec.parent === undefined ? {} : { parent: spec.parent }),
    ...(spec.followUpToMissionId === undefined ? {} : { followUpToMissionId: spec.followUpToMissionId }),
    ...('pinnedProfiles' in payload && payload.pinnedProfiles !== undefined && payload.pinnedProfiles.length > 0 ? { pinnedProfiles: payload.pinnedProfiles } : {}),
    createdAt: ctx.now,
  };
  const conversationId = payload.mainConversationId ?? ctx.newId();
  const conversation = newConversation(ids, conversationId, { type: 'group' }, payload.title, owner, ctx);
  const full = { visibilityStartSequence: FULL_VISIBILITY };
  const memberships = [
    grantMembership(ids, owner, undefined, { role: 'mission_owner', ...full }, ctx),
    grantMembership(ids, { type: 'agent', id: coordinator.agentId }, undefined, { role: 'coordinator', ...full }, ctx),
  ];
  const leaseSeconds = payload.coordinatorLeaseSeconds ?? DEFAULT_LEASE_SECONDS;
  return {
    mission,
    group: { ...ids, state: 'active', mainConversationId: conversationId, createdAt: ctx.now },
    conversation,
    memberships,
    coordinatorLease: coordinatorLease(mission, leaseId, coordinator, 1, leaseSeconds, ctx),
    title: payload.title,
    permissions: [...(payload.permissions ?? [])],
  };
}
