/**
 * The WorkItem tools of `missionweave mcp` (issue 14, part 3): what an LLM Worker needs to take
 * part in governed work (§10.3, §11.3, §13) through the SDK's MissionWeaveWorker — see the
 * offers addressed to its Agent, accept one (winning a new Ownership Epoch), start it under an
 * Execution Lease that is renewed in the background between calls (heldWork.ts), and end the
 * execution with a checkpoint, a submission or a failure, each citing the current Ownership
 * Epoch and Lease ID. A model gives text: a submission's Artifacts come inline, bounded by the
 * limits in limits.ts and checked before anything is sent (inlineArtifacts.ts), and its
 * Evidence as drafts that the Agent fills in and signs (§13.2). Nothing here is new on the
 * wire: every Command is one the SDK already sends.
 *
 * Refusals come back as results: the Authority's MissionWeaveError (WORK_ALREADY_OWNED,
 * WORK_OFFER_EXPIRED, WORK_LEASE_EXPIRED…) passes through, and what is refused on this side is
 * a ToolRefusal with code INVALID_ARGUMENT and a reason of its own.
 */

import { z } from 'zod';
import { MAX_INLINE_ARTIFACTS, MAX_INLINE_EVIDENCE } from '../limits.js';
import type { MissionWeaveWorker, WorkOffer } from '../worker.js';
import type { WorkExecution } from '../workExecution.js';
import type { JsonObject } from '../documents.js';
import { HeldWork, ownershipExpiresAt, type HeldEntry } from './heldWork.js';
import { publishInlineArtifacts, resolveInlineArtifacts } from './inlineArtifacts.js';
import { tool, ToolRefusal, type McpToolSpec } from './toolSpec.js';

/** A result as JSON: members left undefined are dropped, readonly arrays become plain ones. */
function toJson(value: object): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

// The node bounds and judges identifiers; an unknown one is its refusal, or not_running here.
const id = z.string().min(1);
const seconds = z.number().int().positive().max(31_536_000);

/** What a model needs to decide on an offer: the contract's substance, not its bookkeeping. */
function offerSummary(offer: WorkOffer): JsonObject {
  const contract = offer.workItem.contract;
  return toJson({
    groupId: offer.groupId,
    workItemId: offer.workItemId,
    goal: contract.goal,
    deliverables: contract.requiredDeliverables,
    acceptanceCriteria: contract.acceptanceCriteria,
    requiredCapabilities: contract.requiredCapabilities,
    deadline: contract.deadline,
    requestedUrgency: contract.requestedUrgency,
    budget: contract.budget,
    sideEffectRisk: contract.sideEffectRisk,
    executionApproval: contract.executionApproval,
    offerExpiresAt: offer.offerExpiresAt,
  });
}

function statusOf(entry: HeldEntry): JsonObject {
  const execution = entry.execution;
  const workItem = execution?.workItem ?? entry.workItem;
  const lost = execution?.leaseStatus === 'lost' ? (execution.signal.reason as Error | undefined)?.message : undefined;
  return toJson({
    groupId: entry.groupId,
    workItemId: entry.workItemId,
    goal: workItem.contract.goal,
    state: workItem.state,
    ownershipEpoch: entry.ownershipEpoch,
    ownershipExpiresAt: workItem.state === 'queued' ? ownershipExpiresAt(workItem) : undefined,
    execution:
      execution === undefined
        ? undefined
        : {
            executionLeaseId: execution.leaseId,
            leaseStatus: execution.leaseStatus,
            leaseExpiresAt: execution.executionLease.expiresAt,
            renewals: execution.renewals,
            publishedArtifactHashes: execution.publishedArtifactHashes,
            lost,
          },
  });
}

const evidenceDraft = z.strictObject({
  type: z.enum(['artifact_integrity', 'schema_validation', 'deterministic_test', 'business_rule', 'reviewer_assessment', 'human_review', 'policy_check']),
  criterionIds: z.array(z.string().min(1).max(128)).min(1).max(256),
  method: z.string().min(1).max(4000).describe('how it was checked, so a reviewer can repeat it'),
  result: z.enum(['passed', 'failed', 'inconclusive']),
  details: z.record(z.string(), z.unknown()).optional(),
  modelVersion: z.string().max(500).optional(),
});

