/**
 * The Events the domain tests expect, stated as data: what a created Mission, a new Membership,
 * an authorized or promoted WorkItem look like in the deterministic test world (fixed `T0`,
 * identifiers `urn:test:id:when-1`, …). Built from the Command's payload and the state before,
 * never by the deciders' own document builders, so a change in what a decider records shows.
 */

import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { Principal } from '../../src/protocol/principal.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import type { ExpectedEvent } from '../support/specification.js';
import { WORK_LEASES_EXTENSION as WORK_LEASES } from '../../src/domain/workItem/workLeases.js';
import { RESOURCE_USAGE_EXTENSION as RESOURCE_USAGE } from '../../src/domain/workItem/usageAccount.js';
import {
  COORD,
  COORD2,
  CREATE_PAYLOAD,
  GROUP,
  MISSION,
  OWNER,
  T0,
  WORLD,
  at,
  CONTRACT,
} from './fixtures.js';
import { workItemIn } from './workDocuments.js';

/**
 * The scopes each role's Membership lists when the Command names none, as the tests expect them
 * (stated here, not taken from the decider, so a change to them shows).
 */
export const ROLE_SCOPES = {
  mission_owner: ['group:read', 'message:post', 'mission:approve', 'mission:cancel', 'membership:manage'],
  coordinator: ['group:read', 'message:post', 'mission:coordinate', 'work:authorize', 'membership:manage'],
  worker: ['group:read', 'message:post', 'work:propose', 'work:execute'],
  reviewer: ['group:read', 'message:post', 'work:review'],
  observer: ['group:read'],
} as const;

/** A new active Membership at epoch 1, granted at `now` (default `T0`). */
export function expectedMembership(membershipId: string, member: Principal, role: keyof typeof ROLE_SCOPES, extra: object = {}, now = T0): JsonObject {
  return {
    membershipId,
    missionId: MISSION,
    groupId: GROUP,
    member,
    role,
    state: 'active',
    membershipEpoch: 1,
    scopes: [...ROLE_SCOPES[role]],
    visibilityStartSequence: 0,
    grantedAt: now,
    activatedAt: now,
    ...extra,
  } as unknown as JsonObject;
}

/** The members of a creating Command's payload the created Events repeat. */
export interface CreationInput {
  readonly missionId: string;
  readonly groupId: string;
  readonly title: string;
  readonly objective: string;
  readonly definitionOfDone: object[];
  readonly budget: object;
  readonly deadline: string;
  readonly permissions?: string[];
  readonly mainConversationId?: string;
  readonly coordinatorLeaseSeconds?: number;
  readonly approvalPolicy?: object;
}

export interface ExpectedCreation {
  /** The prefix of the decision's identifiers and the first one the creation takes. */
  readonly ids?: string;
  readonly firstId?: number;
  readonly payload?: CreationInput;
  readonly owner?: Principal;
  readonly coordinator?: Principal;
  readonly approvalPolicy?: object;
  readonly agentCardVersion?: number;
  readonly followUpOfMissionId?: string;
  /** A child Mission: its link to the parent and the parent Group's Event it names. */
  readonly child?: { readonly parent: object; readonly parentEventId: string };
}

/**
 * The `mission.created` (or `mission.follow_up.created`) payload the tests expect, stated member
 * by member from the Command's payload (default `CREATE_PAYLOAD`: Mission m1 in Group g1 owned by
 * dana, coordinated by coord-1). Identifiers are taken in the order lease, Conversation (when
 * the payload names none), MissionOwner's Membership, Coordinator's; the lease defaults to 300 s.
 */
export function expectedCreatedPayload(spec: ExpectedCreation = {}): JsonObject {
  const p = spec.payload ?? CREATE_PAYLOAD;
  const id = (n: number) => `${spec.ids ?? WORLD.idPrefix}${(spec.firstId ?? 1) + n}`;
  const conversationId = p.mainConversationId ?? id(1);
  const next = p.mainConversationId === undefined ? 2 : 1;
  const owner = spec.owner ?? OWNER;
  const coordinator = spec.coordinator ?? COORD;
  const group = { missionId: p.missionId, groupId: p.groupId };
  return {
    mission: {
      ...group,
      revision: 1,
      objective: p.objective,
      definitionOfDone: p.definitionOfDone,
      missionOwner: owner,
      coordinator: { agentId: coordinator.id, agentCardVersion: spec.agentCardVersion ?? 3, coordinatorEpoch: 1, leaseId: id(0) },
      state: 'active',
      budget: p.budget,
      deadline: p.deadline,
      approvalPolicy: spec.approvalPolicy ?? p.approvalPolicy,
      ...(spec.child === undefined ? {} : { parent: spec.child.parent }),
      ...(spec.followUpOfMissionId === undefined ? {} : { followUpToMissionId: spec.followUpOfMissionId }),
      createdAt: T0,
    },
    group: { ...group, state: 'active', mainConversationId: conversationId, createdAt: T0 },
    conversation: {
      conversationId,
      ...group,
      type: 'group',
      title: p.title,
      access: { mode: 'group' },
      createdBy: owner,
      createdAt: T0,
      state: 'active',
      revision: 0,
    },
    memberships: [
      expectedMembership(id(next), owner, 'mission_owner', group),
      expectedMembership(id(next + 1), coordinator, 'coordinator', group),
    ],
    coordinatorLease: {
      leaseId: id(0),
      leaseType: 'coordinator',
      ...group,
      holderAgentId: coordinator.id,
      sessionEpoch: 1,
      coordinatorEpoch: 1,
      issuedAt: T0,
      startsAt: T0,
      expiresAt: at(p.coordinatorLeaseSeconds ?? 300),
      state: 'active',
      renewalCount: 0,
    },
    title: p.title,
    permissions: p.permissions ?? [],
    ...(spec.child === undefined
      ? { followUpOfMissionId: spec.followUpOfMissionId ?? null }
      : { parentEventId: spec.child.parentEventId }),
  } as unknown as JsonObject;
}

