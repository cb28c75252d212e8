/**
 * What the fault suite's WorkItems are made of: one small Work Contract (§10.1), the selection
 * basis every offer records (§10.3), signed Evidence for a submission and for the Coordinator's
 * review (§13.2), and the messages between the suite and its Worker processes.
 */

import { createHash, randomUUID, type KeyObject } from 'node:crypto';
import { timestampOf } from '#src/app/issueDocuments.js';
import type { BenchAgent } from '../bench/benchWorld.js';
import { signDocument } from '#src/protocol/signing/signDocument.js';
import type { Answer } from './agentLink.js';

/** The capability every Bench Agent's card declares (`mission.participation@1.0.0`). */
const CAPABILITY = { id: 'mission.participation', version: '1.0.0' };
export const CRITERION = 'result-recorded';

/** Where the WorkItems live: the work Mission's Group. */
export interface WorkGroup {
  readonly groupId: string;
  readonly missionId: string;
  readonly conversationId: string;
}

/** Each round's own goal: identical unfinished work is a duplicate decomposition (§20). */
export function workContract(nowMillis: number, workItemId: string): Record<string, unknown> {
  return {
    contractVersion: 1,
    goal: `Record one result (${workItemId}) while the fault suite injects Worker faults.`,
    requiredDeliverables: [{ deliverableId: 'result', description: 'A short result text.', mediaType: 'text/plain', schema: 'urn:missionweave:schema:fault-result' }],
    acceptanceCriteria: [{ criterionId: CRITERION, description: 'The result is recorded under a current lease.', evidenceRequired: ['deterministic_test'] }],
    inputArtifacts: [],
    dependencyWorkItemIds: [],
    allowedResources: [],
    requiredCapabilities: [CAPABILITY],
    deadline: timestampOf(nowMillis + 3_600_000),
    requestedUrgency: 'normal',
    businessImpact: 'Proves that a fenced Worker never completes work.',
    retryPolicy: { maxAttempts: 3, backoff: 'none', maxDelay: 'PT1M', retryableFailures: [] },
    budget: { toolCallLimit: 100 },
    sideEffectRisk: 'none',
    executionApproval: 'not_required',
  };
}

export function selectionBasis(nowMillis: number): Record<string, unknown> {
  return {
    requiredCapabilities: [CAPABILITY],
    verifiedMatches: [CAPABILITY],
    authorizationEligible: true,
    availabilityEstimate: timestampOf(nowMillis),
    expectedCost: 0,
    reliabilityEvidence: [],
    policyRulesApplied: ['fault-suite-race'],
  };
}

/** The content hash of a result text (what a Worker publishes and submits). */
export function resultHash(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/**
 * The signed manifest of a Worker's result text (§13.1), every required member filled in: the
 * producer is the Bench Agent with its first card (version 1, the suite's capability), the
 * content is where the store serves it.
 */
export function signedManifest(agent: BenchAgent, key: KeyObject, group: WorkGroup, workItemId: string, text: string, uri: string): Record<string, unknown> {
  const manifest = {
    artifactId: `urn:uuid:${randomUUID()}`,
    contentHash: resultHash(text),
    uri,
    sizeBytes: Buffer.byteLength(text),
    mediaType: 'text/plain',
    schemaUri: 'urn:missionweave:schema:fault-result',
    producer: { agentId: agent.id, agentCardVersion: 1, capabilities: [CAPABILITY] },
    missionId: group.missionId,
    groupId: group.groupId,
    workItemId,
    sourceArtifactHashes: [],
    toolVersions: [],
    modelVersions: [],
    classification: 'internal',
    createdAt: timestampOf(Date.now()),
  };
  return signDocument('artifact', manifest, { keyId: agent.keyId, privateKey: key });
}

/** Signed Evidence by `agent` about `workItemId` (§13.2). */
export function signedEvidence(agent: BenchAgent, key: KeyObject, group: WorkGroup, workItemId: string, type: 'deterministic_test' | 'reviewer_assessment', artifactHashes: readonly string[]): Record<string, unknown> {
  const createdAt = timestampOf(Date.now());
  const evidence = {
    evidenceId: `urn:uuid:${randomUUID()}`,
    missionId: group.missionId,
    groupId: group.groupId,
    workItemId,
    type,
    subject: { type: 'work_item', id: workItemId },
    criterionIds: [CRITERION],
    method: type === 'reviewer_assessment' ? 'The Coordinator read the submitted result.' : 'The Worker recorded its result.',
    result: 'passed',
    artifactHashes: [...artifactHashes],
    generatedBy: { type: 'agent', id: agent.id },
    createdAt,
  };
  return signDocument('evidence', evidence, { keyId: agent.keyId, privateKey: key });
}

/** A Worker process's task, sent by the suite. */
export type WorkerTask =
  | { readonly type: 'accept'; readonly taskId: number; readonly group: WorkGroup; readonly workItemId: string; readonly membershipEpoch: number; readonly ownershipLeaseSeconds: number; readonly at: number }
  | {
      readonly type: 'execute';
      readonly taskId: number;
      readonly group: WorkGroup;
      readonly workItemId: string;
      readonly membershipEpoch: number;
      readonly ownershipEpoch: number;
      readonly executionLeaseSeconds: number;
      readonly renewEveryMs: number;
      readonly workMs: number;
    };

export type AcceptOutcome = { readonly won: true; readonly ownershipEpoch: number } | { readonly won: false; readonly code: string };
export interface ExecuteOutcome {
  /** `submitted`, or what stopped the Worker (`start:CODE`, `submit:CODE`, `killed`). */
  readonly outcome: string;
  readonly renewals: number;
  readonly renewalsRefused: number;
}

export type ToWorker = { readonly type: 'init'; readonly agent: BenchAgent; readonly ca: string } | { readonly type: 'urls'; readonly urls: readonly string[] } | { readonly type: 'task'; readonly task: WorkerTask };

export type FromWorker =
  | { readonly type: 'urls' }
  | { readonly type: 'invoke'; readonly key: number; readonly workItemId: string; readonly command: Record<string, unknown> }
  | { readonly type: 'complete'; readonly key: number; readonly answer: Answer }
  | { readonly type: 'started'; readonly taskId: number; readonly leaseId: string }
  | { readonly type: 'accepted'; readonly taskId: number; readonly outcome: AcceptOutcome }
  | { readonly type: 'executed'; readonly taskId: number; readonly outcome: ExecuteOutcome };
