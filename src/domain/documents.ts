/**
 * The normative protocol objects the deciders build and keep (`schemas/*.schema.json`), as
 * TypeScript types. State and Event payloads hold exactly these documents, so every member here
 * is one the schema defines and every optional member is omitted, never `undefined`.
 *
 * They cross into `JsonObject` (Event payloads, store rows) only through `toJson` / `fromJson`:
 * readonly arrays and interfaces do not fit the mutable JSON index-signature types, and the
 * documents are ours, checked against the schemas by the domain tests.
 */

import type { Principal } from '../protocol/principal.js';
import type { MissionWeaveWorkContract } from '../protocol/schemas/payloadTypes.js';
import type { JsonObject, JsonValue } from '../protocol/strictJson.js';

export type { Principal };

export interface Budget {
  readonly currency?: string;
  readonly financialLimit?: number;
  readonly modelTokenLimit?: number;
  readonly toolCallLimit?: number;
  readonly computeSecondsLimit?: number;
  readonly wallClockSecondsLimit?: number;
  readonly externalSideEffectLimit?: number;
}

export interface AcceptanceCriterion {
  readonly criterionId: string;
  readonly description: string;
  readonly evidenceRequired: readonly string[];
}

export interface ApprovalPolicy {
  readonly finalHumanApproval: boolean;
  readonly highRiskExecutionApproval: boolean;
  readonly policyVersion?: string;
}

export const TERMINAL_MISSION_STATES = ['approved', 'cancelled', 'failed'] as const;
export type MissionState = 'active' | 'awaiting_approval' | (typeof TERMINAL_MISSION_STATES)[number];

export interface Mission {
  readonly missionId: string;
  readonly groupId: string;
  readonly revision: number;
  readonly objective: string;
  readonly definitionOfDone: readonly AcceptanceCriterion[];
  readonly missionOwner: Principal;
  readonly coordinator: {
    readonly agentId: string;
    readonly agentCardVersion: number;
    readonly coordinatorEpoch: number;
    readonly leaseId: string;
  };
  readonly state: MissionState;
  readonly budget: Budget;
  readonly deadline: string;
  readonly approvalPolicy: ApprovalPolicy;
  readonly parent?: { readonly missionId: string; readonly workItemId: string; readonly depth: number };
  readonly followUpToMissionId?: string;
  /** The Extension Profile major versions the Group uses (§18); absent: none. */
  readonly pinnedProfiles?: readonly ProfilePin[];
  readonly createdAt: string;
}

/** One Extension Profile major version a Group pinned (§18, `mission#/pinnedProfiles`). */
export interface ProfilePin {
  readonly profileUri: string;
  readonly majorVersion: number;
}

export interface Group {
  readonly groupId: string;
  readonly missionId: string;
  readonly state: 'active' | 'archived';
  readonly mainConversationId: string;
  readonly createdAt: string;
  /** Set together when the Group is archived (§7.4). */
  readonly archivedAt?: string;
  readonly archiveSnapshotId?: string;
}

export interface Lease {
  readonly leaseId: string;
  readonly leaseType: 'coordinator' | 'ownership' | 'execution' | 'blocked';
  readonly missionId: string;
  readonly groupId: string;
  readonly workItemId?: string;
  readonly holderAgentId: string;
  readonly sessionEpoch: number;
  readonly coordinatorEpoch?: number;
  readonly ownershipEpoch?: number;
  /** An ownership grant's start-by deadline (§11.3). */
  readonly startBy?: string;
  readonly issuedAt: string;
  readonly startsAt: string;
  readonly expiresAt: string;
  readonly graceExpiresAt?: string;
  readonly state: 'active' | 'expired' | 'revoked' | 'released';
  readonly renewalCount: number;
  readonly lastRenewedAt?: string;
  readonly closedAt?: string;
  readonly closureReason?: string;
}

export type MembershipRole = 'mission_owner' | 'coordinator' | 'worker' | 'reviewer' | 'observer' | 'work_delegate';

export interface Membership {
  readonly membershipId: string;
  readonly missionId: string;
  readonly groupId: string;
  readonly member: Principal;
  readonly role: MembershipRole;
  readonly state: 'provisional' | 'active' | 'ended';
  readonly membershipEpoch: number;
  readonly scopes: readonly string[];
  readonly visibilityStartSequence: number;
  readonly contextPackageId?: string;
  readonly provisionalExpiresAt?: string;
  readonly grantedAt: string;
  readonly activatedAt?: string;
  readonly endedAt?: string;
}

export interface Conversation {
  readonly conversationId: string;
  readonly missionId: string;
  readonly groupId: string;
  readonly type: 'group' | 'work_item' | 'review' | 'restricted';
  readonly primaryWorkItemId?: string;
  readonly title: string;
  readonly access: { readonly mode: 'group' | 'restricted'; readonly members?: readonly Principal[] };
  readonly createdBy: Principal;
  readonly createdAt: string;
  readonly state: 'active' | 'closed';
  readonly revision: number;
}

export type ContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'artifact_ref'; readonly artifactHash: string }
  | { readonly type: 'data_ref'; readonly schema: string; readonly data: JsonValue };

