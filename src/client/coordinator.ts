/**
 * `MissionWeaveCoordinator`: the Coordinator's side of governed work (§10.2, §10.3, §13.2) on a
 * MissionWeaveAgent — bring Workers into the Group, authorize WorkItems under a Work Contract,
 * offer them to candidates, follow every WorkItem through its Events, and accept (or fail, or
 * cancel) a submitted result.
 *
 * ```ts
 * const coordinator = new MissionWeaveCoordinator(agent);
 * await coordinator.admit(groupId, workerId);                        // a worker Membership
 * const { workItem } = await coordinator.authorize(groupId, { contract });
 * await coordinator.offer(groupId, { workItemId: workItem.workItemId, candidateAgentIds: [workerId], selectionBasis });
 * coordinator.onWorkItem(async (workItem) => {
 *   if (workItem.state !== 'submitted') return;
 *   const review = await coordinator.evidence(workItem, { type: 'reviewer_assessment', criterionIds: ['c1'], method: '…', result: 'passed' });
 *   await coordinator.acceptResult(workItem.groupId, workItem.workItemId, [review]);
 * });
 * ```
 *
 * Every Command carries the Coordinator Epoch and Membership Epoch learnt from the Group's Events
 * (GroupEpochs); a replaced Coordinator's Commands are refused as AUTH_STALE_COORDINATOR.
 */

import { randomUUID } from 'node:crypto';
import type { MissionWeaveAgent } from './agent.js';
import type { CommandOptions } from './commands.js';
import type { VerifiedContextPackage } from './contextPackages.js';
import type { GroupEvent, ProtocolEvent } from './documents.js';
import { GroupEpochs } from './groupEpochs.js';
import { adding } from './worker.js';
import { signWorkEvidence, type WorkAgent } from './workEvidence.js';
import { workItemOf, type Evidence, type EvidenceDraft, type WorkAuthorizePayload, type WorkItemDocument, type WorkOfferCreated, type WorkOfferPayload } from './workDocuments.js';

/** A Command's primary Event and the WorkItem as it stands after it. */
export interface WorkOutcome {
  readonly workItem: WorkItemDocument;
  readonly event: ProtocolEvent;
}

export type WorkItemHandler = (workItem: WorkItemDocument, event: GroupEvent) => Promise<void> | void;

export class MissionWeaveCoordinator {
  readonly epochs: GroupEpochs;
  private readonly agent: WorkAgent;
  private readonly source: MissionWeaveAgent;
  private readonly handlers: WorkItemHandler[] = [];
  private readonly detach: () => void;

  constructor(agent: MissionWeaveAgent, options: { readonly epochs?: GroupEpochs } = {}) {
    this.agent = agent;
    this.source = agent;
    this.epochs = options.epochs ?? new GroupEpochs(agent.agentId);
    this.detach = agent.onEvent(async (event) => {
      this.epochs.observe(event);
      const workItem = workItemOf(event);
      if (workItem !== undefined) for (const handler of [...this.handlers]) await handler(workItem, event);
    });
  }

  /**
   * Called with the WorkItem each WorkItem Event carries, in Group order, inside the Event
   * stream (the Cursor moves on once it resolves; a throw has the Event delivered again).
   */
  onWorkItem(handler: WorkItemHandler): () => void {
    return adding(this.handlers, handler);
  }

  /** Gives an Agent a Membership in the Group (`worker` unless said otherwise). */
  admit(groupId: string, agentId: string, roles: readonly string[] = ['worker']): Promise<ProtocolEvent> {
    return this.agent.command('membership.change', { principal: { type: 'agent', id: agentId }, roles }, this.options(groupId));
  }

  /** Creates an `open` WorkItem under `contract` (a fresh WorkItem ID unless one is given). */
  async authorize(groupId: string, payload: Omit<WorkAuthorizePayload, 'workItemId'> & { readonly workItemId?: string }): Promise<WorkOutcome> {
    const workItemId = payload.workItemId ?? `urn:uuid:${randomUUID()}`;
    return this.outcome(await this.agent.command('work.authorize', { ...payload, workItemId }, this.options(groupId, workItemId)));
  }

  /** Offers a WorkItem to its candidates; the first valid acceptance wins (§10.3). */
  async offer(groupId: string, payload: WorkOfferPayload): Promise<WorkOutcome & { readonly offerExpiresAt: string }> {
    const event = await this.agent.command('work.offer', { ...payload }, this.options(groupId, payload.workItemId));
    return { ...this.outcome(event), offerExpiresAt: (event.payload as WorkOfferCreated).offerExpiresAt };
  }

  /** Accepts a submitted result with review Evidence: the WorkItem becomes `verified`. */
  async acceptResult(groupId: string, workItemId: string, evidence: readonly Evidence[]): Promise<WorkOutcome> {
    return this.outcome(await this.agent.command('work.accept_result', { workItemId, evidence }, this.options(groupId, workItemId)));
  }

  /** Fails a WorkItem as the Coordinator (no lease cited), with failure Evidence. */
  async fail(groupId: string, workItemId: string, reason: string, evidence: readonly Evidence[]): Promise<WorkOutcome> {
    return this.outcome(await this.agent.command('work.fail', { workItemId, reason, evidence }, this.options(groupId, workItemId)));
  }

  async cancel(groupId: string, workItemId: string, reason: string): Promise<WorkOutcome> {
    return this.outcome(await this.agent.command('work.cancel', { workItemId, reason }, this.options(groupId, workItemId)));
  }

  /**
   * The signed Context Package the Group Authority issues a replacement Coordinator (§7.2),
   * verified (contextPackages.ts): call it once assigned, and reconcile current WorkItem state
   * from it and the Group's Events before issuing new assignments.
   */
  takeOver(groupId: string, options: { readonly missionId?: string; readonly waitMs?: number } = {}): Promise<VerifiedContextPackage> {
    return this.source.contextPackages().awaitLatest(groupId, { ...options, workItemId: null });
  }

  /** Signs review Evidence about `workItem` as the Coordinator (§13.2). */
  evidence(workItem: Pick<WorkItemDocument, 'workItemId' | 'missionId' | 'groupId'>, draft: EvidenceDraft): Promise<Evidence> {
    return signWorkEvidence(this.agent, workItem, draft);
  }

  close(): void {
    this.detach();
  }

  private options(groupId: string, workItemId?: string): CommandOptions {
    const facts = this.epochs.facts(groupId);
    return {
      groupId,
      ...(workItemId === undefined ? {} : { workItemId }),
      ...(facts?.membershipEpoch === undefined ? {} : { membershipEpoch: facts.membershipEpoch }),
      ...(facts?.coordinatorEpoch === undefined ? {} : { coordinatorEpoch: facts.coordinatorEpoch }),
    };
  }

  private outcome(event: ProtocolEvent): WorkOutcome {
    return { workItem: (event.payload as { workItem: WorkItemDocument }).workItem, event };
  }
}
