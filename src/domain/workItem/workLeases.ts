/**
 * The leases a WorkItem runs under (§11.3): the ownership lease that `work.accept_offer` begins
 * (a `blocked` lease while the WorkItem is blocked) and the Execution Lease of `work.start`. They
 * are normative Lease documents, the typed `leases` field of the work slice's WorkItem record
 * (`workRecord.ts`), which travels and is stored as one non-critical extension of the WorkItem, so
 * that the WorkItem row alone answers every fencing question and a reader that does not know the
 * extension loses nothing the WorkItem schema promises. Closed leases live on in the Events that
 * closed them; the field keeps the last few closed Execution Leases, which offline reconciliation
 * (§11.5) judges buffered progress against.
 */

import type { Lease, WorkItem } from '../documents.js';
import type { DecisionContext } from '../model.js';
import { isAfterNow, nowPlusSeconds } from '../rules.js';

export const WORK_LEASES_EXTENSION = 'urn:missionweave:extension:work-leases';
export const WORK_LEASES_VERSION = '0.1.0';

/** How many closed Execution Leases a WorkItem remembers: the window offline reconciliation sees. */
export const CLOSED_LEASES_KEPT = 16;

/** The last checkpoint a Worker reported (§11.4), the point a new owner resumes from. */
export interface WorkCheckpoint {
  readonly phase: string;
  readonly completedMilestones?: readonly string[];
  readonly nextStep?: string;
  readonly stateArtifactHash?: string;
  readonly createdAt?: string;
}

export interface WorkLeases {
  /** The current ownership (or blocked) lease; present while the WorkItem has an owner. */
  readonly ownership?: Lease;
  /** The current Execution Lease; present only while the WorkItem is `active`. */
  readonly execution?: Lease;
  /** The most recently closed Execution Leases, newest last, at most `CLOSED_LEASES_KEPT`. */
  readonly closed?: readonly Lease[];
  readonly checkpoint?: WorkCheckpoint;
  /**
   * The highest Ownership Epoch this WorkItem ever granted. It outlives the owner, which is
   * cleared when fenced, so that every new owner gets a strictly higher epoch (§10.3, §11.5).
   */
  readonly lastOwnershipEpoch?: number;
}

/** The part of a WorkItem record (`workRecord.ts`) that holds its leases. */
export interface WithLeases {
  readonly leases: WorkLeases | undefined;
}

const NO_LEASES: WorkLeases = {};

export function leasesOf(record: WithLeases): WorkLeases {
  return record.leases ?? NO_LEASES;
}

/** `record` holding `leases`, members without a value left out. */
export function withLeases<R extends WithLeases>(record: R, leases: WorkLeases): R {
  const kept: WorkLeases = {
    ...(leases.ownership === undefined ? {} : { ownership: leases.ownership }),
    ...(leases.execution === undefined ? {} : { execution: leases.execution }),
    ...(leases.closed === undefined || leases.closed.length === 0 ? {} : { closed: leases.closed }),
    ...(leases.checkpoint === undefined ? {} : { checkpoint: leases.checkpoint }),
    ...(leases.lastOwnershipEpoch === undefined ? {} : { lastOwnershipEpoch: leases.lastOwnershipEpoch }),
  };
  return { ...record, leases: kept };
}

/** A lease in force at the acceptance time: active and not past its expiry (Authority clock only). */
export function isLive(lease: Lease | undefined, ctx: DecisionContext): lease is Lease {
  return lease !== undefined && lease.state === 'active' && isAfterNow(lease.expiresAt, ctx);
}

export interface NewWorkLease {
  readonly leaseId: string;
  readonly leaseType: 'ownership' | 'execution' | 'blocked';
  readonly workItem: WorkItem;
  readonly holderAgentId: string;
  readonly sessionEpoch: number;
  readonly ownershipEpoch: number;
  readonly seconds: number;
  readonly startBy?: string;
}

export function newWorkLease(spec: NewWorkLease, ctx: DecisionContext): Lease {
  return {
    leaseId: spec.leaseId,
    leaseType: spec.leaseType,
    missionId: spec.workItem.missionId,
    groupId: spec.workItem.groupId,
    workItemId: spec.workItem.workItemId,
    holderAgentId: spec.holderAgentId,
    sessionEpoch: spec.sessionEpoch,
    ownershipEpoch: spec.ownershipEpoch,
    ...(spec.startBy === undefined ? {} : { startBy: spec.startBy }),
    issuedAt: ctx.now,
    startsAt: ctx.now,
    expiresAt: nowPlusSeconds(ctx, spec.seconds),
    state: 'active',
    renewalCount: 0,
  };
}

/** The lease renewed until `seconds` from now: same Lease ID, one more renewal (§11.3). */
export function renewLease(lease: Lease, seconds: number, ctx: DecisionContext): Lease {
  return { ...lease, expiresAt: nowPlusSeconds(ctx, seconds), renewalCount: lease.renewalCount + 1, lastRenewedAt: ctx.now };
}

/**
 * The lease closed at `ctx.now`. Checkpoint, block and submission release it; timeout expires
 * it; Session replacement, reassignment, cancellation and failure revoke it (§11.3). A lease whose
 * expiry has passed is recorded as `expired` whatever closes it.
 */
export function closeLease(lease: Lease, state: 'released' | 'revoked' | 'expired', reason: string, ctx: DecisionContext): Lease {
  const closedState = lease.state !== 'active' ? lease.state : isAfterNow(lease.expiresAt, ctx) ? state : 'expired';
  return { ...lease, state: closedState, closedAt: lease.closedAt ?? ctx.now, closureReason: lease.closureReason ?? reason };
}

/** `leases` with its Execution Lease closed and remembered among the closed ones. */
export function withExecutionClosed(leases: WorkLeases, state: 'released' | 'revoked' | 'expired', reason: string, ctx: DecisionContext): WorkLeases {
  const { execution, ...rest } = leases;
  if (execution === undefined) return leases;
  const closed = [...(leases.closed ?? []), closeLease(execution, state, reason, ctx)].slice(-CLOSED_LEASES_KEPT);
  return { ...rest, closed };
}

/** `leases` with every lease closed: the owner is fenced or the WorkItem has ended. */
export function withAllClosed(leases: WorkLeases, state: 'released' | 'revoked' | 'expired', reason: string, ctx: DecisionContext): WorkLeases {
  const { ownership, ...rest } = withExecutionClosed(leases, state, reason, ctx);
  void ownership;
  return rest;
}
