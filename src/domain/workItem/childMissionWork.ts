/**
 * The parent WorkItem of a child Mission (§10.2, §14). Promotion makes it `blocked` whatever
 * state it was promoted from: "Ownership is fenced while the linked child Mission runs". The
 * WorkItem schema requires an owner and a selection basis of every `blocked` WorkItem, and §14
 * names who that is: the Parent Coordinator, acting as the child's MissionOwner. It owns the
 * WorkItem under a new Ownership Epoch (so every earlier owner is fenced) with a `blocked` lease
 * that runs to the child deadline. The child's outcome is settled later, in this Group, by the
 * Group Authority (`ext.missionweave.core.child_mission_settle`): there is no cross-Group
 * transaction (§10.4).
 */

import type { Lease, SelectionBasis, WorkProgress } from '../documents.js';
import type { DecisionContext } from '../model.js';
import { parseTimestamp } from '../../protocol/timestamp.js';
import { linksOf, withLinks, type ChildMissionLink } from './workItemDocuments.js';
import { closeLease, leasesOf, newWorkLease, withAllClosed, withLeases } from './workLeases.js';
import type { WorkRecord } from './workRecord.js';

/** The policy rule a promotion's selection basis names (§10.3: "applied policy rules"). */
export const CHILD_PROMOTION_RULE = '§14 child-mission promotion: the Parent Coordinator owns the WorkItem as child MissionOwner';

/** The next Ownership Epoch: above the current owner's and above any ever granted (§10.3). */
export function nextOwnershipEpoch(workItem: WorkRecord): number {
  return Math.max(workItem.owner?.ownershipEpoch ?? 0, leasesOf(workItem).lastOwnershipEpoch ?? 0) + 1;
}

/** Whole seconds from the acceptance time to `deadline`, at least one. */
function secondsUntil(deadline: string, ctx: DecisionContext): number {
  const instant = parseTimestamp(deadline);
  const seconds = instant === null ? 1 : instant.seconds - Math.floor(ctx.nowMillis / 1000);
  return Math.max(1, seconds);
}

/** The Parent Coordinator as the promoted WorkItem's holder. */
export interface ChildHolder {
  readonly agentId: string;
  readonly agentCardVersion: number;
  readonly sessionEpoch: number;
}

export interface Promotion {
  readonly workItem: WorkRecord;
  /** The new `blocked` lease of the Parent Coordinator. */
  readonly ownershipLease: Lease;
  /** The earlier owner's leases, revoked: the fencing the promotion did. */
  readonly revokedLeases: readonly Lease[];
}

export interface ChildPromotionSpec {
  readonly child: Omit<ChildMissionLink, 'outcome'>;
  readonly holder: ChildHolder;
  readonly childDeadline: string;
  readonly leaseId: string;
}

/** The progress a promoted WorkItem reports: blocked on its child until the child deadline (§11.4). */
function childProgress(child: Omit<ChildMissionLink, 'outcome'>, deadline: string): WorkProgress {
  return {
    currentPhase: 'child_mission',
    completedMilestones: [],
    nextCheckpoint: 'child Mission outcome',
    blockers: [`child Mission ${child.missionId} is running`],
    updatedCompletionEstimate: deadline,
    evidenceIds: [],
  };
}

/** The selection basis of a promotion: the contract's capabilities, carried by the child (§14). */
function promotionBasis(workItem: WorkRecord, ctx: DecisionContext): SelectionBasis {
  const required = workItem.contract.requiredCapabilities;
  return {
    requiredCapabilities: required,
    // The child Mission's Coordinator and Workers are held to the contract through the child's own
    // WorkItems; what the parent records is that the whole requirement moved to the child.
    verifiedMatches: required,
    authorizationEligible: true,
    availabilityEstimate: ctx.now,
    expectedCost: workItem.contract.budget.financialLimit ?? 0,
    reliabilityEvidence: [],
    policyRulesApplied: [CHILD_PROMOTION_RULE],
  };
}

/** The parent WorkItem once the child of `spec` runs for it; pending offers are withdrawn. */
export function promoteToChild(workItem: WorkRecord, spec: ChildPromotionSpec, ctx: DecisionContext): Promotion {
  const reason = `promoted to child Mission ${spec.child.missionId}`;
  const leases = leasesOf(workItem);
  const revokedLeases = [leases.ownership, leases.execution]
    .filter((lease): lease is Lease => lease !== undefined && lease.state === 'active')
    .map((lease) => closeLease(lease, 'revoked', reason, ctx));
  const ownershipEpoch = nextOwnershipEpoch(workItem);
  const offers = workItem.offers?.map((o) => (o.status === 'pending' ? { ...o, status: 'withdrawn' as const } : o));
  const blocked: WorkRecord = {
    ...workItem,
    revision: workItem.revision + 1,
    state: 'blocked',
    ...(offers === undefined ? {} : { offers }),
    updatedAt: ctx.now,
  };
  const ownershipLease = newWorkLease(
    {
      leaseId: spec.leaseId,
      leaseType: 'blocked',
      workItem: blocked,
      holderAgentId: spec.holder.agentId,
      sessionEpoch: spec.holder.sessionEpoch,
      ownershipEpoch,
      seconds: secondsUntil(spec.childDeadline, ctx),
    },
    ctx,
  );
  const owned: WorkRecord = {
    ...blocked,
    owner: {
      agentId: spec.holder.agentId,
      agentCardVersion: spec.holder.agentCardVersion,
      capabilityPins: workItem.contract.requiredCapabilities,
      ownershipEpoch,
      ownershipLeaseId: ownershipLease.leaseId,
      acceptedAt: ctx.now,
    },
    selectionBasis: promotionBasis(workItem, ctx),
    progress: childProgress(spec.child, spec.childDeadline),
  };
  const fenced = withAllClosed(leases, 'revoked', reason, ctx);
  const withLease = withLeases(owned, { ...fenced, ownership: ownershipLease, lastOwnershipEpoch: ownershipEpoch });
  return { workItem: withLinks(withLease, { ...linksOf(workItem), childMission: spec.child }), ownershipLease, revokedLeases };
}
