/**
 * `artifact.publish` (§13.1, §11.3): the owner of an `active` WorkItem, under its current
 * Ownership Epoch and Execution Lease, publishes the signed manifest of content it produced.
 * The manifest is an embedded Signed Document verified like the Command (six stages, signed by
 * its `producer.agentId`); the decision checks what only state can tell:
 *
 * - the manifest belongs to this Mission, Group and WorkItem, and its producer is the actor with
 *   its current Agent Card version (§13.1 "producer Agent and Agent Card version");
 * - the content is already completely stored in the Artifact store with the stated size (content
 *   lives outside the Event log; a manifest never names content the Authority cannot serve), and
 *   the publisher holds it (`artifactPossession.ts`, §13.3): it uploaded the bytes itself, or may
 *   read a Group that published them — an explicit cross-Mission reuse, which the Event records
 *   in `reusedFrom` and which is never less restricted than its source;
 * - every source Artifact is published in this Group, so the provenance graph is closed; since a
 *   source must exist before the Artifact citing it, the graph is acyclic by construction, and a
 *   derived Artifact is never less restricted than its sources;
 * - a content hash is published once: the hash is the Artifact's identity, never the `uri`.
 *
 * `artifact.published` carries the manifest as the reference runtime's Event does, plus the
 * WorkItem, Ownership Epoch and Execution Lease it was published under, and for a reuse the
 * publication it reuses (docs/reference-differences.md).
 */

import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, refuse, type DecisionContext, type Refusal } from '../model.js';
import { checkActiveOwner, workItemConversation } from '../workItem/executionSteps.js';
import { isRefusal, workItemNamed } from '../workItem/fencing.js';
import { CLASSIFICATION_RANK, MAX_ARTIFACTS_PER_WORK_ITEM } from './artifactLimits.js';
import type { ArtifactManifest } from './artifactDocuments.js';
import { contentNotHeld, possessionOf, reusedFromOf, type ReusedFrom } from './artifactPossession.js';
import { withArtifact } from './publishedArtifacts.js';
import { ARTIFACT_REASONS } from './artifactReasons.js';
import { ARTIFACT_EXAMPLES } from './artifactExamples.js';

export interface ArtifactPublishedPayload {
  readonly artifact: ArtifactManifest;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
  /** A cross-Mission reuse: the publication of another Group the publisher read the content in (§13.3). */
  readonly reusedFrom?: ReusedFrom;
}

export const artifactPublished = defineEvent<ArtifactPublishedPayload>()({
  kind: 'artifact.published',
  evolve: (state, payload, meta) =>
    withArtifact(state, {
      contentHash: payload.artifact.contentHash,
      manifest: payload.artifact,
      workItemId: payload.workItemId,
      ownershipEpoch: payload.ownershipEpoch,
      executionLeaseId: payload.executionLeaseId,
      publishedAt: meta.occurredAt,
      eventId: meta.eventId,
      revision: 1,
      ...(payload.reusedFrom === undefined ? {} : { reusedFrom: payload.reusedFrom }),
    }),
});

/**
 * The manifest's own members against the Group and the actor. Its `createdAt` is the signing
 * time the six-stage admission already held to the freshness and clock-skew window.
 */
function checkManifest(state: GroupState, manifest: ArtifactManifest, command: CommandOf<'artifact.publish'>, ctx: DecisionContext): Refusal | null {
  const details = { contentHash: manifest.contentHash };
  if (manifest.missionId !== state.mission.missionId || manifest.groupId !== state.groupId) {
    return refuse('INVALID_COMMAND', ARTIFACT_REASONS.artifactOtherMission, 'the manifest names another Mission or Group', details);
  }
  if (manifest.producer.agentId !== command.actor.id) {
    return refuse('AUTH_FORBIDDEN', ARTIFACT_REASONS.artifactProducerNotOwner, 'the manifest producer must be the WorkItem owner', details);
  }
  const card = ctx.agent(command.actor.id);
  if (card === undefined || manifest.producer.agentCardVersion !== card.cardVersion) {
    return refuse('INVALID_COMMAND', ARTIFACT_REASONS.artifactCardVersion, 'the manifest must name the producer’s current Agent Card version', {
      ...details,
      ...(card === undefined ? {} : { currentAgentCardVersion: card.cardVersion }),
    });
  }
  return null;
}

/** Once per hash and Artifact ID, and at most MAX_ARTIFACTS_PER_WORK_ITEM per WorkItem. */
function checkNew(state: GroupState, manifest: ArtifactManifest): Refusal | null {
  const details = { contentHash: manifest.contentHash };
  if (state.artifacts.has(manifest.contentHash)) {
    return refuse('INVALID_STATE_TRANSITION', ARTIFACT_REASONS.artifactAlreadyPublished, 'this content hash is already published in the Group', details);
  }
  let ofWorkItem = 0;
  for (const published of state.artifacts.values()) {
    if (published.manifest.artifactId === manifest.artifactId) {
      return refuse('INVALID_COMMAND', ARTIFACT_REASONS.artifactIdTaken, 'another Artifact of this Group has that Artifact ID', { artifactId: manifest.artifactId });
    }
    if (published.workItemId === manifest.workItemId) ofWorkItem += 1;
  }
  if (ofWorkItem >= MAX_ARTIFACTS_PER_WORK_ITEM) {
    return refuse('RATE_LIMITED', ARTIFACT_REASONS.artifactsPerWorkItem, 'the WorkItem has published as many Artifacts as it may', { limit: MAX_ARTIFACTS_PER_WORK_ITEM });
  }
  return null;
}

