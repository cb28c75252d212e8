/**
 * The WorkItem tools of `missionweave mcp` (issue 14, part 3; issue 31 item 6): what an LLM Worker
 * needs to take part in governed work (§10.3, §11.3, §13) through the SDK's MissionWeaveWorker and
 * the Agent runtime — see the offers addressed to its Agent, accept one (winning a new Ownership
 * Epoch; held in the runtime's projection, so it survives a restart), list what it holds
 * (`work_held`), start it under an Execution Lease that is renewed in the background between
 * calls (heldWork.ts), and end the
 * execution with a checkpoint, a submission or a failure, each citing the current Ownership
 * Epoch and Lease ID. A model gives text: a submission's Artifacts come inline, bounded by the
 * limits in limits.ts and checked before anything is sent (inlineArtifacts.ts), and its
 * Evidence as drafts that the Agent fills in and signs (§13.2). Nothing here is new on the
 * wire: every Command is one the SDK already sends.
 *
 * While the Authority cannot be reached, a checkpoint, submission or failure is kept and sent on
 * reconnect: the answer says `queued`, with its Action ID (keptCommands.ts); a submission's
 * Artifacts are kept with it and published first (keptArtifacts.ts).
 *
 * Refusals come back as results: the Authority's MissionWeaveError (WORK_ALREADY_OWNED,
 * WORK_OFFER_EXPIRED, WORK_LEASE_EXPIRED…) passes through, and what is refused on this side is
 * a ToolRefusal with code INVALID_ARGUMENT and a reason of its own.
 */

import { z } from 'zod';
import { MAX_INLINE_ARTIFACTS, MAX_INLINE_EVIDENCE } from '../limits.js';
import type { WorkOffer } from '../worker.js';
import type { JsonObject } from '../documents.js';
import { authorityArtifact } from '../runtime/hostReads.js';
import { ownershipExpiresAt, runtimeRefusal, type HeldEntry, type HeldWork } from './heldWork.js';
import { publishInlineArtifacts, resolveInlineArtifacts } from './inlineArtifacts.js';
import { keepInlineArtifacts } from './keptArtifacts.js';
import { queuedResult, sentOrKept } from './keptCommands.js';
import { tool, type McpToolSpec } from './toolSpec.js';

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
    goal: workItem?.contract.goal,
    state: workItem?.state,
    held: entry.held,
    ownershipEpoch: entry.ownershipEpoch,
    ownershipExpiresAt: workItem?.state === 'queued' ? ownershipExpiresAt(workItem) : undefined,
    blockedReason: entry.blockedReason,
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

/** One held WorkItem for `work_held`: the Agent's own record and the WorkItem as it last saw it, nothing else. */
function heldOf(entry: HeldEntry): JsonObject {
  const execution = entry.execution?.leaseStatus === 'keeping' ? entry.execution : undefined;
  const workItem = entry.execution?.workItem ?? entry.workItem;
  return toJson({
    workItemId: entry.workItemId,
    goal: workItem?.contract.goal,
    state: workItem?.state,
    held: entry.held,
    ownershipEpoch: entry.ownershipEpoch,
    ownershipExpiresAt: workItem?.state === 'queued' ? ownershipExpiresAt(workItem) : undefined,
    lease: execution === undefined ? undefined : { executionLeaseId: execution.leaseId, expiresAt: execution.executionLease.expiresAt },
    blockedReason: entry.blockedReason,
    lastCheckpoint: entry.lastCheckpoint,
  });
}

