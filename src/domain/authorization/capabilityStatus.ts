/**
 * Whether a capability token is valid now (§12 "Expired, revoked, mismatched, or over-budget
 * tokens MUST be rejected"), judged from the WorkItem alone: the answer the online status check
 * gives a tool host and the first check of every charge. The signature was checked before: the
 * claims are the Authority's own.
 *
 * - unknown (no grant of that token ID on the WorkItem) or mismatched (a grant whose binding
 *   differs from the claims): `AUTH_FORBIDDEN`;
 * - expired (the claims' expiry has passed by the Authority's clock): `WORK_LEASE_EXPIRED`, the
 *   §19 code for "required lease is no longer valid" — a token is a lease on capabilities;
 * - revoked: a newer grant superseded it (rotation), or the Execution Lease it names is no
 *   longer the current live lease of that owner, Ownership Epoch and Session (closed, expired,
 *   re-offered, cancelled, the Session replaced): `AUTH_FORBIDDEN` with reason
 *   `capability-revoked`.
 */

import { refuse, type DecisionContext, type Refusal } from '../model.js';
import { isAfterNow } from '../rules.js';
import type { CapabilityGrantClaims } from '../../protocol/capabilityToken.js';
import { leasesOf } from '../workItem/workLeases.js';
import { currentGrant, grantNamed, type CapabilityGrant } from '../workItem/capabilityGrants.js';
import { AUTHORIZATION_REASONS } from './authorizationReasons.js';
import type { WorkRecord } from '../workItem/workRecord.js';

const BINDING = ['agentId', 'sessionEpoch', 'missionId', 'groupId', 'workItemId', 'ownershipEpoch', 'executionLeaseId', 'issuedAt', 'expiresAt'] as const;

function revoked(workItem: WorkRecord, tokenId: string, why: string): Refusal {
  return refuse('AUTH_FORBIDDEN', AUTHORIZATION_REASONS.capabilityRevoked, `the capability token is revoked: ${why}`, { workItemId: workItem.workItemId, capabilityTokenId: tokenId });
}

/** Whether the lease the grant names still holds for the grant's owner, epoch and Session. */
function leaseRevocation(workItem: WorkRecord, grant: CapabilityGrant, ctx: DecisionContext): string | undefined {
  if (workItem.state !== 'active') return `the WorkItem is ${workItem.state}`;
  const owner = workItem.owner;
  if (owner === undefined || owner.agentId !== grant.agentId || owner.ownershipEpoch !== grant.ownershipEpoch) return 'the ownership changed';
  const { execution } = leasesOf(workItem);
  if (execution === undefined || execution.leaseId !== grant.executionLeaseId || execution.state !== 'active') return 'its Execution Lease is closed';
  if (!isAfterNow(execution.expiresAt, ctx)) return 'its Execution Lease expired';
  if (execution.sessionEpoch !== grant.sessionEpoch) return 'its Session was replaced';
  const current = ctx.agent(grant.agentId)?.sessionEpoch;
  if (current !== undefined && current > grant.sessionEpoch) return 'its Session was replaced';
  return undefined;
}

/** The grant of a valid token, or the refusal. */
export function checkCapabilityValid(workItem: WorkRecord, claims: Pick<CapabilityGrantClaims, 'tokenId' | (typeof BINDING)[number]>, ctx: DecisionContext): CapabilityGrant | Refusal {
  const details = { workItemId: workItem.workItemId, capabilityTokenId: claims.tokenId };
  const grant = grantNamed(workItem, claims.tokenId);
  if (grant === undefined) return refuse('AUTH_FORBIDDEN', AUTHORIZATION_REASONS.capabilityUnknown, 'the WorkItem holds no such capability token', details);
  const differs = BINDING.find((member) => grant[member] !== claims[member]);
  if (differs !== undefined) return refuse('AUTH_FORBIDDEN', AUTHORIZATION_REASONS.capabilityMismatch, `the token's ${differs} is not the grant's`, { ...details, member: differs });
  if (!isAfterNow(grant.expiresAt, ctx)) return refuse('WORK_LEASE_EXPIRED', AUTHORIZATION_REASONS.capabilityExpired, 'the capability token has expired', details);
  if (currentGrant(workItem)?.tokenId !== grant.tokenId) return revoked(workItem, grant.tokenId, 'a newer token superseded it');
  const why = leaseRevocation(workItem, grant, ctx);
  return why === undefined ? grant : revoked(workItem, grant.tokenId, why);
}
