/**
 * Wire types of the protocol objects (Command, Event, error, WebSocket frames and the normative
 * objects), generated from schemas/*.schema.json by scripts/generateWireTypes.mjs.
 * Do not edit: change the schema and run `npm run generate:types`.
 */

import type {JsonObject, JsonValue} from "../jsonValue.js";

export type MissionWeaveApprovalDecision = {
  approvalId: string;
  kind: "mission_final" | "child_mission" | "work_execution";
  decision: "approved" | "changes_requested" | "denied" | "revoked";
  missionId: string;
  groupId: string;
  workItemId?: string;
  missionRevision: number;
  /**
   * @maxItems 1000
   */
  artifactHashes: string[];
  acceptancePolicyVersion: string;
  approver: Principal;
  comments: string;
  /**
   * @maxItems 256
   */
  conditions: string[];
  revokesApprovalId?: string;
  occurredAt: string;
  signature: Signature;
};
export type MissionWeaveCommand = {
  protocolVersion: "0.1";
  actionId: string;
  actor: Principal;
  kind:
    | (
        | "mission.create"
        | "mission.assign_coordinator"
        | "mission.renew_coordinator"
        | "mission.submit_for_approval"
        | "mission.approve"
        | "mission.request_changes"
        | "mission.cancel"
        | "mission.terminate"
        | "mission.create_child"
        | "mission.create_follow_up"
        | "membership.change"
        | "membership.end"
        | "membership.grant_delegation"
        | "message.post"
        | "message.correct"
        | "message.retract"
        | "message.redact"
        | "work.propose"
        | "work.authorize"
        | "work.offer"
        | "work.accept_offer"
        | "work.start"
        | "work.checkpoint"
        | "work.block"
        | "work.unblock"
        | "work.submit"
        | "work.accept_result"
        | "work.fail"
        | "work.cancel"
        | "artifact.publish"
        | "approval.grant_execution"
        | "policy.grant_cooperation_override"
      )
    | string;
  groupId?: string;
  sessionEpoch?: number;
  membershipEpoch?: number;
  coordinatorEpoch?: number;
  conversationId?: string;
  workItemId?: string;
  cooperationOverrideGrantId?: string;
  expectedRevision?: number;
  correlationId: string;
  causedByEventId?: string;
  issuedAt: string;
  payload: JsonObject;
  extensions?: Extensions;
  signature: Signature;
};
export type MissionWeaveConversation = {
  conversationId: string;
  missionId: string;
  groupId: string;
  type: "group" | "work_item" | "review" | "restricted";
  primaryWorkItemId?: string;
  title: string;
  access: {
    mode: "group" | "restricted";
    /**
     * @minItems 1
     * @maxItems 1000
     */
    members?: Principal[];
  };
  createdBy: Principal;
  createdAt: string;
  state: "active" | "closed";
  revision: number;
  extensions?: Extensions;
};
export type MissionWeaveMissionGroup = {
  groupId: string;
  missionId: string;
  state: "active" | "archived";
  mainConversationId: string;
  createdAt: string;
  archivedAt?: string;
  archiveSnapshotId?: string;
  extensions?: Extensions;
};
export type MissionWeaveFencedLease = {
  leaseId: string;
  leaseType: "coordinator" | "ownership" | "execution" | "blocked";
  missionId: string;
  groupId: string;
  workItemId?: string;
  holderAgentId: string;
  sessionEpoch: number;
  coordinatorEpoch?: number;
  ownershipEpoch?: number;
  startBy?: string;
  issuedAt: string;
  startsAt: string;
  expiresAt: string;
  graceExpiresAt?: string;
  state: "active" | "expired" | "revoked" | "released";
  renewalCount: number;
  lastRenewedAt?: string;
  closedAt?: string;
  closureReason?: string;
};
export type MissionWeaveGroupMembership = {
  membershipId: string;
  missionId: string;
  groupId: string;
  member: Principal;
  role: "mission_owner" | "coordinator" | "worker" | "reviewer" | "observer" | "work_delegate";
  state: "provisional" | "active" | "ended";
  membershipEpoch: number;
  /**
   * @minItems 1
   * @maxItems 256
   */
  scopes: string[];
  /**
   * @maxItems 1000
   */
  delegationGrants?: DelegationGrant[];
  visibilityStartSequence: number;
  contextPackageId?: string;
  provisionalExpiresAt?: string;
  grantedAt: string;
  activatedAt?: string;
  endedAt?: string;
  extensions?: Extensions;
};
export type Budget = (
  | {
      currency: JsonValue;
      financialLimit: JsonValue;
    }
  | {
      modelTokenLimit: JsonValue;
    }
  | {
      toolCallLimit: JsonValue;
    }
  | {
      computeSecondsLimit: JsonValue;
    }
  | {
      wallClockSecondsLimit: JsonValue;
    }
  | {
      externalSideEffectLimit: JsonValue;
    }
) & {
  currency?: string;
  financialLimit?: number;
  modelTokenLimit?: number;
  toolCallLimit?: number;
  computeSecondsLimit?: number;
  wallClockSecondsLimit?: number;
  externalSideEffectLimit?: number;
};
export type MissionWeaveWebSocketFrame =
  | HelloInit
  | HelloChallenge
  | HelloResponse
  | HelloAccept
  | SubscribeFrame
  | CommandFrame
  | EventFrame
  | AckFrame
  | PingFrame
  | ErrorFrame;