function heldByGroup(held: HeldWork): JsonObject {
  const groups = new Map<string, JsonObject[]>();
  for (const entry of held.list()) {
    if (entry.held === 'ended') continue;
    groups.set(entry.groupId, [...(groups.get(entry.groupId) ?? []), heldOf(entry)]);
  }
  return toJson({
    recovering: held.isRecovering ? true : undefined,
    groups: [...groups.entries()].map(([groupId, work]) => ({ groupId, work })),
    notices: held.notices(),
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

/** The tools, sharing the runtime that holds this Agent's work. */
export function workTools(held: HeldWork): McpToolSpec[] {
  const { worker } = held;
  /** Waits for a restart's re-checks, then the running execution of `workItemId`. */
  const running = async (workItemId: string) => {
    await held.ready();
    return held.running(workItemId);
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
        await held.ready();
        const offer = worker.offers().find((o) => o.groupId === groupId && o.workItemId === workItemId);
        const refusal = offer === undefined ? null : held.refusalOf(groupId, offer.workItem);
        if (refusal !== null) throw runtimeRefusal(refusal, workItemId);
        const owned = await worker.accept({ groupId, workItemId }, ownershipLeaseSeconds === undefined ? {} : { ownershipLeaseSeconds });
        await held.accepted(owned);
        return toJson({ groupId, workItemId, state: owned.workItem.state, ownershipEpoch: owned.ownershipEpoch, startBy: owned.ownershipLease?.startBy ?? owned.ownershipLease?.expiresAt });
      },
    }),
    tool({
      name: 'work_start',
      description: 'Starts owned work under an Execution Lease kept renewed; returns the Work Contract.',
      input: { workItemId: id, executionLeaseSeconds: seconds.optional() },
      run: async ({ workItemId, executionLeaseSeconds }) => {
        await held.ready();
        const execution = await held.start(workItemId, executionLeaseSeconds === undefined ? {} : { executionLeaseSeconds });
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
        const execution = await running(workItemId);
        const checkpoint = { phase, ...(completedMilestones === undefined ? {} : { completedMilestones }), ...(nextStep === undefined ? {} : { nextStep }) };
        const ended = await held.checkpoint(execution, checkpoint, () => sentOrKept(execution, execution.checkpoint(checkpoint, resumeWithinSeconds === undefined ? {} : { resumeWithinSeconds })));
        if (ended.queued !== undefined) return queuedResult(workItemId, 'work.checkpoint', ended.queued);
        return toJson({ workItemId, state: execution.workItem.state, ownershipEpoch: execution.ownershipEpoch, resumeBy: ownershipExpiresAt(execution.workItem), sequence: ended.event.sequence });
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
        const execution = await running(workItemId);
        const resolved = resolveInlineArtifacts(artifacts, execution.workItem.contract);
        const publisher = { agentId: held.agent.agentId, lookup: (contentHash: string) => authorityArtifact(held.agent, execution.groupId, contentHash) };
        // The Authority out of reach: the Artifacts are kept with the submission, published on reconnect (keptArtifacts.ts).
        const offline = held.agent.sessionEpoch === undefined;
        let submitted = offline ? await keepInlineArtifacts(held.runtime.projection, held.agent.origin, execution, resolved) : await publishInlineArtifacts(execution, resolved, publisher);
        const artifactHashes = [...new Set(submitted.map((artifact) => artifact.contentHash))];
        const signed = await Promise.all(evidence.map((draft) => execution.evidence({ ...draft, artifactHashes })));
        if (offline && held.agent.sessionEpoch !== undefined) {
          // Back meanwhile: published now, so the submission is sent now, not kept.
          submitted = await publishInlineArtifacts(execution, resolved, publisher);
          held.runtime.projection.artifacts.drop(workItemId);
        }
        for (const artifact of submitted) if (artifact.adopted === true) held.log(`adopted ${artifact.contentHash} for ${workItemId}: an earlier run of it published the same content`);
        // No await from the check above to the signing: kept offline only with its Artifacts kept.
        const ending = held.ending(execution, () => sentOrKept(execution, execution.submit({ artifactHashes, evidence: signed })));
        // Not kept after all (refused here, the outbox full): neither are its Artifacts.
        const ended = await ending.catch((error: unknown) => {
          if (offline) held.runtime.projection.artifacts.drop(workItemId);
          throw error;
        });
        held.finished(execution, 'submitted');
        if (ended.queued !== undefined) return { ...queuedResult(workItemId, 'work.submit', ended.queued), artifacts: toJson({ submitted }).submitted ?? [] };
        return toJson({ workItemId, state: execution.workItem.state, artifacts: submitted, evidenceIds: signed.map((e) => e.evidenceId), sequence: ended.event.sequence });
      },
    }),
    tool({
      name: 'work_fail',
      description: 'Reports that running work failed, and why.',
      input: { workItemId: id, reason: z.string().min(1).max(4000) },
      run: async ({ workItemId, reason }) => {
        const execution = await running(workItemId);
        const ended = await held.ending(execution, () => sentOrKept(execution, execution.fail(reason)));
        held.finished(execution, 'failed');
        if (ended.queued !== undefined) return queuedResult(workItemId, 'work.fail', ended.queued);
        return toJson({ workItemId, state: execution.workItem.state, sequence: ended.event.sequence });
      },
    }),
    tool({
      name: 'work_status',
      description: 'Work held through these tools: state, epochs, lease, published Artifacts.',
      input: {},
      readOnly: true,
      run: async () => ({ work: held.list().map(statusOf) }),
    }),
    tool({
      name: 'work_held',
      description: 'Your held WorkItems per Group, kept across restarts: state, epoch, lease expiry, last checkpoint; and work withdrawn from you.',
      input: {},
      readOnly: true,
      run: async () => heldByGroup(held),
    }),
  ];
}
