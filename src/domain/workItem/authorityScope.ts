/**
 * What a WorkItem may touch, and how that narrows down the Mission tree (§4.11 "budgets,
 * capabilities, and resource permissions MUST NOT exceed their parent grants"; §14 "data access,
 * and permissions MUST be subsets of the parent"; §12 a token's "allowed tools, resources, data,
 * and operations").
 *
 * A WorkItem's scope is its contract's `allowedResources` — resources, and operations on each —
 * and the highest data classification it may see. The Work Contract has no member for the latter;
 * ours is `constraints.maxDataClassification` (`common#/$defs/classification`), on the contract
 * (all its data) and on any resource grant (that resource's data, the tighter of the two
 * applying). A contract or grant that states none inherits its ancestors' bound.
 *
 * A WorkItem's scope lies within every ancestor WorkItem's (`workAncestry.ts`): each of its
 * resources is one every ancestor allows, each operation one they allow on it, and each bound it
 * states no wider than theirs. It is checked where authority is handed down — `work.authorize`
 * (delegated or not) and a child Mission's `permissions` at `mission.create_child` — and again at
 * token issuance, where the token allows only what the whole ancestry allows, under the tightest
 * classification any of it states.
 */

import { isDataClassification, MAX_DATA_CLASSIFICATION, tighterClassification, withinClassification, type DataClassification } from '../../protocol/dataClassification.js';
import type { WorkContract } from '../documents.js';
import { refuse, type Refusal } from '../model.js';
import type { AncestorWorkItem } from './workAncestry.js';
import { WORK_REASONS } from './workReasons.js';

/** The operations a WorkItem may perform on one resource, and the classification bound there. */
export interface ResourceScope {
  readonly operations: readonly string[];
  readonly maxDataClassification?: DataClassification;
}

/** The raw bound a `constraints` object states, if any. */
function statedBound(constraints: object | undefined): unknown {
  return (constraints as Record<string, unknown> | undefined)?.[MAX_DATA_CLASSIFICATION];
}

/** The bound a `constraints` object states (checked at authoring by `checkClassifications`). */
function boundOf(constraints: object | undefined): DataClassification | undefined {
  const bound = statedBound(constraints);
  return isDataClassification(bound) ? bound : undefined;
}

/** Refuses a classification bound that is none of the four levels (INVALID_COMMAND). */
export function checkClassifications(contract: WorkContract): Refusal | null {
  const places: { readonly constraints: object | undefined; readonly resource?: string }[] = [
    { constraints: contract.constraints },
    ...contract.allowedResources.map((grant) => ({ constraints: grant.constraints, resource: grant.resource })),
  ];
  for (const { constraints, resource } of places) {
    const bound = statedBound(constraints);
    if (bound !== undefined && !isDataClassification(bound)) {
      return refuse('INVALID_COMMAND', WORK_REASONS.dataClassificationUnknown, 'maxDataClassification is one of public, internal, confidential, restricted', {
        maxDataClassification: typeof bound === 'string' ? bound : JSON.stringify(bound),
        ...(resource === undefined ? {} : { resource }),
      });
    }
  }
  return null;
}

/** A contract's scope by resource; a resource granted twice allows what either grant does. */
export function scopeOfContract(contract: WorkContract): Map<string, ResourceScope> {
  const contractBound = boundOf(contract.constraints);
  const scope = new Map<string, ResourceScope>();
  for (const grant of contract.allowedResources) {
    const earlier = scope.get(grant.resource);
    const bound = tighterClassification(boundOf(grant.constraints), contractBound);
    const operations = [...new Set([...(earlier?.operations ?? []), ...grant.operations])];
    scope.set(grant.resource, { operations, ...(bound === undefined ? {} : { maxDataClassification: bound }) });
  }
  return scope;
}

function exceeds(reason: string, message: string, ancestor: AncestorWorkItem, details: Record<string, string>): Refusal {
  return refuse('INVALID_COMMAND', reason, message, { ...details, parentWorkItemId: ancestor.workItem.workItemId, parentGroupId: ancestor.groupId });
}

/** Refuses a contract whose resources, operations or classification bounds exceed an ancestor WorkItem's. */
export function checkWithinAncestors(contract: WorkContract, ancestors: readonly AncestorWorkItem[]): Refusal | null {
  const own = scopeOfContract(contract);
  const ownBound = boundOf(contract.constraints);
  for (const ancestor of ancestors) {
    const theirs = scopeOfContract(ancestor.workItem.contract);
    const theirBound = boundOf(ancestor.workItem.contract.constraints);
    if (ownBound !== undefined && theirBound !== undefined && !withinClassification(ownBound, theirBound)) {
      return exceeds(WORK_REASONS.classificationExceedsParent, 'the contract may see more sensitive data than a parent WorkItem', ancestor, { maxDataClassification: ownBound, parentMaxDataClassification: theirBound });
    }
    for (const [resource, scope] of own) {
      const allowed = theirs.get(resource);
      if (allowed === undefined) return exceeds(WORK_REASONS.resourceExceedsParent, 'a parent WorkItem does not allow the resource', ancestor, { resource });
      const operation = scope.operations.find((o) => !allowed.operations.includes(o));
      if (operation !== undefined) return exceeds(WORK_REASONS.operationExceedsParent, 'a parent WorkItem does not allow the operation on the resource', ancestor, { resource, operation });
      const [bound, parentBound] = [scope.maxDataClassification, allowed.maxDataClassification];
      if (bound !== undefined && parentBound !== undefined && !withinClassification(bound, parentBound)) {
        return exceeds(WORK_REASONS.classificationExceedsParent, 'the resource may show more sensitive data than a parent WorkItem allows', ancestor, { resource, maxDataClassification: bound, parentMaxDataClassification: parentBound });
      }
    }
  }
  return null;
}

/** Refuses a child Mission permission (an operation) that some ancestor WorkItem allows on no resource. */
export function checkPermissionsWithin(permissions: readonly string[], ancestors: readonly AncestorWorkItem[]): Refusal | null {
  for (const ancestor of ancestors) {
    const operations = new Set(ancestor.workItem.contract.allowedResources.flatMap((grant) => grant.operations));
    const permission = permissions.find((p) => !operations.has(p));
    if (permission !== undefined) return exceeds(WORK_REASONS.permissionExceedsParent, 'the child asks for a permission its parent WorkItem does not grant', ancestor, { permission });
  }
  return null;
}

/** What `contract` allows within its whole ancestry: resources every ancestor allows, operations intersected, the tightest bound. */
export function scopeWithinAncestors(contract: WorkContract, ancestors: readonly AncestorWorkItem[]): Map<string, ResourceScope> {
  const scope = scopeOfContract(contract);
  for (const ancestor of ancestors) {
    const theirs = scopeOfContract(ancestor.workItem.contract);
    for (const [resource, own] of scope) {
      const allowed = theirs.get(resource);
      const operations = own.operations.filter((o) => allowed?.operations.includes(o) === true);
      if (allowed === undefined || operations.length === 0) {
        scope.delete(resource);
        continue;
      }
      const bound = tighterClassification(own.maxDataClassification, allowed.maxDataClassification);
      scope.set(resource, { operations, ...(bound === undefined ? {} : { maxDataClassification: bound }) });
    }
  }
  return scope;
}
