/**
 * The core domain modules of this Group Authority (§15.1), in the order their slices are stored.
 * This is the only file that imports every core module: a new core kind is its module's entry
 * plus nothing here, a new module one line here. An Extension Profile is added to a registry
 * without touching this list (`KindRegistry.withProfiles`).
 */

import { ARTIFACT_MODULE } from './artifact/artifactModule.js';
import { AUTHORIZATION_MODULE } from './authorization/authorizationModule.js';
import { BUDGET_MODULE } from './budget/budgetModule.js';
import { CONVERSATION_MODULE } from './conversation/conversationModule.js';
import { GROUP_MODULE } from './group/groupModule.js';
import { decodeGroupState, encodeGroupState, EXTENSIONS_MODULE, type AnyDomainModule } from './kinds/domainModule.js';
import type { AggregateRow, GroupState, StoredAggregateRow } from './kinds/groupState.js';
import { KindRegistry } from './kinds/kindRegistry.js';
import type { AnyGroupKind } from './kinds/kindTypes.js';
import type { AnyExtensionProfile } from './kinds/profile.js';
import { MEMBERSHIP_MODULE } from './membership/membershipModule.js';
import { MISSION_MODULE } from './mission/missionModule.js';
import { ORGANIZATION_MODULE } from './organization/organizationModule.js';
import { POLICY_MODULE } from './policy/policyModule.js';
import { WORK_MODULE } from './workItem/workModule.js';
import type { ArtifactReason } from './artifact/artifactReasons.js';
import type { AuthorizationReason } from './authorization/authorizationReasons.js';
import type { BudgetReason } from './budget/budgetReasons.js';
import type { CommonReason } from './commonReasons.js';
import type { ConversationReason } from './conversation/conversationReasons.js';
import type { GroupReason } from './group/groupReasons.js';
import type { KindReason } from './kinds/kindReasons.js';
import type { MembershipReason } from './membership/membershipReasons.js';
import type { MissionReason } from './mission/missionReasons.js';
import type { OrganizationReason } from './organization/organizationReasons.js';
import type { PolicyReason } from './policy/policyReasons.js';
import type { WorkReason } from './workItem/workReasons.js';

export const CORE_MODULES: readonly AnyDomainModule[] = [
  GROUP_MODULE,
  MISSION_MODULE,
  MEMBERSHIP_MODULE,
  CONVERSATION_MODULE,
  WORK_MODULE,
  EXTENSIONS_MODULE,
  ARTIFACT_MODULE,
  POLICY_MODULE,
  BUDGET_MODULE,
  AUTHORIZATION_MODULE,
  ORGANIZATION_MODULE,
];

/** The core Group-scoped kinds, module by module. */
export const CORE_GROUP_KINDS: readonly AnyGroupKind[] = CORE_MODULES.flatMap((m) => m.kinds).filter((k): k is AnyGroupKind => k.scope !== 'organization');

/**
 * The registry of the core kinds plus `profiles`, built once by a composition root (the server,
 * a CLI command, a crypto worker, a tool) and handed on explicitly: no module keeps one.
 */
export function buildKindRegistry(profiles: readonly AnyExtensionProfile[]): KindRegistry {
  const core = new KindRegistry(CORE_MODULES);
  return profiles.length === 0 ? core : core.withProfiles(profiles);
}

/** Every aggregate of `state`, with the document the store keeps for it. */
export function toAggregates(state: GroupState): AggregateRow[] {
  return encodeGroupState(CORE_MODULES, state);
}

/**
 * Rebuilds a Group's state from its rows (`messages` holds whichever Message rows were loaded).
 * Throws when the rows cannot be one Group's state: that is corrupt storage, not a refusal.
 */
export function fromAggregates(groupId: string, lastSequence: number, rows: readonly StoredAggregateRow[]): GroupState {
  return decodeGroupState(CORE_MODULES, groupId, lastSequence, rows);
}

/**
 * Every reason a core decider may refuse with: the modules' catalogues, and the three reasons
 * built from a value (a Membership state, a cooperation policy, an allocation problem).
 */
export type CoreReason =
  | ArtifactReason
  | AuthorizationReason
  | BudgetReason
  | CommonReason
  | ConversationReason
  | GroupReason
  | KindReason
  | MembershipReason
  | MissionReason
  | OrganizationReason
  | PolicyReason
  | WorkReason
  | `membership-${string}`
  | `${string}-exceeded`
  | `allocation-${string}`;
