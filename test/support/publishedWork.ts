/**
 * Work results through the real pipeline, for integration tests that need published Artifacts
 * (§13.1) or accepted WorkItem results (§7.3): a WorkItem offered to a Worker, accepted and
 * started; content stored in the Artifact store (`storeContent`) and its signed manifest
 * published with `artifact.publish`; the result submitted with Evidence covering every
 * acceptance criterion and accepted by the Coordinator on review Evidence. A Mission whose
 * WorkItems went through `acceptedResult` may submit those Artifacts for approval.
 */

import { randomUUID } from 'node:crypto';
import { sha256ContentHash } from '../../src/protocol/contentHash.js';
import { signDocument } from '../../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { storeContent } from '../../src/store/sql/artifactContents.js';
import type { Actor, Harness } from './harness.js';
import type { MissionRefs } from './missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './payloadExamples.js';

/** The capability the example contract requires: a Worker created with it can be offered the work. */
export const WORKER_CAPABILITIES = ['acme.sql-migration@1.5.0'];

const SELECTION = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
const CRITERIA = EXAMPLE_WORK_CONTRACT.acceptanceCriteria.map((c) => c.criterionId);

export interface ActiveWork {
  readonly m: MissionRefs;
  readonly workItemId: string;
  readonly worker: Actor;
  readonly executionLeaseId: string;
}

/** How the WorkItem is set up: whether the Worker must join the Group first, its budget (EUR) and how far off its deadline is. */
export interface WorkOptions {
  readonly join?: boolean;
  readonly financialLimit?: number;
  readonly deadlineSeconds?: number;
}

export interface WorkParties {
  readonly owner: Actor;
  readonly coordinator: Actor;
  /** Must hold `WORKER_CAPABILITIES`. */
  readonly worker: Actor;
}

function now(h: Harness): string {
  return new Date(h.clock.millis).toISOString();
}

function payloadOf(outcome: { events: readonly { text: string }[] }): JsonObject {
  return (JSON.parse(outcome.events[0]?.text ?? '{}') as { payload: JsonObject }).payload;
}

/** A WorkItem of `m` offered to the Worker, accepted and started by it (the Worker joins the Group first if it must). */
export async function activeWork(h: Harness, m: MissionRefs, parties: WorkParties, options: WorkOptions = {}): Promise<ActiveWork> {
  const asMember = { groupId: m.groupId, membershipEpoch: 1 };
  const asCoordinator = { ...asMember, coordinatorEpoch: 1 };
  if (options.join ?? true) await h.expectOk(h.send(parties.owner, 'membership.change', { principal: { ...parties.worker.principal }, roles: ['worker'] }, asMember));
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(h.clock.millis + (options.deadlineSeconds ?? 86_400) * 1000).toISOString(), budget: { currency: 'EUR', financialLimit: options.financialLimit ?? 80 } };
  await h.expectOk(h.send(parties.coordinator, 'work.authorize', { workItemId, contract }, asCoordinator));
  await h.expectOk(h.send(parties.coordinator, 'work.offer', { workItemId, candidateAgentIds: [parties.worker.principal.id], selectionBasis: SELECTION }, asCoordinator));
  await h.expectOk(h.send(parties.worker, 'work.accept_offer', { workItemId, ownershipLeaseSeconds: 900 }, asMember));
  const started = payloadOf(await h.expectOk(h.send(parties.worker, 'work.start', { workItemId, ownershipEpoch: 1, executionLeaseSeconds: 900 }, asMember)));
  return { m, workItemId, worker: parties.worker, executionLeaseId: (started['executionLease'] as { leaseId: string }).leaseId };
}

/** `content` stored whole in the Artifact store; its content hash. */
export async function storedContent(h: Harness, content: string, uploader: Actor): Promise<string> {
  const hash = sha256ContentHash(content);
  await storeContent(h.pool, h.settings.services.organizationId, hash, [Buffer.from(content)], uploader.principal.id, now(h));
  return hash;
}