/** Sources published here, not itself, never more restricted than the derived Artifact. */
function checkSources(state: GroupState, manifest: ArtifactManifest): Refusal | null {
  for (const source of manifest.sourceArtifactHashes) {
    const details = { contentHash: manifest.contentHash, sourceArtifactHash: source };
    const published = state.artifacts.get(source);
    if (published === undefined) {
      return refuse('INVALID_COMMAND', ARTIFACT_REASONS.artifactSourceUnpublished, 'a source Artifact is not published in this Group', details);
    }
    if ((CLASSIFICATION_RANK[manifest.classification] ?? 0) < (CLASSIFICATION_RANK[published.manifest.classification] ?? 0)) {
      return refuse('INVALID_COMMAND', ARTIFACT_REASONS.artifactClassificationDowngrade, 'a derived Artifact cannot be less restricted than its source', details);
    }
  }
  return null;
}

/** The content stored whole, held by the publisher, with the manifest's size; for a reuse, the publication it reuses. */
function checkStored(state: GroupState, manifest: ArtifactManifest, command: CommandOf<'artifact.publish'>, ctx: DecisionContext): Refusal | { readonly reusedFrom?: ReusedFrom } {
  const stored = ctx.storedContent?.(manifest.contentHash);
  const held = stored === undefined ? undefined : possessionOf(stored, command.actor.id, state.groupId);
  if (stored === undefined || held === undefined) return contentNotHeld(manifest.contentHash);
  const details = { contentHash: manifest.contentHash };
  const source = held.source;
  if (source !== undefined && (CLASSIFICATION_RANK[manifest.classification] ?? 0) < (CLASSIFICATION_RANK[source.classification] ?? 0)) {
    return refuse('INVALID_COMMAND', ARTIFACT_REASONS.artifactReuseClassificationDowngrade, 'a reused Artifact cannot be less restricted than its source publication', { ...details, sourceGroupId: source.groupId });
  }
  if (stored.sizeBytes !== manifest.sizeBytes) {
    return refuse('INVALID_COMMAND', ARTIFACT_REASONS.artifactSizeMismatch, 'the manifest size differs from the stored content', { ...details, storedSizeBytes: stored.sizeBytes });
  }
  const reusedFrom = reusedFromOf(held);
  return reusedFrom === undefined ? {} : { reusedFrom };
}

function decidePublish(state: GroupState, command: CommandOf<'artifact.publish'>, ctx: DecisionContext) {
  const { artifact: manifest, ownershipEpoch, executionLeaseId } = command.payload;
  const workItem = workItemNamed(state, manifest.workItemId);
  if (isRefusal(workItem)) return workItem;
  const lease = checkActiveOwner(workItem, command, { ownershipEpoch, executionLeaseId }, ctx, 'publish an Artifact');
  if (isRefusal(lease)) return lease;
  const refused = checkManifest(state, manifest, command, ctx) ?? checkNew(state, manifest) ?? checkSources(state, manifest);
  if (refused !== null) return refused;
  const held = checkStored(state, manifest, command, ctx);
  if (isRefusal(held)) return held;
  return accept({
    kind: 'artifact.published' as const,
    payload: { artifact: manifest, workItemId: workItem.workItemId, ownershipEpoch, executionLeaseId, ...(held.reusedFrom === undefined ? {} : { reusedFrom: held.reusedFrom }) },
    aggregate: { type: 'artifact' as const, id: manifest.contentHash, revision: 1 },
    workItemId: workItem.workItemId,
    conversationId: workItem.conversationId,
  });
}

export const artifactPublish = defineKind({
  kind: 'artifact.publish',
  examples: ARTIFACT_EXAMPLES['artifact.publish'],
  scope: 'group',
  authority: ['member'],
  missionStates: ['active'],
  events: [artifactPublished],
  // The manifest is a Signed Document (§13.1), six-stage verified like the Command, signed by its producer.
  embedded: { member: 'artifact', document: 'artifact' },
  preload: { contents: (command) => [command.payload.artifact.contentHash] },
  target: (state, command) => (state.artifacts.has(command.payload.artifact.contentHash) ? 1 : 0),
  workItemOf: (_state, command) => command.payload.artifact.workItemId,
  conversationOf: (state, command) => workItemConversation(state, command.payload.artifact.workItemId),
  decide: decidePublish,
});
