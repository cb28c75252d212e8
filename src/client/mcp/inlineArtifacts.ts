/**
 * Artifacts a model gives inline, as text, to `work_submit` (issue 14, part 3): each checked
 * against the named limits and resolved to a media type and schema before any byte is sent,
 * then uploaded and published through the WorkExecution under its lease (§13.1) — only
 * published Artifacts of the WorkItem may be submitted (§7.3). A text this execution already
 * published (a retried call) is not published twice: its hash is reused. A text an earlier run of
 * THIS WorkItem published by THIS Agent — before a checkpoint or a restart of the MCP server, whose
 * submission never landed — is refused by the Authority (a content hash is published once per
 * Group) and then adopted, as the runtime host does (hostArtifacts.ts); another WorkItem's or
 * another Agent's stays refused.
 */

import { hashArtifactSource } from '../artifacts.js';
import { MAX_INLINE_ARTIFACT_BYTES, MAX_INLINE_ARTIFACTS, MAX_INLINE_ARTIFACTS_TOTAL_BYTES } from '../limits.js';
import { publishOnce, type PublishedOfGroup } from '../runtime/hostArtifacts.js';
import type { ArtifactDetails } from '../workArtifacts.js';
import type { WorkExecution } from '../workExecution.js';
import type { WorkContract } from '../workDocuments.js';
import { ToolRefusal } from './toolSpec.js';

export interface InlineArtifact {
  readonly text: string;
  /** A deliverable of the Work Contract: its media type and schema are the defaults. */
  readonly deliverableId?: string;
  readonly mediaType?: string;
  readonly schemaUri?: string;
  readonly classification?: ArtifactDetails['classification'];
}

export interface ResolvedArtifact {
  readonly bytes: Buffer;
  readonly details: ArtifactDetails;
}

export interface SubmittedArtifact {
  readonly contentHash: string;
  readonly sizeBytes: number;
  readonly mediaType: string;
  /** False when it was published before: by this execution (a retried call), or by an earlier run of this WorkItem. */
  readonly published: boolean;
  /** True when an earlier run of this WorkItem had published it (adopted, hostArtifacts.ts). */
  readonly adopted?: true;
  /** True when it is kept to be published on reconnect with its kept `work.submit` (keptArtifacts.ts). */
  readonly kept?: true;
}

/** Who publishes, and how to find what the Group already published (to adopt an earlier run's). */
export interface PublishingAgent {
  readonly agentId: string;
  /** The Group's published Artifact with this content hash (the Authority's view), or undefined. */
  readonly lookup: (contentHash: string) => Promise<PublishedOfGroup | undefined>;
}

function refuse(reason: string, message: string): never {
  throw new ToolRefusal('INVALID_ARGUMENT', reason, message);
}

/** Checks every Artifact and says what each is; throws a ToolRefusal before anything is sent. */
export function resolveInlineArtifacts(artifacts: readonly InlineArtifact[], contract: WorkContract): ResolvedArtifact[] {
  if (artifacts.length === 0) refuse('artifact_required', 'a submission carries at least one Artifact');
  if (artifacts.length > MAX_INLINE_ARTIFACTS) refuse('too_many_inline_artifacts', `at most ${MAX_INLINE_ARTIFACTS} inline Artifacts in one call`);
  let total = 0;
  return artifacts.map((artifact, index) => {
    const bytes = Buffer.from(artifact.text, 'utf8');
    total += bytes.length;
    if (bytes.length > MAX_INLINE_ARTIFACT_BYTES) {
      refuse('inline_artifact_too_large', `artifact ${index} is ${bytes.length} bytes of UTF-8; an inline Artifact is at most ${MAX_INLINE_ARTIFACT_BYTES}`);
    }
    if (total > MAX_INLINE_ARTIFACTS_TOTAL_BYTES) refuse('inline_artifacts_too_large', `the inline Artifacts exceed ${MAX_INLINE_ARTIFACTS_TOTAL_BYTES} bytes together`);
    const deliverable = artifact.deliverableId === undefined ? undefined : contract.requiredDeliverables.find((d) => d.deliverableId === artifact.deliverableId);
    if (artifact.deliverableId !== undefined && deliverable === undefined) {
      refuse('unknown_deliverable', `artifact ${index}: the Work Contract names no deliverable ${artifact.deliverableId}`);
    }
    const mediaType = artifact.mediaType ?? deliverable?.mediaType;
    const schemaUri = artifact.schemaUri ?? deliverable?.schema;
    if (mediaType === undefined || schemaUri === undefined) refuse('artifact_type_required', `artifact ${index}: give a deliverableId, or a mediaType and a schemaUri`);
    return { bytes, details: { mediaType, schemaUri, ...(artifact.classification === undefined ? {} : { classification: artifact.classification }) } };
  });
}

/** Publishes each resolved Artifact through `execution`, in order; their hashes as submitted. */
export async function publishInlineArtifacts(execution: WorkExecution, artifacts: readonly ResolvedArtifact[], publisher: PublishingAgent): Promise<SubmittedArtifact[]> {
  const submitted: SubmittedArtifact[] = [];
  for (const { bytes, details } of artifacts) {
    const { contentHash, sizeBytes } = await hashArtifactSource({ bytes });
    if (execution.publishedArtifactHashes.includes(contentHash)) {
      submitted.push({ contentHash, sizeBytes, mediaType: details.mediaType, published: false });
      continue;
    }
    const once = await publishOnce({ workItemId: execution.workItemId, agentId: publisher.agentId, publish: (content) => execution.publishArtifact({ bytes: content }, details), lookup: publisher.lookup }, bytes);
    submitted.push({ contentHash: once.contentHash, sizeBytes, mediaType: details.mediaType, published: !once.adopted, ...(once.adopted ? { adopted: true as const } : {}) });
  }
  return submitted;
}
