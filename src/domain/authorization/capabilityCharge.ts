/**
 * The capability-token side of a usage charge (§12 "Capability-token budgets MUST be capped by
 * both the Work Contract and the authoritative remaining budget"): a tool host charges a call to
 * the token it was shown, and the charge must stay within that token's ceilings as well as the
 * budgets the ledger checks. `ext.missionweaveprotocol.core.resource_usage_record` calls this
 * when its payload names `capabilityTokenId`, and on acceptance counts the charge against the
 * grant (`withCapabilityCharge`, capabilityGrants.ts) with the ledger charge.
 *
 * The token must be valid now (`capabilityStatus.ts`: the WorkItem's newest grant, its lease
 * current and live) and the grant's cumulative usage plus `delta` within its limits in every
 * dimension; a dimension the token does not grant allows nothing. Over: `BUDGET_EXCEEDED`.
 */

import type { GroupState } from '../kinds/groupState.js';
import { refuse, type DecisionContext, type Refusal } from '../model.js';
import { addUsage, usageOverflow, type ResourceUsage } from '../budgetMath.js';
import { isRefusal } from '../workItem/fencing.js';
import { grantNamed } from '../workItem/capabilityGrants.js';
import { checkCapabilityValid } from './capabilityStatus.js';
import { AUTHORIZATION_REASONS } from './authorizationReasons.js';
import type { WorkRecord } from '../workItem/workRecord.js';

/** `null` when the charge fits the token; else the refusal (nothing is charged then). */
export function checkCapabilityCharge(state: GroupState, workItem: WorkRecord, capabilityTokenId: string, delta: ResourceUsage, ctx: DecisionContext): Refusal | null {
  void state;
  const named = grantNamed(workItem, capabilityTokenId);
  if (named === undefined) {
    return refuse('AUTH_FORBIDDEN', AUTHORIZATION_REASONS.capabilityUnknown, 'the WorkItem holds no such capability token', { workItemId: workItem.workItemId, capabilityTokenId });
  }
  const grant = checkCapabilityValid(workItem, named, ctx);
  if (isRefusal(grant)) return grant;
  const over = usageOverflow(addUsage(grant.used, delta), grant.limits);
  if (over === undefined) return null;
  return refuse('BUDGET_EXCEEDED', AUTHORIZATION_REASONS.capabilityLimit, `the charge exceeds the capability token's ${over} ceiling`, {
    workItemId: workItem.workItemId,
    capabilityTokenId,
    dimension: over,
    limit: grant.limits[over] ?? 0,
  });
}