/** Our WorkItem links extension (parent WorkItem, child Mission), as the tests expect it named. */
const WORK_LINKS = 'urn:missionweave:extension:work-item-links';

/** A `mission.create_child` payload as far as the created Events repeat it. */
export type ChildInput = CreationInput & { readonly parentWorkItemId: string; readonly failurePolicy?: string };

/** The child approval policy: the owner is an Agent, the parent's execution-risk policy stays. */
export const CHILD_POLICY = { finalHumanApproval: false, highRiskExecutionApproval: true, policyVersion: '2.0.1' };

/** The policy rule a promotion's selection basis names. */
export const PROMOTION_RULE = '§14 child-mission promotion: the Parent Coordinator owns the WorkItem as child MissionOwner';

/** Seconds from `T0` to `deadline` (the promoted WorkItem's blocked lease runs to the child deadline). */
function secondsFromT0(deadline: string): number {
  return Math.floor(Date.parse(deadline) / 1000) - Math.floor(Date.parse(T0) / 1000);
}

/**
 * The two Events promoting `from`'s WorkItem `payload.parentWorkItemId` to the child Mission of
 * `payload`: the parent WorkItem at its next revision, `blocked`, owned by coord-1 (or `owner`)
 * under the next Ownership Epoch with a `blocked` lease to the child deadline, its earlier leases
 * revoked, with `change` and the child link; then the child Group's `mission.created` (IDs from
 * `when-1`; the lease takes the ID after the child's).
 */
export function expectedPromotion(
  from: GroupState,
  payload: ChildInput,
  change: object = {},
  owner: Principal = COORD,
  coordinator: Principal = COORD2,
  fenced: { readonly epoch?: number; readonly revokedLeases?: object[]; readonly leases?: object } = {},
): [ExpectedEvent & { payload: JsonObject }, ExpectedEvent & { payload: JsonObject }] {
  const item = workItemIn(from, payload.parentWorkItemId);
  const link = { missionId: payload.missionId, groupId: payload.groupId, failurePolicy: payload.failurePolicy ?? 'block_parent_work_item' };
  const epoch = fenced.epoch ?? 1;
  const leaseId = `${WORLD.idPrefix}${payload.mainConversationId === undefined ? 6 : 5}`;
  const ownershipLease = {
    leaseId,
    leaseType: 'blocked',
    missionId: item.missionId,
    groupId: item.groupId,
    workItemId: item.workItemId,
    holderAgentId: owner.id,
    sessionEpoch: 1,
    ownershipEpoch: epoch,
    issuedAt: T0,
    startsAt: T0,
    expiresAt: at(secondsFromT0(payload.deadline)),
    state: 'active',
    renewalCount: 0,
  };
  const required = item.contract.requiredCapabilities;
  const workItem = {
    ...item,
    revision: item.revision + 1,
    state: 'blocked',
    updatedAt: T0,
    ...change,
    owner: { agentId: owner.id, agentCardVersion: 3, capabilityPins: required, ownershipEpoch: epoch, ownershipLeaseId: leaseId, acceptedAt: T0 },
    selectionBasis: {
      requiredCapabilities: required,
      verifiedMatches: required,
      authorizationEligible: true,
      availabilityEstimate: T0,
      expectedCost: item.contract.budget.financialLimit ?? 0,
      reliabilityEvidence: [],
      policyRulesApplied: [PROMOTION_RULE],
    },
    progress: {
      currentPhase: 'child_mission',
      completedMilestones: [],
      nextCheckpoint: 'child Mission outcome',
      blockers: [`child Mission ${payload.missionId} is running`],
      updatedCompletionEstimate: payload.deadline,
      evidenceIds: [],
    },
    extensions: {
      ...item.extensions,
      [WORK_LINKS]: { version: '0.1.0', critical: false, data: { childMission: link } },
      [WORK_LEASES]: { version: '0.1.0', critical: false, data: { ...fenced.leases, ownership: ownershipLease, lastOwnershipEpoch: epoch } },
      // The child's budget is allocated from the parent WorkItem (§12): recorded on its account.
      [RESOURCE_USAGE]: { version: '0.1.0', critical: false, data: { childBudget: payload.budget } },
    },
  };
  const parentEventId = 'urn:test:id:when-1';
  const parent = { missionId: from.mission.missionId, workItemId: item.workItemId, depth: (from.mission.parent?.depth ?? 0) + 1 };
  return [
    {
      kind: 'mission.child.created',
      payload: {
        parentMissionId: from.mission.missionId,
        parentWorkItemId: item.workItemId,
        childMissionId: payload.missionId,
        childGroupId: payload.groupId,
        workItem,
        ownershipLease,
        revokedLeases: fenced.revokedLeases ?? [],
      } as unknown as JsonObject,
      aggregate: { type: 'work-item', id: item.workItemId, revision: item.revision + 1 },
      workItemId: item.workItemId,
      eventId: parentEventId,
    },
    {
      kind: 'mission.created',
      payload: expectedCreatedPayload({ payload, firstId: 2, owner, coordinator, approvalPolicy: CHILD_POLICY, child: { parent, parentEventId } }),
      aggregate: { type: 'mission', id: payload.missionId, revision: 1 },
      groupId: payload.groupId,
    },
  ];
}

