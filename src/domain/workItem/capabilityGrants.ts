/**
 * The capability grants a WorkItem holds (§12), kept like its leases and approvals in one
 * non-critical WorkItem extension, so that the WorkItem row alone answers whether a token is
 * still valid: a token is valid only while its grant is the WorkItem's newest one and the
 * Execution Lease it names is the current live lease of the same owner, Ownership Epoch and
 * Session. Lease closure, re-offer, cancellation, failure and Session replacement therefore
 * revoke every token with no write of their own, and a new grant supersedes the last (rotation).
 *
 * A grant records the token's claims, never the token: the claims are public, the signature
 * that makes them a token goes only to the requesting Session. Each grant also counts what has
 * been charged to it (`used`), which the token's ceilings are judged against.
 */

import type { Extension } from '../documents.js';
import type { CapabilityGrantClaims } from '../../protocol/capabilityToken.js';
import { addUsage, NO_USAGE, type ResourceUsage } from '../budgetMath.js';
import { CAPABILITY_GRANTS_KEPT } from './authorizationLimits.js';
import type { WorkRecord } from './workRecord.js';

export const CAPABILITY_GRANTS_EXTENSION = 'urn:missionweave:extension:capability-grants';
const CAPABILITY_GRANTS_VERSION = '0.1.0';

/** One grant: the claims its token carries, and the usage charged to it so far. */
export interface CapabilityGrant extends CapabilityGrantClaims {
  readonly used: ResourceUsage;
}

/** How many grants the current Execution Lease has had (`CAPABILITY_GRANTS_PER_LEASE`). */
export interface LeaseGrantCount {
  readonly executionLeaseId: string;
  readonly count: number;
}

interface GrantsData {
  readonly grants?: readonly CapabilityGrant[];
  readonly perLease?: LeaseGrantCount;
}

function dataOf(workItem: WorkRecord): GrantsData {
  return (workItem.extensions?.[CAPABILITY_GRANTS_EXTENSION]?.data ?? {}) as GrantsData;
}

export function grantsOf(workItem: WorkRecord): readonly CapabilityGrant[] {
  return dataOf(workItem).grants ?? [];
}

/** How many grants the Execution Lease `executionLeaseId` has had. */
export function grantsUnderLease(workItem: WorkRecord, executionLeaseId: string): number {
  const perLease = dataOf(workItem).perLease;
  return perLease?.executionLeaseId === executionLeaseId ? perLease.count : 0;
}

function withData(workItem: WorkRecord, data: GrantsData): WorkRecord {
  const extension = { version: CAPABILITY_GRANTS_VERSION, critical: false, data } as unknown as Extension;
  return { ...workItem, extensions: { ...workItem.extensions, [CAPABILITY_GRANTS_EXTENSION]: extension } };
}

/** `workItem` holding `claims` as its newest grant, at most `CAPABILITY_GRANTS_KEPT` of them. */
export function withGrant(workItem: WorkRecord, claims: CapabilityGrantClaims): WorkRecord {
  const grants = [...grantsOf(workItem), { ...claims, used: NO_USAGE }].slice(-CAPABILITY_GRANTS_KEPT);
  const perLease = { executionLeaseId: claims.executionLeaseId, count: grantsUnderLease(workItem, claims.executionLeaseId) + 1 };
  return withData(workItem, { grants, perLease });
}

/** The newest grant: the only one whose token is valid. */
export function currentGrant(workItem: WorkRecord): CapabilityGrant | undefined {
  return grantsOf(workItem).at(-1);
}

export function grantNamed(workItem: WorkRecord, tokenId: string): CapabilityGrant | undefined {
  return grantsOf(workItem).find((grant) => grant.tokenId === tokenId);
}

/**
 * `workItem` with `delta` counted against the grant `tokenId`: what the decider of
 * `ext.missionweaveprotocol.core.resource_usage_record` applies, with the ledger charge, once
 * `checkCapabilityCharge` accepted the charge.
 */
export function withCapabilityCharge(workItem: WorkRecord, tokenId: string, delta: ResourceUsage): WorkRecord {
  const data = dataOf(workItem);
  return withData(workItem, { ...data, grants: grantsOf(workItem).map((grant) => (grant.tokenId === tokenId ? { ...grant, used: addUsage(grant.used, delta) } : grant)) });
}
