/**
 * Building and changing normative WorkItems (§10). The WorkItem schema has no member for the
 * links §9.1 and §14 require (its parent WorkItem, the child Mission it was promoted to), so
 * they travel in one non-critical extension of ours: readers that do not know it lose nothing
 * the schema promises them.
 */

import { toJson, type Budget, type CapabilityRef, type Extension, type Principal, type WorkContract, type WorkItem } from '../documents.js';
import type { DecisionContext } from '../model.js';

export const WORK_LINKS_EXTENSION = 'urn:missionweave:extension:work-item-links';
const WORK_LINKS_VERSION = '0.1.0';

export type ChildFailurePolicy = 'block_parent_work_item' | 'fail_parent_work_item' | 'fail_parent_mission';

/** How a terminal child Mission ended, as the Group Authority settled it on the parent (§14). */
export interface ChildOutcome {
  readonly state: 'approved' | 'failed' | 'cancelled';
  readonly settledAt: string;
  /** The child's Approval (approved children): the parent WorkItem's Evidence. */
  readonly approvalId?: string;
  /** Why the child failed or was cancelled: the structured failure Evidence of §14. */
  readonly reason?: string;
}

/** The WorkItem failed or was cancelled while its child ran (§10.2, §14): it no longer waits for the child. */
export interface ChildRelease {
  readonly state: 'failed' | 'cancelled';
  readonly releasedAt: string;
}

export interface ChildMissionLink {
  readonly missionId: string;
  readonly groupId: string;
  readonly failurePolicy: ChildFailurePolicy;
  /** Absent while the child runs; set once, by `ext.missionweave.core.child_mission_settle`. */
  readonly outcome?: ChildOutcome;
  /**
   * Set when `work.cancel` or `work.fail` ended the WorkItem before the child's outcome was
   * settled: the Group Authority then cancels the child in its own Group (src/app/reactor/
   * childSweeps.ts) and nothing is settled on the WorkItem, which is free to be offered again.
   */
  readonly released?: ChildRelease;
}

/** Whether the WorkItem waits for its linked child Mission: promoted, neither settled nor released. */
export function waitsForChild(link: ChildMissionLink | undefined): link is ChildMissionLink {
  return link !== undefined && link.outcome === undefined && link.released === undefined;
}

/** `workItem`, ended as `state`, released from the child it waited for, if any (§10.2, §14). */
export function withChildReleased<W extends WorkItem>(workItem: W, state: ChildRelease['state'], ctx: DecisionContext): W {
  const links = linksOf(workItem);
  if (!waitsForChild(links.childMission)) return workItem;
  return withLinks(workItem, { ...links, childMission: { ...links.childMission, released: { state, releasedAt: ctx.now } } });
}

export interface WorkItemLinks {
  readonly parentWorkItemId?: string;
  /** The Delegation Grant a delegate authorized or offered it under (§9.1): its budget counts there. */
  readonly delegationGrantId?: string;
  readonly childMission?: ChildMissionLink;
}

export function linksOf(workItem: WorkItem): WorkItemLinks {
  const data = workItem.extensions?.[WORK_LINKS_EXTENSION]?.data;
  return (data ?? {}) as WorkItemLinks;
}

export function withLinks<W extends WorkItem>(workItem: W, links: WorkItemLinks): W {
  // The links are plain JSON data of ours; the nested outcome makes them a readonly interface.
  const extension: Extension = { version: WORK_LINKS_VERSION, critical: false, data: toJson(links) };
  return { ...workItem, extensions: { ...workItem.extensions, [WORK_LINKS_EXTENSION]: extension } };
}

export interface NewWorkItem {
  readonly workItemId: string;
  readonly missionId: string;
  readonly groupId: string;
  readonly conversationId: string;
  readonly contract: WorkContract;
  readonly exclusive: boolean;
  readonly parentWorkItemId?: string;
  readonly delegationGrantId?: string;
  /** Who wrote the contract when it is not the authorizer: a Work Proposal's proposer (§10.2). */
  readonly createdBy?: Principal;
}

export function newWorkItem(spec: NewWorkItem, actor: Principal, ctx: DecisionContext): WorkItem {
  const author = { type: actor.type, id: actor.id };
  const creator = spec.createdBy === undefined ? author : { type: spec.createdBy.type, id: spec.createdBy.id };
  const workItem: WorkItem = {
    workItemId: spec.workItemId,
    missionId: spec.missionId,
    groupId: spec.groupId,
    conversationId: spec.conversationId,
    revision: 1,
    state: 'open',
    exclusive: spec.exclusive,
    contract: spec.contract,
    createdBy: creator,
    authorizedBy: author,
    createdAt: ctx.now,
  };
  const links: WorkItemLinks = {
    ...(spec.parentWorkItemId === undefined ? {} : { parentWorkItemId: spec.parentWorkItemId }),
    ...(spec.delegationGrantId === undefined ? {} : { delegationGrantId: spec.delegationGrantId }),
  };
  return Object.keys(links).length === 0 ? workItem : withLinks(workItem, links);
}

/** States from which a WorkItem may be promoted to a child Mission (§10.2). */
export const PROMOTABLE_STATES: readonly WorkItem['state'][] = ['open', 'offered', 'queued', 'active', 'blocked'];

/** A Work Proposal (§10.2 "open Work Proposal"): any member's suggestion; no WorkItem yet. */
export interface WorkProposal {
  readonly proposalId: string;
  readonly missionId: string;
  readonly groupId: string;
  readonly proposer: Principal;
  readonly contract: WorkContract;
  readonly dependencyIds: readonly string[];
  readonly parentWorkItemId?: string;
  readonly state: 'open' | 'authorized';
  readonly authorizedWorkItemId?: string;
  readonly proposedAt: string;
  readonly revision: number;
}

/** A Delegation Grant (§9.1) with every member the section lists, and what has been used of it. */
export interface DelegationGrant {
  readonly grantId: string;
  readonly granteeAgentId: string;
  readonly missionId: string;
  readonly groupId: string;
  readonly targetWorkItemId: string;
  readonly allowedCapabilities: readonly CapabilityRef[];
  readonly budget: Budget;
  readonly maxDescendantDepth: number;
  readonly granteeMembershipEpoch: number;
  readonly coordinatorEpoch: number;
  readonly issuedBy: Principal;
  readonly grantedAt: string;
  readonly expiresAt: string;
  /** WorkItems authorized or offered under the Grant: their budgets count against its ceilings. */
  readonly usedBy: readonly string[];
  readonly revision: number;
}
