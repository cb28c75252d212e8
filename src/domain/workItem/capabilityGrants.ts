/**
 * The capability grants a WorkItem holds (§12), the typed `capabilityGrants` field of the work
 * slice's WorkItem record (`workRecord.ts`), which travels like its leases and approvals as one
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

import type { CapabilityGrantClaims } from '../../protocol/capabilityToken.js';
import { addUsage, NO_USAGE, type ResourceUsage } from '../budgetMath.js';
import { CAPABILITY_GRANTS_KEPT } from './authorizationLimits.js';

export const CAPABILITY_GRANTS_EXTENSION = 'urn:missionweave:extension:capability-grants';
export const CAPABILITY_GRANTS_VERSION = '0.1.0';

/** One grant: the claims its token carries, and the usage charged to it so far. */
export interface CapabilityGrant extends CapabilityGrantClaims {
  readonly used: ResourceUsage;
}

/** How many grants the current Execution Lease has had (`CAPABILITY_GRANTS_PER_LEASE`). */
export interface LeaseGrantCount {
  readonly executionLeaseId: string;
  readonly count: number;
}

export interface GrantsData {
  readonly grants?: readonly CapabilityGrant[];
  readonly perLease?: LeaseGrantCount;
}

/** The part of a WorkItem record (`workRecord.ts`) that holds its capability grants. */
export interface WithGrants {
  readonly capabilityGrants: GrantsData | undefined;
}

const NO_GRANTS: GrantsData = {};

function dataOf(record: WithGrants): GrantsData {
  return record.capabilityGrants ?? NO_GRANTS;
}

export function grantsOf(record: WithGrants): readonly CapabilityGrant[] {
  return dataOf(record).grants ?? [];
}

/** How many grants the Execution Lease `executionLeaseId` has had. */
export function grantsUnderLease(record: WithGrants, executionLeaseId: string): number {
  const perLease = dataOf(record).perLease;
  return perLease?.executionLeaseId === executionLeaseId ? perLease.count : 0;
}

/** `record` holding `claims` as its newest grant, at most `CAPABILITY_GRANTS_KEPT` of them. */
export function withGrant<R extends WithGrants>(record: R, claims: CapabilityGrantClaims): R {
  const grants = [...grantsOf(record), { ...claims, used: NO_USAGE }].slice(-CAPABILITY_GRANTS_KEPT);
  const perLease = { executionLeaseId: claims.executionLeaseId, count: grantsUnderLease(record, claims.executionLeaseId) + 1 };
  return { ...record, capabilityGrants: { grants, perLease } };
}

/** The newest grant: the only one whose token is valid. */
export function currentGrant(record: WithGrants): CapabilityGrant | undefined {
  return grantsOf(record).at(-1);
}

export function grantNamed(record: WithGrants, tokenId: string): CapabilityGrant | undefined {
  return grantsOf(record).find((grant) => grant.tokenId === tokenId);
}

/**
 * `workItem` with `delta` counted against the grant `tokenId`: what the decider of
 * `ext.missionweaveprotocol.core.resource_usage_record` applies, with the ledger charge, once
 * `checkCapabilityCharge` accepted the charge.
 */
export function withCapabilityCharge<R extends WithGrants>(record: R, tokenId: string, delta: ResourceUsage): R {
  const data = dataOf(record);
  return { ...record, capabilityGrants: { ...data, grants: grantsOf(record).map((grant) => (grant.tokenId === tokenId ? { ...grant, used: addUsage(grant.used, delta) } : grant)) } };
}
