/**
 * Delegation depth under a Delegation Grant (§9.1 "Descendant depth MUST satisfy both the Grant
 * maximum and Organization cooperation policy", §20): the Organization's `maxDelegatedWorkDepth`
 * bounds how deep below a Grant's target its grantee works, counted as the Grant counts it (the
 * target is depth 0). It is judged twice, like child-Mission depth:
 *
 * - when the Coordinator issues a Grant: a `maxDescendantDepth` beyond the policy would promise
 *   depth the Organization does not allow;
 * - at each use: a delegated `work.authorize` of a WorkItem below the bound, or a delegated
 *   `work.offer` of one, whatever the Grant allows (the policy may have been tightened since, or the
 *   Grant issued under an escalation of its own: each use beyond the bound is escalated once).
 *
 * Only the grantee's own use is measured; anyone else citing the Grant is refused by the Grant's
 * rules (`workItem/delegation.ts`), and a use outside the target's subtree too.
 */

import type { GroupState } from '../kinds/groupState.js';
import type { CommandEnvelope } from '../model.js';
import { depthBelow } from '../workItem/delegation.js';
import type { CooperationLimits, ExceededLimit } from './cooperationLimits.js';

interface DelegatedPayload {
  readonly delegationGrantId?: string;
  readonly workItemId?: string;
  readonly parentWorkItemId?: string;
  readonly maxDescendantDepth?: number;
}

/** How deep below its Grant's target the delegated Command works, or `undefined` when it is no delegated use. */
function delegatedDepth(state: GroupState, command: CommandEnvelope): number | undefined {
  const payload = command.payload as DelegatedPayload;
  const grant = payload.delegationGrantId === undefined ? undefined : state.delegationGrants.get(payload.delegationGrantId);
  if (grant === undefined || command.actor.type !== 'agent' || command.actor.id !== grant.granteeAgentId) return undefined;
  if (command.kind === 'work.offer' && payload.workItemId !== undefined) return depthBelow(state, grant.targetWorkItemId, payload.workItemId);
  if (command.kind !== 'work.authorize' || payload.parentWorkItemId === undefined) return undefined;
  const parentDepth = depthBelow(state, grant.targetWorkItemId, payload.parentWorkItemId);
  return parentDepth === undefined ? undefined : parentDepth + 1;
}

/** The `delegation_depth` limit a Grant or a delegated use would pass, or `null`. */
export function delegationDepthLimit(state: GroupState, command: CommandEnvelope, limits: CooperationLimits): ExceededLimit | null {
  const limit = limits.maxDelegatedWorkDepth;
  const observed = command.kind === 'membership.grant_delegation' ? (command.payload as DelegatedPayload).maxDescendantDepth : delegatedDepth(state, command);
  return observed !== undefined && observed > limit ? { policy: 'delegation_depth', limit, observed } : null;
}
