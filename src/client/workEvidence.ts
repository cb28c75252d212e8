/**
 * Evidence for a WorkItem (§13.2), filled in from the WorkItem and signed by the Agent: a
 * submission maps its Evidence to the acceptance criteria, a Worker-reported failure carries a
 * `failure_report` (§10.2, §11.4: failure Evidence required), a Coordinator's acceptance its
 * review. The Agent's Signer signs it, so the Registry binds it to the Agent like its Commands.
 */

import { randomUUID } from 'node:crypto';
import type { CommandOptions } from './commands.js';
import type { ProtocolEvent } from './documents.js';
import { signEvidence, type Signer } from './signer.js';
import type { Evidence, EvidenceDraft, WorkItemDocument } from './workDocuments.js';

/** What the work helpers need of a MissionWeaveAgent. */
export interface WorkAgent {
  readonly agentId: string;
  readonly signer: Signer;
  readonly sessionEpoch: number | undefined;
  command(kind: string, payload: Readonly<Record<string, unknown>>, options?: CommandOptions): Promise<ProtocolEvent>;
}

/** Signs Evidence about `workItem` as `agent`: a fresh Evidence ID, the WorkItem as subject by default, now. */
export async function signWorkEvidence(agent: Pick<WorkAgent, 'agentId' | 'signer'>, workItem: Pick<WorkItemDocument, 'workItemId' | 'missionId' | 'groupId'>, draft: EvidenceDraft): Promise<Evidence> {
  const unsigned = {
    evidenceId: draft.evidenceId ?? `urn:uuid:${randomUUID()}`,
    missionId: workItem.missionId,
    groupId: workItem.groupId,
    workItemId: workItem.workItemId,
    type: draft.type,
    subject: draft.subject ?? { type: 'work_item' as const, id: workItem.workItemId },
    criterionIds: draft.criterionIds,
    method: draft.method,
    result: draft.result,
    ...(draft.details === undefined ? {} : { details: draft.details }),
    artifactHashes: draft.artifactHashes ?? [],
    generatedBy: { type: 'agent' as const, id: agent.agentId },
    ...(draft.toolVersion === undefined ? {} : { toolVersion: draft.toolVersion }),
    ...(draft.modelVersion === undefined ? {} : { modelVersion: draft.modelVersion }),
    createdAt: new Date().toISOString(),
  };
  const signed = await signEvidence(unsigned, agent.signer);
  return signed.document as Evidence;
}

/** A signed `failure_report` for the criteria of `workItem`'s contract, saying `reason`. */
export function failureReport(agent: Pick<WorkAgent, 'agentId' | 'signer'>, workItem: WorkItemDocument, reason: string): Promise<Evidence> {
  const criterionIds = workItem.contract.acceptanceCriteria.map((c) => c.criterionId);
  return signWorkEvidence(agent, workItem, { type: 'failure_report', criterionIds, method: 'Reported by the Worker that held the Execution Lease.', result: 'failed', details: { reason } });
}