export type MissionWeaveWorkItem = {
  workItemId: string;
  missionId: string;
  groupId: string;
  conversationId: string;
  revision: number;
  state: "open" | "offered" | "queued" | "active" | "blocked" | "submitted" | "verified" | "failed" | "cancelled";
  exclusive: boolean;
  contract: MissionWeaveWorkContract;
  /**
   * @maxItems 1000
   */
  offers?: {
    offerId: string;
    agentId: string;
    agentCardVersion: number;
    expiresAt: string;
    status: "pending" | "accepted" | "declined" | "withdrawn" | "expired" | "lost_race";
    declineReason?: "capacity" | "deadline" | "capability" | "authorization" | "dependency" | "budget" | "other";
  }[];
  owner?: {
    agentId: string;
    agentCardVersion: number;
    /**
     * @minItems 1
     * @maxItems 256
     */
    capabilityPins: CapabilityRef[];
    ownershipEpoch: number;
    ownershipLeaseId: string;
    acceptedAt: string;
  };
  selectionBasis?: {
    /**
     * @minItems 1
     * @maxItems 256
     */
    requiredCapabilities: CapabilityRef[];
    /**
     * @minItems 1
     * @maxItems 256
     */
    verifiedMatches: CapabilityRef[];
    authorizationEligible: boolean;
    availabilityEstimate: string;
    expectedCost: number;
    /**
     * @maxItems 1000
     */
    reliabilityEvidence: string[];
    /**
     * @minItems 1
     * @maxItems 256
     */
    policyRulesApplied: string[];
  };
  scheduleEstimate?: {
    estimatedStart: string;
    estimatedCompletion: string;
    confidence: number;
    capacityStatus: "available" | "queued" | "constrained" | "blocked";
    lastCalculatedAt: string;
  };
  progress?: {
    currentPhase: string;
    /**
     * @maxItems 256
     */
    completedMilestones: string[];
    nextCheckpoint: string;
    /**
     * @maxItems 256
     */
    blockers: string[];
    updatedCompletionEstimate: string;
    /**
     * @maxItems 1000
     */
    evidenceIds: string[];
  };
  submission?: {
    /**
     * @minItems 1
     * @maxItems 1000
     */
    artifactHashes: string[];
    /**
     * @minItems 1
     * @maxItems 1000
     */
    evidenceIds: string[];
    submittedAt: string;
  };
  createdBy: Principal;
  authorizedBy?: Principal;
  createdAt: string;
  updatedAt?: string;
  extensions?: Extensions;
};

