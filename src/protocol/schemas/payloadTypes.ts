/**
 * Command payload types, generated from schemas/payloads/ by scripts/generatePayloadTypes.mjs.
 * Do not edit: change the schema and run `npm run generate:types`.
 */
/* eslint-disable */

export type Budget = (
  | {
      currency: unknown;
      financialLimit: unknown;
    }
  | {
      modelTokenLimit: unknown;
    }
  | {
      toolCallLimit: unknown;
    }
  | {
      computeSecondsLimit: unknown;
    }
  | {
      wallClockSecondsLimit: unknown;
    }
  | {
      externalSideEffectLimit: unknown;
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
export type MembershipChangePayload = {
  principal: Principal;
  /**
   * @minItems 1
   * @maxItems 256
   */
  roles: ("mission_owner" | "coordinator" | "worker" | "reviewer" | "observer" | "work_delegate")[];
  provisional?: boolean;
  visibilityAfterSequence?: number;
  /**
   * @minItems 1
   * @maxItems 256
   */
  scopes?: string[];
  contextPackageId?: string;
  provisionalExpiresAt?: string;
};
export type Budget1 = (
  | {
      currency: unknown;
      financialLimit: unknown;
    }
  | {
      modelTokenLimit: unknown;
    }
  | {
      toolCallLimit: unknown;
    }
  | {
      computeSecondsLimit: unknown;
    }
  | {
      wallClockSecondsLimit: unknown;
    }
  | {
      externalSideEffectLimit: unknown;
    }
) & {
  currency: string;
  financialLimit: number;
  modelTokenLimit: number;
  toolCallLimit: number;
  computeSecondsLimit: number;
  wallClockSecondsLimit: number;
  externalSideEffectLimit: number;
};
export type MissionWeaveApprovalDecision = {
  kind: "mission_final" | "child_mission";
  decision: "approved";
};

/**
 * Each Command kind of schemas/payloads/ and its payload type.
 */
export type CommandPayloads = {
  "approval.grant_execution": ApprovalGrantExecutionPayload;
  "artifact.publish": ArtifactPublishPayload;
  "ext.missionweave.core.budget_revise": ExtMissionweaveCoreBudgetRevisePayload;
  "ext.missionweave.core.capability_grant": ExtMissionweaveCoreCapabilityGrantPayload;
  "ext.missionweave.core.child_mission_settle": ExtMissionweaveCoreChildMissionSettlePayload;
  "ext.missionweave.core.work_lease_close": ExtMissionweaveCoreWorkLeaseClosePayload;
  "ext.missionweaveprotocol.core.group_archive": ExtMissionweaveprotocolCoreGroupArchivePayload;
  "ext.missionweaveprotocol.core.profile_pin": ExtMissionweaveprotocolCoreProfilePinPayload;
  "ext.missionweaveprotocol.core.resource_usage_record": ExtMissionweaveprotocolCoreResourceUsageRecordPayload;
  "ext.missionweaveprotocol.core.work_dependency_add": ExtMissionweaveprotocolCoreWorkDependencyAddPayload;
  "ext.missionweaveprotocol.core.work_execution_lease_renew": ExtMissionweaveprotocolCoreWorkExecutionLeaseRenewPayload;
  "ext.missionweaveprotocol.identity.session_open": ExtMissionweaveprotocolIdentitySessionOpenPayload;
  "ext.missionweaveprotocol.registry.agent_card_register": ExtMissionweaveprotocolRegistryAgentCardRegisterPayload;
  "membership.change": MembershipChangePayload;
  "membership.end": MembershipEndPayload;
  "membership.grant_delegation": MembershipGrantDelegationPayload;
  "message.correct": MessageCorrectPayload;
  "message.post": MessagePostPayload;
  "message.redact": MessageRedactPayload;
  "message.retract": MessageRetractPayload;
  "mission.approve": MissionApprovePayload;
  "mission.assign_coordinator": MissionAssignCoordinatorPayload;
  "mission.cancel": MissionCancelPayload;
  "mission.create": MissionCreatePayload;
  "mission.create_child": MissionCreateChildPayload;
  "mission.create_follow_up": MissionCreateFollowUpPayload;
  "mission.renew_coordinator": MissionRenewCoordinatorPayload;
  "mission.request_changes": MissionRequestChangesPayload;
  "mission.submit_for_approval": MissionSubmitForApprovalPayload;
  "mission.terminate": MissionTerminatePayload;
  "policy.grant_cooperation_override": PolicyGrantCooperationOverridePayload;
  "work.accept_offer": WorkAcceptOfferPayload;
  "work.accept_result": WorkAcceptResultPayload;
  "work.authorize": WorkAuthorizePayload;
  "work.block": WorkBlockPayload;
  "work.cancel": WorkCancelPayload;
  "work.checkpoint": WorkCheckpointPayload;
  "work.fail": WorkFailPayload;
  "work.offer": WorkOfferPayload;
  "work.propose": WorkProposePayload;
  "work.start": WorkStartPayload;
  "work.submit": WorkSubmitPayload;
  "work.unblock": WorkUnblockPayload;
};
export type ApprovalGrantExecutionPayload = {
  approvalId: string;
  workItemId: string;
  ownershipEpoch: number;
  /**
   * @minItems 1
   * @maxItems 256
   */
  operations: string[];
  /**
   * @maxItems 1000
   */
  resources?: string[];
  budget?: Budget;
  expiresInSeconds?: number;
  comments?: string;
};
export type ArtifactPublishPayload = {
  artifact: MissionWeaveArtifactManifest;
  ownershipEpoch: number;
  executionLeaseId: string;
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
export type Extensions = {
  [k: string]:
    | {
        version: string;
        critical: boolean;
        data: unknown;
      }
    | undefined;
};
export type Signature = {
  algorithm: "Ed25519";
  keyId: string;
  createdAt: string;
  value: string;
};
export type ExtMissionweaveCoreBudgetRevisePayload = {
  workItemId?: string;
  budget: Budget;
  reason: string;
};
export type ExtMissionweaveCoreCapabilityGrantPayload = {
  workItemId: string;
  agentId: string;
  sessionEpoch: number;
  ownershipEpoch: number;
  executionLeaseId: string;
  /**
   * @maxItems 256
   */
  tools?: string[];
  /**
   * @maxItems 256
   */
  resources?: ResourceGrant[];
  limits?: {
    financialMicrounits?: number;
    modelTokens?: number;
    toolCalls?: number;
    computeSeconds?: number;
    wallClockSeconds?: number;
    externalActions?: number;
  };
  expiresInSeconds?: number;
};
export type ResourceGrant = {
  resource: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  operations: string[];
  constraints?: {};
};
export type ExtMissionweaveCoreChildMissionSettlePayload = {
  parentWorkItemId: string;
  childMissionId: string;
};
export type ExtMissionweaveCoreWorkLeaseClosePayload = {
  workItemId: string;
  ownershipEpoch: number;
  leaseId: string;
  holderAgentId: string;
  cause: "expired" | "session_replaced" | "card_incompatible";
};
export type ExtMissionweaveprotocolCoreGroupArchivePayload = {
  snapshot: MissionWeaveGroupSnapshot;
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
    details: {};
  }[];
  createdBy: ServicePrincipal;
  createdAt: string;
  signature: Signature;
};
export type Principal = {
  type: "agent" | "human" | "service";
  id: string;
};
export type ServicePrincipal = {
  type: "service";
  id: string;
};
export type ExtMissionweaveprotocolCoreProfilePinPayload = {
  profileUri: string;
  majorVersion: number;
};
export type ExtMissionweaveprotocolCoreResourceUsageRecordPayload = {
  workItemId: string;
  ownershipEpoch: number;
  executionLeaseId: string;
  usageDelta: (
    | {
        financialMicrounits: number;
      }
    | {
        modelTokens: number;
      }
    | {
        toolCalls: number;
      }
    | {
        computeSeconds: number;
      }
    | {
        wallClockSeconds: number;
      }
    | {
        externalActions: number;
      }
  ) & {
    financialMicrounits?: number;
    modelTokens?: number;
    toolCalls?: number;
    computeSeconds?: number;
    wallClockSeconds?: number;
    externalActions?: number;
  };
  capabilityTokenId?: string;
};
export type ExtMissionweaveprotocolCoreWorkDependencyAddPayload = {
  workItemId: string;
  dependencyId: string;
};
export type ExtMissionweaveprotocolCoreWorkExecutionLeaseRenewPayload = {
  workItemId: string;
  ownershipEpoch: number;
  executionLeaseId: string;
  leaseSeconds?: number;
};
export type ExtMissionweaveprotocolIdentitySessionOpenPayload = {
  agentId: string;
};
export type ExtMissionweaveprotocolRegistryAgentCardRegisterPayload = {
  card: MissionWeaveAgentCard;
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
    constraints: {};
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
export type PublicKey = {
  keyId: string;
  algorithm: "Ed25519";
  publicKey: string;
  validFrom: string;
  validUntil?: string;
  revokedAt?: string;
};
export type MembershipEndPayload = {
  principal: Principal;
};
export type MembershipGrantDelegationPayload = {
  grantId: string;
  granteeAgentId: string;
  targetWorkItemId: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  allowedCapabilities: CapabilityRef[];
  budget: Budget1;
  maxDescendantDepth: number;
  expiresAt: string;
};
export type MessageCorrectPayload = {
  amendmentId: string;
  messageId: string;
  replacementContent:
    | string
    | (
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
            data: unknown;
          }
      )[];
  reason: string;
};
export type MessagePostPayload = {
  messageId: string;
  conversationId: string;
  content:
    | string
    | (
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
            data: unknown;
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
};
export type MessageRedactPayload = {
  amendmentId: string;
  messageId: string;
  reason: string;
};
export type MessageRetractPayload = {
  amendmentId: string;
  messageId: string;
  reason: string;
};
export type MissionApprovePayload = {
  approvalId: string;
  missionRevision: number;
  /**
   * @minItems 1
   * @maxItems 1000
   */
  artifactHashes: string[];
  acceptancePolicyVersion: string;
  comments?: string;
  approval?: MissionWeaveApprovalDecision;
};
export type MissionAssignCoordinatorPayload = {
  coordinatorId: string;
  leaseSeconds?: number;
};
export type MissionCancelPayload = {
  reason: string;
  parentMissionId?: string;
  parentWorkItemId?: string;
};
export type MissionCreatePayload = {
  missionId: string;
  groupId: string;
  coordinatorId: string;
  title: string;
  objective: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  definitionOfDone: AcceptanceCriterion[];
  budget: Budget;
  deadline: string;
  /**
   * @maxItems 256
   */
  permissions?: string[];
  coordinatorLeaseSeconds?: number;
  mainConversationId?: string;
  approvalPolicy?: {
    finalHumanApproval: true;
    highRiskExecutionApproval: boolean;
    policyVersion?: string;
  };
  /**
   * @maxItems 16
   */
  pinnedProfiles?: {
    profileUri: string;
    majorVersion: number;
  }[];
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
export type MissionCreateChildPayload = {
  missionId: string;
  groupId: string;
  parentWorkItemId: string;
  coordinatorId: string;
  title: string;
  objective: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  definitionOfDone: AcceptanceCriterion[];
  budget: Budget;
  deadline: string;
  /**
   * @maxItems 256
   */
  permissions?: string[];
  failurePolicy?: "block_parent_work_item" | "fail_parent_work_item" | "fail_parent_mission";
  coordinatorLeaseSeconds?: number;
  mainConversationId?: string;
};
export type MissionCreateFollowUpPayload = {
  missionId: string;
  groupId: string;
  coordinatorId: string;
  title: string;
  objective: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  definitionOfDone: AcceptanceCriterion[];
  budget: Budget;
  deadline: string;
  /**
   * @maxItems 256
   */
  permissions?: string[];
  coordinatorLeaseSeconds?: number;
  mainConversationId?: string;
  approvalPolicy?: {
    finalHumanApproval: true;
    highRiskExecutionApproval: boolean;
    policyVersion?: string;
  };
  followUpOfMissionId: string;
};
export type MissionRenewCoordinatorPayload = {
  leaseSeconds?: number;
};
export type MissionRequestChangesPayload = {
  missionRevision: number;
  feedback: string;
};
export type MissionSubmitForApprovalPayload = {
  /**
   * @minItems 1
   * @maxItems 1000
   */
  artifactHashes: string[];
};
export type MissionTerminatePayload = {
  reason: string;
};
export type PolicyGrantCooperationOverridePayload = {
  grantId: string;
  policyName:
    | "message_rate"
    | "proposal_rate"
    | "delegation_depth"
    | "queued_work_items"
    | "active_work_items"
    | "unresolved_clarifications"
    | "duplicate_decomposition";
  beneficiary: Principal;
  targetCommandKind:
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
  targetActionId: string;
  reason: string;
  expiresAt: string;
};
export type WorkAcceptOfferPayload = {
  workItemId: string;
  ownershipLeaseSeconds?: number;
};
export type WorkAcceptResultPayload = {
  workItemId: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  evidence: MissionWeaveEvidence[];
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
  details?: {};
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
export type WorkAuthorizePayload = {
  workItemId: string;
  contract: MissionWeaveWorkContract;
  /**
   * @maxItems 1000
   */
  dependencyIds?: string[];
  proposalId?: string;
  parentWorkItemId?: string;
  delegationGrantId?: string;
  exclusive?: boolean;
  conversationId?: string;
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
  constraints?: {};
  extensions?: Extensions;
};
export type WorkBlockPayload = {
  workItemId: string;
  ownershipEpoch: number;
  executionLeaseId: string;
  reason: string;
  checkpoint: {
    phase: string;
    /**
     * @maxItems 256
     */
    completedMilestones?: string[];
    nextStep?: string;
    stateArtifactHash?: string;
    createdAt: string;
  };
  blockedLeaseSeconds?: number;
};
export type WorkCancelPayload = {
  workItemId: string;
  reason: string;
};
export type WorkCheckpointPayload = {
  workItemId: string;
  ownershipEpoch: number;
  executionLeaseId: string;
  checkpoint: {
    phase: string;
    /**
     * @maxItems 256
     */
    completedMilestones?: string[];
    nextStep?: string;
    stateArtifactHash?: string;
    createdAt: string;
  };
  resumeWithinSeconds?: number;
};
export type WorkFailPayload = {
  workItemId: string;
  reason: string;
  ownershipEpoch?: number;
  executionLeaseId?: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  evidence?: MissionWeaveEvidence[];
};
export type WorkOfferPayload = {
  workItemId: string;
  /**
   * @minItems 1
   * @maxItems 256
   */
  candidateAgentIds: string[];
  selectionBasis: {
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
  offerExpiresInSeconds?: number;
  delegationGrantId?: string;
};
export type WorkProposePayload = {
  proposalId: string;
  contract: MissionWeaveWorkContract;
  /**
   * @maxItems 1000
   */
  dependencyIds?: string[];
  parentWorkItemId?: string;
};
export type WorkStartPayload = {
  workItemId: string;
  ownershipEpoch: number;
  executionLeaseSeconds?: number;
};
export type WorkSubmitPayload = {
  workItemId: string;
  ownershipEpoch: number;
  executionLeaseId: string;
  /**
   * @minItems 1
   * @maxItems 1000
   */
  artifactHashes: string[];
  /**
   * @minItems 1
   * @maxItems 256
   */
  evidence: MissionWeaveEvidence[];
};
export type WorkUnblockPayload = {
  workItemId: string;
};