/** `work.authorized` of `workItemId` by coord-1 with its dedicated Conversation, stated whole. */
export function expectedAuthorized(
  workItemId: string,
  conversationId: string,
  extra: { exclusive?: boolean; contract?: Omit<typeof CONTRACT, 'dependencyWorkItemIds'> & { dependencyWorkItemIds: string[] }; links?: object } = {},
): ExpectedEvent {
  const contract = extra.contract ?? CONTRACT;
  const workItem = {
    workItemId,
    missionId: MISSION,
    groupId: GROUP,
    conversationId,
    revision: 1,
    state: 'open',
    exclusive: extra.exclusive ?? true,
    contract,
    createdBy: COORD,
    authorizedBy: COORD,
    createdAt: T0,
    ...(extra.links === undefined ? {} : { extensions: { [WORK_LINKS]: { version: '0.1.0', critical: false, data: extra.links } } }),
  };
  const conversation = {
    conversationId,
    missionId: MISSION,
    groupId: GROUP,
    type: 'work_item',
    primaryWorkItemId: workItemId,
    title: contract.goal,
    access: { mode: 'group' },
    createdBy: COORD,
    createdAt: T0,
    state: 'active',
    revision: 0,
  };
  return {
    kind: 'work.authorized',
    payload: { workItem, conversation, proposalId: null },
    aggregate: { type: 'work-item', id: workItemId, revision: 1 },
    workItemId,
    conversationId,
  };
}

/** What the store says of an approved child Mission of w1: its Approval and Artifact set. */
export interface ApprovedChild {
  readonly missionId: string;
  readonly groupId: string;
  readonly approvalId: string;
  readonly artifactHashes: readonly string[];
}

/**
 * `work.result.accepted` settling `child`'s approval on `from`'s WorkItem `workItemId`: verified,
 * the Approval its Evidence and Artifact set, the blocked lease released, the link settled.
 */
export function expectedChildApproved(from: GroupState, workItemId: string, child: ApprovedChild): ExpectedEvent {
  const item = workItemIn(from, workItemId);
  const extensions = item.extensions as Record<string, { data: Record<string, unknown> }>;
  const link = extensions[WORK_LINKS]!.data['childMission'] as object;
  const lease = extensions[WORK_LEASES]!.data['ownership'] as object;
  const lastOwnershipEpoch = extensions[WORK_LEASES]!.data['lastOwnershipEpoch'];
  const outcome = { state: 'approved', settledAt: T0, approvalId: child.approvalId };
  const workItem = {
    ...item,
    revision: item.revision + 1,
    state: 'verified',
    submission: { artifactHashes: child.artifactHashes, evidenceIds: [child.approvalId], submittedAt: T0 },
    progress: { ...item.progress, currentPhase: 'verified', blockers: [], evidenceIds: [child.approvalId] },
    updatedAt: T0,
    extensions: {
      ...item.extensions,
      [WORK_LEASES]: { version: '0.1.0', critical: false, data: { lastOwnershipEpoch } },
      [WORK_LINKS]: { version: '0.1.0', critical: false, data: { childMission: { ...link, outcome } } },
    },
  };
  return {
    kind: 'work.result.accepted',
    payload: {
      workItemId,
      workItem,
      evidence: [{ kind: 'child_mission_approval', childMissionId: child.missionId, approvalId: child.approvalId, artifactHashes: child.artifactHashes }],
      childApprovalId: child.approvalId,
      releasedOwnershipLease: { ...lease, state: 'released', closedAt: T0, closureReason: 'child Mission approved' },
      childMissionId: child.missionId,
      childGroupId: child.groupId,
      outcome,
    },
    aggregate: { type: 'work-item', id: workItemId, revision: item.revision + 1 },
  };
}