/**
 * Each protocol object of schemas/ by its schema name (the names SchemaRegistry.validateObject takes).
 */
export type ProtocolObjects = {
  "agent-card": MissionWeaveAgentCard;
  approval: MissionWeaveApprovalDecision;
  artifact: MissionWeaveArtifactManifest;
  command: MissionWeaveCommand;
  "context-package": MissionWeaveContextPackage;
  conversation: MissionWeaveConversation;
  error: MissionWeaveProtocolError;
  event: MissionWeaveEvent;
  evidence: MissionWeaveEvidence;
  "extension-profile": MissionWeaveExtensionProfile;
  "first-admission-record": MissionWeaveFirstAdmissionRecord;
  group: MissionWeaveMissionGroup;
  "group-snapshot": MissionWeaveGroupSnapshot;
  lease: MissionWeaveFencedLease;
  membership: MissionWeaveGroupMembership;
  message: MissionWeaveMessage;
  mission: MissionWeaveMission;
  "offline-execution-binding": MissionWeaveBoundedOfflineExecutionBinding;
  "presence-record": MissionWeavePresenceRecord;
  "websocket-frame": MissionWeaveWebSocketFrame;
  "work-contract": MissionWeaveWorkContract;
  "work-item": MissionWeaveWorkItem;
};
export type MissionWeaveAgentCard = {
  agentId: string;
  organizationId: string;
  cardVersion: number;
  displayName: string;
  description?: string;
  owner: Principal;
  status: "active" | "deprecated" | "revoked";
  /**
   * @minItems 1
   * @maxItems 16
   */
  protocolVersions: "0.1"[];
  /**
   * @minItems 1
   * @maxItems 256
   */
  endpoints: {
    transport: "wss";
    uri: string;
  }[];
  /**
   * @minItems 1
   * @maxItems 256
   */
  publicKeys: PublicKey[];
  /**
   * @minItems 1
   * @maxItems 256
   */
  capabilities: {
    id: string;
    version: string;
    inputSchema: string;
    inputSchemaHash: string;
    outputSchema: string;
    outputSchemaHash: string;
    constraints: JsonObject;
    /**
     * @minItems 1
     * @maxItems 256
     */
    verifiedEvidence: string[];
  }[];
  maxConcurrency: number;
  issuedAt: string;
  validUntil?: string;
  extensions?: Extensions;
  signature: Signature;
};
export type Principal = {
  type: "agent" | "human" | "service";
  id: string;
};
export type PublicKey = {
  keyId: string;
  algorithm: "Ed25519";
  publicKey: string;
  validFrom: string;
  validUntil?: string;
  revokedAt?: string;
};
export type Extensions = {
  [k: string]: {
    version: string;
    critical: boolean;
    data: JsonValue;
  };
};
export type Signature = {
  algorithm: "Ed25519";
  keyId: string;
  createdAt: string;
  value: string;
};
export type MissionWeaveArtifactManifest = {
  artifactId: string;
  contentHash: string;
  uri: string;
  sizeBytes: number;
  mediaType: string;
  schemaUri: string;
  producer: {
    agentId: string;
    agentCardVersion: number;
    /**
     * @minItems 1
     * @maxItems 256
     */
    capabilities: CapabilityRef[];
  };
  missionId: string;
  groupId: string;
  workItemId: string;
  /**
   * @maxItems 1000
   */
  sourceArtifactHashes: string[];
  /**
   * @maxItems 256
   */
  toolVersions: {
    name: string;
    version: string;
  }[];
  /**
   * @maxItems 256
   */
  modelVersions: {
    provider: string;
    model: string;
    version: string;
  }[];
  classification: "public" | "internal" | "confidential" | "restricted";
  createdAt: string;
  extensions?: Extensions;
  signature: Signature;
};
export type CapabilityRef = {
  id: string;
  version: string;
};
export type MissionWeaveContextPackage = {
  contextPackageId: string;
  version: number;
  previousContextPackageId?: string;
  missionId: string;
  groupId: string;
  workItemId?: string;
  sourceEventRange: {
    fromSequence: number;
    toSequence: number;
    /**
     * @minItems 1
     * @maxItems 100000
     */
    eventIds: string[];
  };
  /**
   * @maxItems 1000
   */
  artifactHashes: string[];
  summary: string;
  /**
   * @maxItems 256
   */
  decisions: {
    description: string;
    /**
     * @minItems 1
     * @maxItems 1000
     */
    sourceEventIds: string[];
  }[];
  /**
   * @maxItems 256
   */
  constraints: string[];
  /**
   * @maxItems 256
   */
  unresolvedQuestions: string[];
  generatedBy: AgentPrincipal;
  generatedAt: string;
  extensions?: Extensions;
  signature: Signature;
};
export type AgentPrincipal = {
  type: "agent";
  id: string;
};
export type MissionWeaveProtocolError = {
  code:
    | "UNSUPPORTED_VERSION"
    | "AUTH_REQUIRED"
    | "AUTH_INVALID_SIGNATURE"
    | "AUTH_STALE_SESSION"
    | "AUTH_STALE_COORDINATOR"
    | "AUTH_FORBIDDEN"
    | "GROUP_NOT_FOUND"
    | "MEMBERSHIP_REQUIRED"
    | "MEMBERSHIP_STALE"
    | "SCHEMA_VALIDATION_FAILED"
    | "INVALID_COMMAND"
    | "INVALID_STATE_TRANSITION"
    | "REVISION_CONFLICT"
    | "ACTION_ID_COLLISION"
    | "UNKNOWN_CRITICAL_EXTENSION"
    | "WORK_CONTRACT_INCOMPLETE"
    | "WORK_OFFER_EXPIRED"
    | "WORK_ALREADY_OWNED"
    | "WORK_LEASE_EXPIRED"
    | "WORK_STALE_OWNERSHIP"
    | "APPROVAL_REQUIRED"
    | "BUDGET_EXCEEDED"
    | "RATE_LIMITED"
    | "BACKPRESSURE"
    | "CURSOR_TOO_OLD"
    | "PROTOCOL_VIOLATION"
    | "INTERNAL_ERROR";
  message: string;
  retryable: boolean;
  fatal?: boolean;
  relatedFrameId?: string;
  relatedActionId?: string;
  groupId?: string;
  expectedRevision?: number;
  currentRevision?: number;
  retryAfterMs?: number;
  snapshotArtifactHash?: string;
  details?: JsonObject;
  occurredAt: string;
};
export type MissionWeaveEvent = {
  protocolVersion: "0.1";
  eventId: string;
  groupId?: string;
  sequence?: number;
  aggregateRevision?: number;
  kind:
    | (
        | "mission.created"
        | "mission.coordinator.assigned"
        | "mission.coordinator.renewed"
        | "mission.submitted_for_approval"
        | "mission.approved"
        | "mission.changes_requested"
        | "mission.cancelled"
        | "mission.terminated"
        | "mission.child.created"
        | "mission.follow_up.created"
        | "membership.changed"
        | "membership.ended"
        | "membership.delegation.granted"
        | "message.posted"
        | "message.corrected"
        | "message.retracted"
        | "message.redacted"
        | "work.proposed"
        | "work.authorized"
        | "work.offer.created"
        | "work.offer.accepted"
        | "work.contract.revised"
        | "work.started"
        | "work.progressed"
        | "work.checkpointed"
        | "work.blocked"
        | "work.unblocked"
        | "work.submitted"
        | "work.result.accepted"
        | "work.failed"
        | "work.cancelled"
        | "artifact.published"
        | "approval.execution.granted"
        | "policy.cooperation_override.granted"
        | "group.snapshot.created"
        | "group.archived"
      )
    | string;
  actor: Principal;
  cause: {
    type: "command" | "event" | "timer" | "policy";
    id: string;
  };
  correlationId: string;
  conversationId?: string;
  workItemId?: string;
  occurredAt: string;
  payload: JsonObject;
  acceptedBy: Principal;
  commandHash?: string;
  extensions?: Extensions;
  signature: Signature;
};
export type MissionWeaveEvidence = {
  evidenceId: string;
  missionId: string;
  groupId: string;
  workItemId: string;
  type:
    | "artifact_integrity"
    | "schema_validation"
    | "deterministic_test"
    | "business_rule"
    | "reviewer_assessment"
    | "human_review"
    | "policy_check"
    | "failure_report";
  subject: {
    type: "work_item" | "artifact" | "mission";
    id: string;
  };
  /**
   * @minItems 1
   * @maxItems 256
   */
  criterionIds: string[];
  method: string;
  result: "passed" | "failed" | "inconclusive";
  details?: JsonObject;
  /**
   * @maxItems 1000
   */
  artifactHashes: string[];
  generatedBy: Principal;
  toolVersion?: string;
  modelVersion?: string;
  createdAt: string;
  signature: Signature;
};
export type MissionWeaveExtensionProfile = {
  profileUri: string;
  name: string;
  version: string;
  schemaUri: string;
  schemaHash: string;
  /**
   * @maxItems 256
   */
  requiredCapabilities: CapabilityRef[];
  critical: boolean;
  /**
   * @maxItems 256
   */
  commandKinds: string[];
  /**
   * @maxItems 256
   */
  eventKinds: string[];
  overridesCoreInvariants: false;
  approvedBy: Principal;
  approvedAt: string;
  signature: Signature;
};
export type MissionWeaveFirstAdmissionRecord = {
  protocolVersion: "0.1";
  admissionRecordId: string;
  organizationId: string;
  documentKind:
    | "agent-card"
    | "approval"
    | "artifact"
    | "command"
    | "context-package"
    | "event"
    | "evidence"
    | "extension-profile"
    | "group-snapshot";
  signingHash: string;
  keyId: string;
  principal: Principal;
  trustedAcceptedAt: string;
  acceptedBy: ServicePrincipal;
};
export type ServicePrincipal = {
  type: "service";
  id: string;
};
export type MissionWeaveGroupSnapshot = {
  snapshotId: string;
  groupId: string;
  throughSequence: number;
  /**
   * @minItems 1
   */
  eventIds: string[];
  stateHash: string;
  /**
   * @minItems 1
   * @maxItems 1000
   */
  policyLog: {
    entryId: string;
    decision: string;
    actor: Principal;
    occurredAt: string;
    details: JsonObject;
  }[];
  createdBy: ServicePrincipal;
  createdAt: string;
  signature: Signature;
};
/**
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "delegationGrant".
 */
