/**
 * `missionweave/client`: the agent-side SDK for MissionWeaveProtocol 0.1.
 *
 * Start with `MissionWeaveAgent` (agent.ts documents the whole behaviour); keep Cursors in a
 * `FileCursorStore`; buffer progress made while disconnected in an `OfflineBuffer` (§11.5); classify failures by `error.code` (`MissionWeaveError` for the server's
 * ERROR documents and for Events that fail verification, `AgentClientError` for this side's).
 * Every Event is verified against the Organization's Registry before it is handed over
 * (eventVerifier.ts). For an Agent's own Signed Documents: a pluggable `Signer`, `signWith` and
 * its Evidence / Artifact manifest / Approval forms, and the primitives beneath them — JCS
 * (`canonicalize`), `sha256:` content hashes, base64url and the §6.4 signing bytes and hash.
 * Governed work: `MissionWeaveWorker` (offers, accept, start, a lease kept renewed while the
 * handler runs, checkpoint, submit, fail; worker.ts) and `MissionWeaveCoordinator` (admit,
 * authorize, offer, accept a result; coordinator.ts).
 */

export { MissionWeaveAgent } from './agent.js';
export { artifactUri, buildArtifactManifest, downloadArtifact, hashArtifactSource, uploadArtifact } from './artifacts.js';
export type { ArtifactEndpoint, ArtifactManifestDraft, ArtifactSource, StoredArtifact, UploadedArtifact } from './artifacts.js';
export { backoffDelay } from './agentOptions.js';
export type { AgentState, ConnectionChange, MissionWeaveAgentOptions } from './agentOptions.js';
export type { CommandOptions, EpochFacts, EpochProvider } from './commands.js';
export { FileCursorStore, MemoryCursorStore } from './cursorStore.js';
export { OfflineBuffer } from './offlineBuffer.js';
export type { CurrentSession, OfflineBufferOptions, OfflineExecution, ReconcileOutcome, ResourceUsageDelta, SignedCommandSender } from './offlineBuffer.js';
export type { CursorStore } from './cursorStore.js';
export { LocalProjection, openProjection, PROJECTION_FILE_NAME, projectionPathIn } from './runtime/projection.js';
export type { ProjectionOptions, ProjectionRecovery } from './runtime/projection.js';
export type { ProjectionLimits } from './runtime/projectionContext.js';
export { isProjectionError, ProjectionError } from './runtime/projectionErrors.js';
export type { ProjectionFailure } from './runtime/projectionErrors.js';
export type { InboxEvent, InboxOutcome } from './runtime/projectionInbox.js';
export type { OutboxCommand, OutboxState } from './runtime/projectionOutbox.js';
export { sendOutbox } from './runtime/projectionSend.js';
export type { OutboxOutcome } from './runtime/projectionSend.js';
export type { GroupContext, SavedSnapshot } from './runtime/projectionState.js';
export { RUNTIME_SESSION_LOST } from './runtime/projectionWork.js';
export { AgentRuntime, openAgentRuntime } from './runtime/runtime.js';
export { RuntimeHost } from './runtime/hostRuntime.js';
export type { RuntimeHostOptions } from './runtime/hostRuntime.js';
export type { CapabilityAsk, CheckpointData, Job, JobContext, JobHandler, PublishOptions, SubmitResult } from './runtime/job.js';
export type { GroupPolicy } from './runtime/schedulerTypes.js';
export type { AdmitRequest, AgentRuntimeOptions, RuntimeResult } from './runtime/runtime.js';
export type { RuntimeRecovery } from './runtime/runtimeRecovery.js';
export type { ExecutionClaim, ProjectedWork, WorkCheckpoint, WorkRecovery, WorkStatus } from './runtime/projectionWork.js';
export { isGroupEvent } from './documents.js';
export type { Attention, GroupEvent, JsonObject, Principal, ProtocolEvent, SignatureEnvelope } from './documents.js';
export { AgentClientError, EventVerificationError, isAgentError, MissionWeaveError } from './errors.js';
export { loadRegistry } from './eventVerifier.js';
export { verifyRegistrySnapshot } from './registrySnapshot.js';
export type { PublishedRegistryKey, VerifiedRegistrySnapshot } from './registrySnapshot.js';
export { keySigner, signApproval, signArtifactManifest, signEvidence, signingBytes, signingHash, signWith } from './signer.js';
export type { Signer, SignedResult } from './signer.js';
export { decodeBase64url, encodeBase64url } from '../protocol/base64url.js';
export { sha256ContentHash } from '../protocol/contentHash.js';
export type { ContentHash } from '../protocol/contentHash.js';
export { canonicalBytes, canonicalize } from '../protocol/jcs.js';
export type { KeyBindingEvidence, KeyRegistry, RegistryEvidence, ValidityStatusRecord } from '../protocol/signing/keyRegistry.js';
export type { DocumentKind } from '../protocol/signing/profiles.js';
export type { AgentError, ClientErrorCode, ErrorDocument } from './errors.js';
export type { EventHandler, GroupState } from './groupStream.js';
export type { SessionClose } from './session.js';
export type { GroupSnapshotArtifact, SnapshotHandler } from './snapshots.js';
export { ContextPackageError, ContextPackages, verifyContextPackage } from './contextPackages.js';
export type { ContextPackageDocument, ContextPackageExpectation, ContextPackageListing, VerifiedContextPackage } from './contextPackages.js';
export { contextGeneratorIn, contextTrustOf } from './contextTrust.js';
export type { ContextTrust } from './contextTrust.js';
export { MissionWeaveCoordinator } from './coordinator.js';
export type { WorkItemHandler, WorkOutcome } from './coordinator.js';
export { GroupEpochs } from './groupEpochs.js';
export { LEASE_LOSS_CODES, LeaseKeeper, LeaseLostError } from './leaseKeeper.js';
export type { LeaseKeeperOptions, LeaseLossReason, LeaseTerm } from './leaseKeeper.js';
export { MissionWeaveWorker } from './worker.js';
export type { OwnedWork, WorkerOptions, WorkOffer } from './worker.js';
export { LEASE_RENEW_KIND, WORK_LEASES_EXTENSION, workItemOf, workLeasesOf } from './workDocuments.js';
export type {
  Evidence,
  EvidenceDraft,
  SelectionBasis,
  WorkAcceptOfferPayload,
  WorkAcceptResultPayload,
  WorkAuthorizePayload,
  WorkCancelPayload,
  WorkCheckpointPayload,
  WorkContract,
  WorkFailPayload,
  WorkItemDocument,
  WorkItemState,
  WorkLease,
  WorkLeaseGranted,
  WorkLeaseRenewPayload,
  WorkLeases,
  WorkOfferAccepted,
  WorkOfferCreated,
  WorkOfferPayload,
  WorkOwner,
  WorkStartPayload,
  WorkSubmitPayload,
} from './workDocuments.js';
export { failureReport, signWorkEvidence } from './workEvidence.js';
export type { WorkAgent } from './workEvidence.js';
export { WorkExecution } from './workExecution.js';
export type { Checkpoint } from './workExecution.js';
export { DEFAULT_AGENT_CARD_VERSION } from './workArtifacts.js';
export type { ArtifactDetails, ProducerCard, PublishedArtifact } from './workArtifacts.js';
export { CapabilityClient, idempotencyKey } from './capabilities.js';
export type { CapabilityRequest, CapabilityToken } from './capabilities.js';
export type { CapabilityEndpoint } from './capabilityHttp.js';
export { chargeCapability, verifyCapabilityOffline, verifyCapabilityOnline } from './toolVerifier.js';
export type { ToolCheck, ToolExpectation } from './toolVerifier.js';
export type { CapabilityClaims, CapabilityLimits, CapabilityResource } from '../protocol/capabilityToken.js';
export type { DataClassification } from '../protocol/dataClassification.js';
export { ERROR_CODES } from '../protocol/errorCodes.js';
export type { ErrorCode } from '../protocol/errorCodes.js';