export interface Message {
  readonly messageId: string;
  readonly missionId: string;
  readonly groupId: string;
  readonly conversationId: string;
  readonly author: Principal;
  readonly kind: 'message' | 'correction' | 'retraction' | 'redaction';
  readonly authority: false;
  readonly targetMessageId?: string;
  readonly content: readonly ContentPart[];
  readonly mentions?: readonly Principal[];
  readonly references?: readonly string[];
  readonly reason?: string;
  readonly committedAt: string;
}

/** The normative Work Contract; the domain reads only the members named here. */
/** The Work Contract (§10.1), as its schema types it: one source for its shape. */
export type WorkContract = MissionWeaveWorkContract;

export interface Extension {
  readonly version: string;
  readonly critical: boolean;
  readonly data: JsonValue;
}

export type WorkItemState =
  | 'open'
  | 'offered'
  | 'queued'
  | 'active'
  | 'blocked'
  | 'submitted'
  | 'verified'
  | 'failed'
  | 'cancelled';

export interface WorkOffer {
  readonly offerId: string;
  readonly agentId: string;
  readonly agentCardVersion: number;
  readonly expiresAt: string;
  readonly status: 'pending' | 'accepted' | 'declined' | 'withdrawn' | 'expired' | 'lost_race';
}

/** A capability and the version pinned or required (`common#/$defs/capabilityRef`). */
export interface CapabilityRef {
  readonly id: string;
  readonly version: string;
}

/** Who owns a WorkItem, under which Ownership Epoch and ownership lease (§10.3, §11.3). */
export interface WorkOwner {
  readonly agentId: string;
  readonly agentCardVersion: number;
  readonly capabilityPins: readonly CapabilityRef[];
  readonly ownershipEpoch: number;
  readonly ownershipLeaseId: string;
  readonly acceptedAt: string;
}

/** The structured basis of an assignment (§10.3); no private chain-of-thought. */
export interface SelectionBasis {
  readonly requiredCapabilities: readonly CapabilityRef[];
  readonly verifiedMatches: readonly CapabilityRef[];
  readonly authorizationEligible: boolean;
  readonly availabilityEstimate: string;
  readonly expectedCost: number;
  readonly reliabilityEvidence: readonly string[];
  readonly policyRulesApplied: readonly string[];
}

/** Structured progress (§11.4): phase, milestones, next checkpoint, blockers, estimate, Evidence. */
export interface WorkProgress {
  readonly currentPhase: string;
  readonly completedMilestones: readonly string[];
  readonly nextCheckpoint: string;
  readonly blockers: readonly string[];
  readonly updatedCompletionEstimate: string;
  readonly evidenceIds: readonly string[];
}

export interface WorkSubmission {
  readonly artifactHashes: readonly string[];
  readonly evidenceIds: readonly string[];
  readonly submittedAt: string;
}

export interface WorkItem {
  readonly workItemId: string;
  readonly missionId: string;
  readonly groupId: string;
  readonly conversationId: string;
  readonly revision: number;
  readonly state: WorkItemState;
  readonly exclusive: boolean;
  readonly contract: WorkContract;
  readonly offers?: readonly WorkOffer[];
  /** Present once an Agent owns the WorkItem (§10.3, §11.3); required from `queued` on. */
  readonly owner?: WorkOwner;
  readonly selectionBasis?: SelectionBasis;
  readonly scheduleEstimate?: JsonObject;
  readonly progress?: WorkProgress;
  readonly submission?: WorkSubmission;
  readonly createdBy: Principal;
  readonly authorizedBy?: Principal;
  readonly createdAt: string;
  readonly updatedAt?: string;
  readonly extensions?: Readonly<Record<string, Extension>>;
}

/**
 * The members the work slice keeps beside a WorkItem document as typed fields
 * (`workItem/workRecord.ts`); on the wire they are extensions of the WorkItem.
 */
export type WorkRecordFieldName = 'leases' | 'account' | 'links' | 'capabilityGrants' | 'approvals' | 'cleanup';

/**
 * A WorkItem document as it travels and is stored. A work slice record passed where a document
 * is expected does not compile, so no typed field reaches the wire by mistake.
 */
export type WorkItemDocument = WorkItem & { readonly [F in WorkRecordFieldName]?: never };

export interface Approval {
  readonly approvalId: string;
  readonly kind: 'mission_final' | 'child_mission' | 'work_execution';
  readonly decision: 'approved' | 'changes_requested' | 'denied' | 'revoked';
  readonly missionId: string;
  readonly groupId: string;
  readonly missionRevision: number;
  readonly artifactHashes: readonly string[];
  readonly acceptancePolicyVersion: string;
  readonly approver: Principal;
  readonly comments: string;
  readonly conditions: readonly string[];
  readonly occurredAt: string;
  readonly signature: { readonly algorithm: 'Ed25519'; readonly keyId: string; readonly createdAt: string; readonly value: string };
}

/** A document as the JSON object it is on the wire and in the store. */
export function toJson(document: object): JsonObject {
  return document as JsonObject;
}

/**
 * Reads a document or payload the domain itself produced (an Event payload, a store row). The
 * schemas, not this cast, are what guarantee the shape: payloads are schema-valid on arrival.
 */
export function fromJson<T>(value: JsonValue | undefined): T {
  return value as unknown as T;
}