export type DelegationGrant = {
  grantId: string;
  granteeAgentId: string;
  missionId: string;
  groupId: string;
  targetWorkItemId: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  allowedCapabilities: CapabilityRef[];
  /**
   * This interface was referenced by `undefined`'s JSON-Schema
   * via the `definition` "completeBudget".
   */
  budget: Budget & {
    currency: JsonValue;
    financialLimit: JsonValue;
    modelTokenLimit: JsonValue;
    toolCallLimit: JsonValue;
    computeSecondsLimit: JsonValue;
    wallClockSecondsLimit: JsonValue;
    externalSideEffectLimit: JsonValue;
  };
  maxDescendantDepth: number;
  granteeMembershipEpoch: number;
  coordinatorEpoch: number;
  grantedBy: AgentPrincipal;
  grantedAt: string;
  expiresAt: string;
};
export type MissionWeaveMessage = {
  messageId: string;
  missionId: string;
  groupId: string;
  conversationId: string;
  author: Principal;
  kind: "message" | "correction" | "retraction" | "redaction";
  authority: false;
  targetMessageId?: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  content: (
    | {
        type: "text";
        text: string;
      }
    | {
        type: "artifact_ref";
        artifactHash: string;
      }
    | {
        type: "data_ref";
        schema: string;
        data: JsonValue;
      }
  )[];
  /**
   * @maxItems 256
   */
  mentions?: Principal[];
  /**
   * @maxItems 1000
   */
  references?: string[];
  reason?: string;
  committedAt: string;
  extensions?: Extensions;
};
export type MissionWeaveMission = {
  missionId: string;
  groupId: string;
  revision: number;
  objective: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  definitionOfDone: AcceptanceCriterion[];
  missionOwner: Principal;
  coordinator: {
    agentId: string;
    agentCardVersion: number;
    coordinatorEpoch: number;
    leaseId: string;
  };
  state: "active" | "awaiting_approval" | "approved" | "failed" | "cancelled";
  budget: Budget;
  deadline: string;
  approvalPolicy: {
    finalHumanApproval: boolean;
    highRiskExecutionApproval: boolean;
    policyVersion?: string;
  };
  parent?: {
    missionId: string;
    workItemId: string;
    depth: number;
  };
  followUpToMissionId?: string;
  /**
   * @maxItems 256
   */
  pinnedProfiles?: {
    profileUri: string;
    majorVersion: number;
  }[];
  createdAt: string;
  extensions?: Extensions;
};
export type AcceptanceCriterion = {
  criterionId: string;
  description: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  evidenceRequired: (
    | "artifact_integrity"
    | "schema_validation"
    | "deterministic_test"
    | "business_rule"
    | "reviewer_assessment"
    | "human_review"
    | "policy_check"
  )[];
};
export type MissionWeaveBoundedOfflineExecutionBinding = {
  agentId: string;
  groupId: string;
  workItemId: string;
  sessionEpoch: number;
  ownershipEpoch: number;
  executionLeaseId: string;
  disconnectedAt: string;
  bufferedAt: string;
  graceDeadline: string;
  executionLeaseExpiresAt: string;
  resourceUsageDelta: {
    financialMicrounits: number;
    modelTokens: number;
    toolCalls: number;
    computeSeconds: number;
    wallClockSeconds: number;
    externalActions: 0;
  };
};
export type MissionWeavePresenceRecord = {
  agentId: string;
  sessionEpoch: number;
  status: "online" | "busy" | "away" | "draining" | "offline";
  capacity: {
    maxSlots: number;
    activeSlots: number;
    availableSlots: number;
    queuedItems: number;
  };
  /**
   * @maxItems 256
   */
  capabilityAvailability: {
    capability: CapabilityRef;
    status: "available" | "degraded" | "unavailable";
  }[];
  estimatedResponseMs?: number;
  lastHeartbeat: string;
  expiresAt: string;
};
export type HelloInit = {
  protocolVersion: "0.1";
  frameId: string;
  frameType: "HELLO";
  phase: "client_init";
  agentId: string;
  keyId: string;
  clientNonce: string;
  /**
   * @minItems 1
   * @maxItems 16
   */
  supportedVersions: "0.1"[];
};
export type HelloChallenge = {
  protocolVersion: "0.1";
  frameId: string;
  frameType: "HELLO";
  phase: "server_challenge";
  selectedVersion: "0.1";
  clientNonce: string;
  serverNonce: string;
  challenge: string;
};
export type HelloResponse = {
  protocolVersion: "0.1";
  frameId: string;
  frameType: "HELLO";
  phase: "client_response";
  agentId: string;
  keyId: string;
  clientNonce: string;
  serverNonce: string;
  challengeSignature: string;
};
export type HelloAccept = {
  protocolVersion: "0.1";
  frameId: string;
  frameType: "HELLO";
  phase: "server_accept";
  selectedVersion: "0.1";
  sessionToken: string;
  sessionEpoch: number;
  expiresAt: string;
};
export type SubscribeFrame = {
  protocolVersion: "0.1";
  frameId: string;
  frameType: "SUBSCRIBE";
  subscriptionId: string;
  /**
   * @minItems 1
   * @maxItems 1000
   */
  groups: {
    groupId: string;
    afterSequence: number;
    attention?: {
      /**
       * @maxItems 256
       */
      eventKinds?: string[];
      /**
       * @maxItems 1000
       */
      conversationIds?: string[];
      /**
       * @maxItems 1000
       */
      workItemIds?: string[];
      mentionsOnly?: boolean;
      announcements?: boolean;
    };
  }[];
};
export type CommandFrame = {
  protocolVersion: "0.1";
  frameId: string;
  frameType: "COMMAND";
  command: MissionWeaveCommand;
};
export type EventFrame = {
  protocolVersion: "0.1";
  frameId: string;
  frameType: "EVENT";
  event: MissionWeaveEvent;
};
export type AckFrame = {
  protocolVersion: "0.1";
  frameId: string;
  frameType: "ACK";
  /**
   * @minItems 1
   * @maxItems 1000
   */
  acknowledgements: {
    groupId: string;
    sequence: number;
  }[];
  sentAt: string;
};
export type PingFrame = {
  protocolVersion: "0.1";
  frameId: string;
  frameType: "PING";
  nonce: string;
  replyToNonce?: string;
  sentAt: string;
  presence?: MissionWeavePresenceRecord;
};
export type ErrorFrame = {
  protocolVersion: "0.1";
  frameId: string;
  frameType: "ERROR";
  error: MissionWeaveProtocolError;
};
export type MissionWeaveWorkContract = {
  contractVersion: number;
  goal: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  requiredDeliverables: {
    deliverableId: string;
    description: string;
    mediaType: string;
    schema: string;
  }[];
  /**
   * @minItems 1
   * @maxItems 256
   */
  acceptanceCriteria: AcceptanceCriterion[];
  /**
   * @maxItems 1000
   */
  inputArtifacts: string[];
  /**
   * @maxItems 1000
   */
  dependencyWorkItemIds: string[];
  /**
   * @maxItems 256
   */
  allowedResources: ResourceGrant[];
  /**
   * @minItems 1
   * @maxItems 256
   */
  requiredCapabilities: CapabilityRef[];
  deadline: string;
  requestedUrgency: "routine" | "normal" | "high" | "critical";
  businessImpact: string;
  retryPolicy: {
    maxAttempts: number;
    backoff: "none" | "fixed" | "exponential";
    maxDelay: string;
    /**
     * @maxItems 256
     */
    retryableFailures: string[];
  };
  budget: Budget;
  sideEffectRisk: "none" | "reversible" | "external" | "high_risk" | "destructive";
  executionApproval: "not_required" | "policy_required" | "human_required";
  constraints?: JsonObject;
  extensions?: Extensions;
};
export type ResourceGrant = {
  resource: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  operations: string[];
  constraints?: JsonObject;
};
/**
 * Each frame of websocket-frame.schema.json by its definition (the names SchemaRegistry.validateDefinition takes).
 *
 * This interface was referenced by `ProtocolObjects`'s JSON-Schema
 * via the `definition` "frames".
 */
export type Frames = {
  helloInit: HelloInit;
  helloChallenge: HelloChallenge;
  helloResponse: HelloResponse;
  helloAccept: HelloAccept;
  subscribeFrame: SubscribeFrame;
  commandFrame: CommandFrame;
  eventFrame: EventFrame;
  ackFrame: AckFrame;
  pingFrame: PingFrame;
  errorFrame: ErrorFrame;
};