/** The Worker's signed manifest of stored content `hash` of `byteLength` bytes. */
export function signedManifest(h: Harness, work: ActiveWork, hash: string, byteLength: number, extra: object = {}): JsonObject {
  const unsigned = {
    artifactId: `urn:missionweave:artifact:${randomUUID()}`,
    contentHash: hash,
    uri: `https://artifacts.example/${hash}`,
    sizeBytes: byteLength,
    mediaType: 'text/plain',
    schemaUri: 'urn:missionweave:schema:text',
    producer: { agentId: work.worker.principal.id, agentCardVersion: 1, capabilities: [{ id: 'acme.sql-migration', version: '1.5.0' }] },
    missionId: work.m.missionId,
    groupId: work.m.groupId,
    workItemId: work.workItemId,
    sourceArtifactHashes: [],
    toolVersions: [],
    modelVersions: [],
    classification: 'internal',
    createdAt: now(h),
    ...extra,
  };
  return signDocument('artifact', unsigned, work.worker.key) as unknown as JsonObject;
}

/** Sends `artifact.publish` of `manifest` under the Worker's current lease. */
export function publish(h: Harness, work: ActiveWork, manifest: JsonObject) {
  return h.send(work.worker, 'artifact.publish', { artifact: manifest, ownershipEpoch: 1, executionLeaseId: work.executionLeaseId }, { groupId: work.m.groupId, membershipEpoch: 1 });
}

/** Stores `content` and publishes it as an Artifact of the WorkItem; its content hash. */
export async function publishedArtifact(h: Harness, work: ActiveWork, content: string): Promise<string> {
  const hash = await storedContent(h, content, work.worker);
  await h.expectOk(publish(h, work, signedManifest(h, work, hash, Buffer.byteLength(content))));
  return hash;
}

/** Evidence about the WorkItem by `by`, naming every acceptance criterion, signed with its key. */
export function workEvidence(h: Harness, work: ActiveWork, by: Actor, type: string, artifactHashes: readonly string[] = []): JsonObject {
  const unsigned = {
    evidenceId: `urn:missionweave:evidence:${randomUUID()}`,
    missionId: work.m.missionId,
    groupId: work.m.groupId,
    workItemId: work.workItemId,
    type,
    subject: { type: 'work_item', id: work.workItemId },
    criterionIds: CRITERIA,
    method: 'ran the migration on a copy',
    result: 'passed',
    artifactHashes: [...artifactHashes],
    generatedBy: { ...by.principal },
    createdAt: now(h),
  };
  return signDocument('evidence', unsigned, by.key) as unknown as JsonObject;
}

/** Sends `work.submit` of `artifactHashes` with the Worker's deterministic-test Evidence. */
export function submitWork(h: Harness, work: ActiveWork, artifactHashes: readonly string[]) {
  const payload = { workItemId: work.workItemId, ownershipEpoch: 1, executionLeaseId: work.executionLeaseId, artifactHashes: [...artifactHashes], evidence: [workEvidence(h, work, work.worker, 'deterministic_test', artifactHashes)] };
  return h.send(work.worker, 'work.submit', payload, { groupId: work.m.groupId, membershipEpoch: 1 });
}

/**
 * A WorkItem of `m` taken from offer to `verified`, its result the Artifacts of `contents` (one
 * published Artifact each); their content hashes, which `mission.submit_for_approval` then takes.
 */
export async function acceptedResult(h: Harness, m: MissionRefs, parties: WorkParties, contents: readonly string[], options: WorkOptions = {}): Promise<string[]> {
  const work = await activeWork(h, m, parties, options);
  const hashes: string[] = [];
  for (const content of contents) hashes.push(await publishedArtifact(h, work, content));
  await h.expectOk(submitWork(h, work, hashes));
  const review = workEvidence(h, work, parties.coordinator, 'reviewer_assessment', hashes);
  await h.expectOk(h.send(parties.coordinator, 'work.accept_result', { workItemId: work.workItemId, evidence: [review] }, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
  return hashes;
}
