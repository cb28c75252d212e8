/**
 * Building and changing normative Memberships (§8). A Principal has one Membership per Group
 * for life: its ID stays, and every change or end increments the Membership Epoch so that
 * Commands issued under the former epoch are fenced (`MEMBERSHIP_STALE`).
 */

import type { Membership, MembershipRole, Principal } from '../documents.js';
import type { DecisionContext } from '../model.js';

/**
 * Scopes a role gets when the Command names none. They describe the Membership to its readers;
 * authority itself comes from the role, the MissionOwner and the Coordinator lease.
 */
const DEFAULT_SCOPES: Readonly<Record<MembershipRole, readonly string[]>> = {
  mission_owner: ['group:read', 'message:post', 'mission:approve', 'mission:cancel', 'membership:manage'],
  coordinator: ['group:read', 'message:post', 'mission:coordinate', 'work:authorize', 'membership:manage'],
  worker: ['group:read', 'message:post', 'work:propose', 'work:execute'],
  reviewer: ['group:read', 'message:post', 'work:review'],
  observer: ['group:read'],
  work_delegate: ['group:read', 'message:post', 'work:propose', 'work:delegate'],
};

function defaultScopes(role: MembershipRole): string[] {
  return [...DEFAULT_SCOPES[role]];
}

/** MissionOwner and Coordinator see the whole Group history (§8). */
export const FULL_VISIBILITY = 0;

export interface MembershipGrant {
  readonly role: MembershipRole;
  readonly scopes?: readonly string[];
  readonly visibilityStartSequence?: number;
  /** A provisional grant: the Context Package the member receives and when it lapses. */
  readonly provisional?: { readonly contextPackageId: string; readonly expiresAt: string };
}

interface GroupRef {
  readonly missionId: string;
  readonly groupId: string;
}

function stateOf(grant: MembershipGrant): Pick<Membership, 'state' | 'contextPackageId' | 'provisionalExpiresAt'> {
  return grant.provisional === undefined
    ? { state: 'active' }
    : {
        state: 'provisional',
        contextPackageId: grant.provisional.contextPackageId,
        provisionalExpiresAt: grant.provisional.expiresAt,
      };
}

/**
 * The Membership `member` holds after `grant`: a new one at epoch 1, or `existing` at its next
 * epoch (an ended one is re-activated). Visibility not named stays where it was.
 */
export function grantMembership(
  group: GroupRef,
  member: Principal,
  existing: Membership | undefined,
  grant: MembershipGrant,
  ctx: DecisionContext,
): Membership {
  const state = stateOf(grant);
  const activatedAt =
    state.state !== 'active' ? undefined : existing?.state === 'active' ? existing.activatedAt : ctx.now;
  return {
    membershipId: existing?.membershipId ?? ctx.newId(),
    missionId: group.missionId,
    groupId: group.groupId,
    member: { type: member.type, id: member.id },
    role: grant.role,
    ...state,
    membershipEpoch: existing === undefined ? 1 : existing.membershipEpoch + 1,
    scopes: [...(grant.scopes ?? defaultScopes(grant.role))],
    visibilityStartSequence: grant.visibilityStartSequence ?? existing?.visibilityStartSequence ?? FULL_VISIBILITY,
    grantedAt: ctx.now,
    ...(activatedAt === undefined ? {} : { activatedAt }),
  };
}

/** `existing` ended at its next epoch; it keeps its role and history for the audit trail. */
export function endMembership(existing: Membership, ctx: DecisionContext): Membership {
  return { ...existing, state: 'ended', membershipEpoch: existing.membershipEpoch + 1, endedAt: ctx.now };
}
