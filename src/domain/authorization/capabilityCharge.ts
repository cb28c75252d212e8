/**
 * The capability-token side of a usage charge (§12 "Capability-token budgets MUST be capped by
 * both the Work Contract and the authoritative remaining budget"): a tool host charges a call to
 * the token it was shown, and the charge must stay within that token's ceilings as well as the
 * budgets the ledger checks. `ext.missionweaveprotocol.core.resource_usage_record` calls this
 * when its payload names `capabilityTokenId`.
 *
 * The Authorization Service (capability grants kept on the WorkItem) is being built; until a
 * grant can exist, every named token is unknown.
 */

import type { WorkItem } from '../documents.js';
import type { GroupState } from '../group/groupState.js';
import { refuse, type DecisionContext, type Refusal } from '../model.js';
import type { ResourceUsage } from '../budget/budgetMath.js';

/** `null` when the charge fits the token; else the refusal (nothing is charged then). */
export function checkCapabilityCharge(state: GroupState, workItem: WorkItem, capabilityTokenId: string, delta: ResourceUsage, ctx: DecisionContext): Refusal | null {
  void state;
  void delta;
  void ctx;
  return refuse('AUTH_FORBIDDEN', 'capability-unknown', 'the WorkItem holds no such capability token', { workItemId: workItem.workItemId, capabilityTokenId });
}