const inlineArtifact = z.strictObject({
  text: z.string(),
  deliverableId: z.string().min(1).max(500).optional().describe("its deliverable: the type and schema unless given"),
  mediaType: z.string().regex(/^[-!#$&^_.+0-9A-Za-z]+\/[-!#$&^_.+0-9A-Za-z]+$/).optional(),
  schemaUri: z.string().min(1).max(2000).optional(),
  classification: z.enum(['public', 'internal', 'confidential', 'restricted']).optional(),
});

/** The tools, sharing one record of the work this Agent holds. */
export function workTools(worker: MissionWeaveWorker, held: HeldWork = new HeldWork()): McpToolSpec[] {
  const running = (workItemId: string): WorkExecution => {
    const execution = held.get(workItemId)?.execution;
    if (execution === undefined || execution.leaseStatus === 'stopped') {
      throw new ToolRefusal('INVALID_ARGUMENT', 'not_running', `WorkItem ${workItemId} is not running here: start it with work_start`);
    }
    return execution;
  };

  return [
    tool({
      name: 'work_offers',
      description: 'Open offers to you: goal, deliverables, criteria, deadline, budget, risk, expiry.',
      input: { groupId: id.optional() },
      readOnly: true,
      run: async ({ groupId }) => ({ offers: worker.offers().filter((offer) => groupId === undefined || offer.groupId === groupId).map(offerSummary) }),
    }),
    tool({
      name: 'work_accept',
      description: 'Accepts an offer: you own the WorkItem and must work_start it within `ownershipLeaseSeconds`.',
      input: { groupId: id, workItemId: id, ownershipLeaseSeconds: seconds.optional() },
      run: async ({ groupId, workItemId, ownershipLeaseSeconds }) => {
        const owned = await worker.accept({ groupId, workItemId }, ownershipLeaseSeconds === undefined ? {} : { ownershipLeaseSeconds });
        held.owned(owned);
        return toJson({ groupId, workItemId, state: owned.workItem.state, ownershipEpoch: owned.ownershipEpoch, startBy: owned.ownershipLease?.startBy ?? owned.ownershipLease?.expiresAt });
      },
    }),
    tool({
      name: 'work_start',
      description: 'Starts owned work under an Execution Lease kept renewed; returns the Work Contract.',
      input: { workItemId: id, executionLeaseSeconds: seconds.optional() },
      run: async ({ workItemId, executionLeaseSeconds }) => {
        const entry = held.get(workItemId);
        if (entry === undefined) throw new ToolRefusal('INVALID_ARGUMENT', 'not_owned', `WorkItem ${workItemId} was not accepted here: accept it with work_accept first`);
        if (entry.execution?.leaseStatus === 'keeping') throw new ToolRefusal('INVALID_ARGUMENT', 'already_running', `WorkItem ${workItemId} is already running under lease ${entry.execution.leaseId}`);
        const execution = await worker.start(entry, executionLeaseSeconds === undefined ? {} : { executionLeaseSeconds });
        held.running(execution);
        const { workItem } = execution;
        return toJson({ groupId: execution.groupId, workItemId, state: workItem.state, ownershipEpoch: execution.ownershipEpoch, executionLeaseId: execution.leaseId, leaseExpiresAt: execution.executionLease.expiresAt, conversationId: workItem.conversationId, contract: workItem.contract });
      },
    }),
    tool({
      name: 'work_checkpoint',
      description: 'Records progress and releases the lease; the work stays yours until work_start.',
      input: {
        workItemId: id,
        phase: z.string().min(1).max(500),
        completedMilestones: z.array(z.string().min(1).max(500)).max(256).optional(),
        nextStep: z.string().min(1).max(500).optional(),
        resumeWithinSeconds: seconds.optional(),
      },
      run: async ({ workItemId, phase, completedMilestones, nextStep, resumeWithinSeconds }) => {
        const execution = running(workItemId);
        const event = await execution.checkpoint({ phase, ...(completedMilestones === undefined ? {} : { completedMilestones }), ...(nextStep === undefined ? {} : { nextStep }) }, resumeWithinSeconds === undefined ? {} : { resumeWithinSeconds });
        held.owned({ groupId: execution.groupId, workItemId, ownershipEpoch: execution.ownershipEpoch, workItem: execution.workItem });
        return toJson({ workItemId, state: execution.workItem.state, ownershipEpoch: execution.ownershipEpoch, resumeBy: ownershipExpiresAt(execution.workItem), sequence: event.sequence });
      },
    }),
    tool({
      name: 'work_submit',
      description: 'Submits the result: Artifacts as text, and Evidence per acceptance criterion citing them.',
      input: {
        workItemId: id,
        artifacts: z.array(inlineArtifact).min(1).max(MAX_INLINE_ARTIFACTS),
        evidence: z.array(evidenceDraft).min(1).max(MAX_INLINE_EVIDENCE),
      },
      run: async ({ workItemId, artifacts, evidence }) => {
        const execution = running(workItemId);
        const resolved = resolveInlineArtifacts(artifacts, execution.workItem.contract);
        const submitted = await publishInlineArtifacts(execution, resolved);
        const artifactHashes = [...new Set(submitted.map((artifact) => artifact.contentHash))];
        const signed = await Promise.all(evidence.map((draft) => execution.evidence({ ...draft, artifactHashes })));
        const event = await execution.submit({ artifactHashes, evidence: signed });
        return toJson({ workItemId, state: execution.workItem.state, artifacts: submitted, evidenceIds: signed.map((e) => e.evidenceId), sequence: event.sequence });
      },
    }),
    tool({
      name: 'work_fail',
      description: 'Reports that running work failed, and why.',
      input: { workItemId: id, reason: z.string().min(1).max(4000) },
      run: async ({ workItemId, reason }) => {
        const execution = running(workItemId);
        const event = await execution.fail(reason);
        return toJson({ workItemId, state: execution.workItem.state, sequence: event.sequence });
      },
    }),
    tool({
      name: 'work_status',
      description: 'Work held through these tools: state, epochs, lease, published Artifacts.',
      input: {},
      readOnly: true,
      run: async () => ({ work: held.list().map(statusOf) }),
    }),
  ];
}
