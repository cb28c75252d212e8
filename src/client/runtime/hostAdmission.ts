/**
 * How work comes into the runtime host's runtime (§10.3, §11.1), whichever way this Agent came to
 * own it:
 *
 * - an offer is accepted only when the runtime would admit it now (a dry run of the pure
 *   scheduler, nothing saved): v0.1 core has no explicit decline Command (§15.1: a future profile
 *   may add one), so declining is not accepting; the Coordinator's offer expires or goes to another
 *   candidate;
 * - a WorkItem this Agent owns `queued` at the Authority that the runtime does not hold — accepted
 *   through another client of the same Agent (MCP, the CLI, its own code), or by this host before a
 *   crash let it record the admission — is picked up from the Group's Events while connected and
 *   from the Group's view on (re)start, and admitted under the Ownership Epoch the Authority names;
 * - owned work the runtime refuses all the same (its Group's quota filled between the dry run and
 *   the acceptance, or picked-up work over quota) is released at once: `work.start` for the
 *   Execution Lease a Worker-reported failure cites, then `work.fail` with the refusal's reason and
 *   a failure report, so the WorkItem is `failed` and its Coordinator may offer it again now
 *   (§10.2) instead of waiting for the ownership lease to run out.
 */

import type { MissionWeaveAgent } from '../agent.js';
import type { MissionWeaveWorker, OwnedWork } from '../worker.js';
import type { WorkItemDocument } from '../workDocuments.js';
import { authorityWorkItem, authorityWorkItems } from './hostReads.js';
import type { AdmitRequest, AgentRuntime } from './runtime.js';
import { declineReasonOf } from './schedulerRefusals.js';
import type { EffortBand, SchedulerRefusal } from './schedulerTypes.js';

export interface AdmissionContext {
  readonly agent: MissionWeaveAgent;
  readonly runtime: AgentRuntime;
  readonly worker: MissionWeaveWorker;
  readonly documents: Map<string, WorkItemDocument>;
  readonly effort: EffortBand;
  readonly log: (line: string) => void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What the runtime is asked to admit for `workItem` of `groupId` under `ownershipEpoch`. */
export function requestOf(groupId: string, workItem: WorkItemDocument, ownershipEpoch: number, effort: EffortBand): AdmitRequest {
  const { contract } = workItem;
  return {
    workItemId: workItem.workItemId,
    groupId,
    urgency: contract.requestedUrgency,
    deadlineMs: contract.deadline === undefined ? null : Date.parse(contract.deadline),
    effort,
    preemptible: true,
    ownershipEpoch,
  };
}

/** The WorkItem as work this Agent owns and may start (`queued` under its Ownership Epoch), or undefined. */
export function ownedQueued(groupId: string, workItem: WorkItemDocument | undefined, agentId: string): OwnedWork | undefined {
  if (workItem?.state !== 'queued' || workItem.owner?.agentId !== agentId) return undefined;
  return { groupId, workItemId: workItem.workItemId, ownershipEpoch: workItem.owner.ownershipEpoch, workItem };
}

/** The Group's WorkItems this Agent owns `queued` at the Authority now. */
export async function ownedInView(agent: MissionWeaveAgent, groupId: string): Promise<OwnedWork[]> {
  const items = await authorityWorkItems(agent, groupId);
  return items.map((item) => ownedQueued(groupId, item.document, agent.agentId)).filter((owned) => owned !== undefined);
}

/** The WorkItem as work this Agent owns `queued` at the Authority now, or undefined. */
export async function ownedNow(agent: MissionWeaveAgent, groupId: string, workItemId: string): Promise<OwnedWork | undefined> {
  return ownedQueued(groupId, (await authorityWorkItem(agent, groupId, workItemId))?.document, agent.agentId);
}

/** Admits owned work; a refusal other than "already held" releases it at the Authority. */
export async function admitOwned(ctx: AdmissionContext, owned: OwnedWork): Promise<boolean> {
  ctx.documents.set(owned.workItemId, owned.workItem);
  const admitted = ctx.runtime.admit(requestOf(owned.groupId, owned.workItem, owned.ownershipEpoch, ctx.effort));
  if (admitted.ok) return true;
  if (admitted.refusal.code === 'duplicate-work-item') return false;
  ctx.documents.delete(owned.workItemId);
  await release(ctx, owned, admitted.refusal);
  return false;
}

/** `work.start` then `work.fail` citing that lease: the WorkItem is `failed`, its Coordinator free to offer it again. */
export async function release(ctx: AdmissionContext, owned: OwnedWork, refusal: SchedulerRefusal): Promise<void> {
  const reason = `declined by the Worker's runtime: ${declineReasonOf(refusal.code)} (${refusal.code}); offer it again or elsewhere`;
  try {
    const execution = await ctx.worker.start(owned);
    try {
      await execution.fail(reason);
    } finally {
      execution.stop();
    }
    ctx.log(`released ${owned.workItemId}: ${refusal.code}`);
  } catch (error) {
    ctx.log(`release of ${owned.workItemId} (${refusal.code}) was not accepted: ${messageOf(error)}`);
  }
}
