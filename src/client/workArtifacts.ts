/**
 * Publishing a WorkItem's result as an Artifact from inside its execution (§13.1, §11.3): the
 * content goes to the Group Authority's store first (`artifact.publish` is refused for content
 * the store does not hold whole, at the size the manifest states), then the signed manifest is
 * published under the execution's Ownership Epoch and Execution Lease. Only published Artifacts
 * of the WorkItem may be submitted (`work.submit`, §7.3), so a Worker publishes every result
 * before it submits.
 *
 * The manifest's `producer` is this Agent with its Agent Card version (§13.1 "producer Agent and
 * Agent Card version"): the Group Authority refuses any version other than the card it holds,
 * and the Agent cannot read its card back over the wire, so the version comes from the Worker's
 * options (1, the first card `missionweave agent add` registers, by default). The producer's
 * capabilities are, by default, those the Ownership pinned on acceptance, else the contract's
 * required ones: what this Agent was chosen for.
 */

import type { CapabilityRef, MissionWeaveArtifactManifest } from '../protocol/schemas/payloadTypes.js';
import { buildArtifactManifest, uploadArtifact, type ArtifactEndpoint, type ArtifactManifestDraft, type ArtifactSource } from './artifacts.js';
import type { CommandOptions } from './commands.js';
import type { ProtocolEvent } from './documents.js';
import type { WorkAgent } from './workEvidence.js';
import type { WorkItemDocument } from './workDocuments.js';

/** The Agent Card this Agent publishes under: its version, and the capabilities to name (else chosen as above). */
export interface ProducerCard {
  readonly agentCardVersion: number;
  readonly capabilities?: readonly CapabilityRef[];
}

/** What the first card of an Agent is numbered (`missionweave agent add` registers version 1). */
export const DEFAULT_AGENT_CARD_VERSION = 1;

/** What a Worker says about its content; the rest of the manifest is filled in from the execution. */
export interface ArtifactDetails {
  readonly mediaType: string;
  /** The schema (or format description) the content follows. */
  readonly schemaUri: string;
  /** Default `internal`; a derived Artifact is never less restricted than its sources. */
  readonly classification?: MissionWeaveArtifactManifest['classification'];
  /** Published Artifacts of this Group the content was derived from (the provenance graph). */
  readonly sourceArtifactHashes?: readonly string[];
  readonly toolVersions?: MissionWeaveArtifactManifest['toolVersions'];
  readonly modelVersions?: MissionWeaveArtifactManifest['modelVersions'];
  readonly artifactId?: string;
  readonly extensions?: MissionWeaveArtifactManifest['extensions'];
  /** This Agent's card, when it differs from the Worker's `producer` option. */
  readonly producer?: ProducerCard;
}

export interface PublishedArtifact {
  readonly contentHash: string;
  readonly sizeBytes: number;
  /** The signed manifest as published. */
  readonly manifest: MissionWeaveArtifactManifest;
  /** The `artifact.published` Event. */
  readonly event: ProtocolEvent;
}

/** What the execution lends: who publishes, where the store is, and the lease to cite. */
export interface PublishingExecution {
  readonly agent: WorkAgent;
  readonly store: () => ArtifactEndpoint;
  readonly producer: ProducerCard | undefined;
  readonly workItem: WorkItemDocument;
  readonly cited: { readonly workItemId: string; readonly ownershipEpoch: number; readonly executionLeaseId: string };
  readonly options: CommandOptions;
}

function producerCapabilities(workItem: WorkItemDocument, card: ProducerCard | undefined): CapabilityRef[] {
  const chosen = card?.capabilities ?? workItem.owner?.capabilityPins ?? workItem.contract.requiredCapabilities;
  return chosen.map((c) => ({ id: c.id, version: c.version }));
}

/** Uploads `source`, signs its complete manifest and publishes it; resolves once `artifact.published`. */
export async function publishWorkArtifact(execution: PublishingExecution, source: ArtifactSource, details: ArtifactDetails): Promise<PublishedArtifact> {
  const store = execution.store();
  const { contentHash, sizeBytes } = await uploadArtifact(store, source);
  const manifest = await signWorkManifest(execution, store.origin, { contentHash, sizeBytes }, details);
  const payload = { artifact: manifest, ownershipEpoch: execution.cited.ownershipEpoch, executionLeaseId: execution.cited.executionLeaseId };
  const event = await execution.agent.command('artifact.publish', payload, execution.options);
  return { contentHash, sizeBytes, manifest, event };
}

/**
 * The complete signed manifest of content `contentHash` of this execution's WorkItem, its
 * retrieval URI in the store's `origin`; nothing is sent (a submission kept offline signs its
 * manifests so, to publish them on reconnect: mcp/keptArtifacts.ts).
 */
export async function signWorkManifest(execution: Pick<PublishingExecution, 'agent' | 'producer' | 'workItem'>, origin: ArtifactEndpoint['origin'], content: { readonly contentHash: string; readonly sizeBytes: number }, details: ArtifactDetails): Promise<MissionWeaveArtifactManifest> {
  const { contentHash, sizeBytes } = content;
  const { workItem, agent } = execution;
  const card = details.producer ?? execution.producer;
  const draft: ArtifactManifestDraft = {
    contentHash,
    sizeBytes,
    mediaType: details.mediaType,
    schemaUri: details.schemaUri,
    producer: { agentId: agent.agentId, agentCardVersion: card?.agentCardVersion ?? DEFAULT_AGENT_CARD_VERSION, capabilities: producerCapabilities(workItem, card) },
    missionId: workItem.missionId,
    groupId: workItem.groupId,
    workItemId: workItem.workItemId,
    classification: details.classification ?? 'internal',
    ...(details.sourceArtifactHashes === undefined ? {} : { sourceArtifactHashes: details.sourceArtifactHashes }),
    ...(details.toolVersions === undefined ? {} : { toolVersions: details.toolVersions }),
    ...(details.modelVersions === undefined ? {} : { modelVersions: details.modelVersions }),
    ...(details.artifactId === undefined ? {} : { artifactId: details.artifactId }),
    ...(details.extensions === undefined ? {} : { extensions: details.extensions }),
  };
  const signed = await buildArtifactManifest(draft, agent.signer, origin);
  return signed.document as MissionWeaveArtifactManifest;
}
