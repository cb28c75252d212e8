/**
 * The documents of the work module besides the WorkItem (§10): Work Proposals, Delegation Grants,
 * and a WorkItem's links. The WorkItem schema has no member for the links §9.1 and §14 require
 * (its parent WorkItem, the child Mission it was promoted to), so they are the typed `links` field
 * of the work slice's WorkItem record (`workRecord.ts`) and travel in one non-critical extension
 * of ours: readers that do not know it lose nothing the schema promises them.
 */

import type { Budget, CapabilityRef, Principal, WorkContract, WorkItem } from '../documents.js';
import type { DecisionContext } from '../model.js';

export const WORK_LINKS_EXTENSION = 'urn:missionweave:extension:work-item-links';
export const WORK_LINKS_VERSION = '0.1.0';

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
export function withChildReleased<R extends WithLinks>(record: R, state: ChildRelease['state'], ctx: DecisionContext): R {
  const links = linksOf(record);
  if (!waitsForChild(links.childMission)) return record;
  return withLinks(record, { ...links, childMission: { ...links.childMission, released: { state, releasedAt: ctx.now } } });
}

export interface WorkItemLinks {
  readonly parentWorkItemId?: string;
  /** The Delegation Grant a delegate authorized or offered it under (§9.1): its budget counts there. */
  readonly delegationGrantId?: string;
  readonly childMission?: ChildMissionLink;
}

/** The part of a WorkItem record (`workRecord.ts`) that holds its links. */
export interface WithLinks {
  readonly links: WorkItemLinks | undefined;
}

const NO_LINKS: WorkItemLinks = {};

export function linksOf(record: WithLinks): WorkItemLinks {
  return record.links ?? NO_LINKS;
}

export function withLinks<R extends WithLinks>(record: R, links: WorkItemLinks): R {
  return { ...record, links };
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
