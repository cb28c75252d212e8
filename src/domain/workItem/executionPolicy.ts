/**
 * Organization policy for Execution Approval (§12): "Organization policy MUST be able to place a
 * WorkItem into `awaiting_execution_approval` before production deployment, payments, external
 * communications, destructive changes, or sensitive-data access." Whatever a Work Contract's own
 * `executionApproval` says, work of those kinds — judged from its `sideEffectRisk` and the
 * operations of its allowed resources — needs a human's signed `approval.grant_execution` before
 * `work.start` and before the Authorization Service issues a token. Low-risk work proceeds under
 * the contract's own setting ("Low-risk work MAY proceed automatically under policy").
 *
 * The gate lives on a `queued` WorkItem (the §10.2 `queued` → `approval.grant_execution` →
 * `queued` row): our WorkItem schema has no `awaiting_execution_approval` state, so a gated
 * WorkItem is one whose required approval is missing (docs/reference-differences.md).
 */

import type { WorkContract } from '../documents.js';

/** The five categories §12 names. */
export type GatedCategory = 'production_deployment' | 'payment' | 'external_communication' | 'destructive_change' | 'sensitive_data_access';

export interface ExecutionPolicy {
  /** Side-effect risks that need a human approval, and the category each stands for. */
  readonly risks: Readonly<Partial<Record<WorkContract['sideEffectRisk'], GatedCategory>>>;
  /**
   * Operation names that need one. `:` and `.` separate alike (`deploy:production` is
   * `deploy.production`), and an operation matches an entry when it equals it or continues it
   * after a separator (`payment` matches `payment.refund` and `payment:create`).
   */
  readonly operations: Readonly<Record<string, GatedCategory>>;
}

/** The named defaults; an Organization that needs others passes its own policy. */
export const DEFAULT_EXECUTION_POLICY: ExecutionPolicy = {
  risks: { external: 'external_communication', high_risk: 'production_deployment', destructive: 'destructive_change' },
  operations: {
    'deploy.production': 'production_deployment',
    'production.deploy': 'production_deployment',
    payment: 'payment',
    'communicate.external': 'external_communication',
    'email.send': 'external_communication',
    delete: 'destructive_change',
    destroy: 'destructive_change',
    'data.sensitive': 'sensitive_data_access',
    'secret.read': 'sensitive_data_access',
  },
};

function operationCategory(operation: string, policy: ExecutionPolicy): GatedCategory | undefined {
  const op = operation.replaceAll(':', '.');
  for (const [name, category] of Object.entries(policy.operations)) {
    if (op === name || op.startsWith(`${name}.`)) return category;
  }
  return undefined;
}

/** The categories of `contract` that policy gates, in a stable order (empty: low risk). */
export function gatedCategories(contract: WorkContract, policy: ExecutionPolicy = DEFAULT_EXECUTION_POLICY): GatedCategory[] {
  const found = new Set<GatedCategory>();
  const byRisk = policy.risks[contract.sideEffectRisk];
  if (byRisk !== undefined) found.add(byRisk);
  for (const grant of contract.allowedResources) {
    for (const operation of grant.operations) {
      const category = operationCategory(operation, policy);
      if (category !== undefined) found.add(category);
    }
  }
  return [...found].sort();
}

/**
 * The Execution Approval a WorkItem needs: `human_required` for gated work, whatever the contract
 * says (an Organization service approving its own gate would be no gate); otherwise the
 * contract's own requirement.
 */
export function requiredExecutionApproval(contract: WorkContract, policy: ExecutionPolicy = DEFAULT_EXECUTION_POLICY): WorkContract['executionApproval'] {
  return gatedCategories(contract, policy).length > 0 ? 'human_required' : contract.executionApproval;
}
