/**
 * Who a Context Package is for and what it may hold (§13.3, §8, §7.2): the one rule the builder
 * applies, stated beside the Event read rule it follows (`../readAccess.ts`).
 *
 * - What happened (decisions, the source Event range) is history: a recipient gets it from its
 *   Membership's visibility start on, exactly what SUBSCRIBE would let it read once active. A
 *   late joiner does not get earlier history through its package (§8).
 * - What is now (open questions, published Artifact references) is Group content an active
 *   member may read on demand (§8 "relevant Conversation and Artifact references"), so an active
 *   recipient gets it for its scope. A provisional member may read no Group content until it is
 *   activated (its reads are MEMBERSHIP_REQUIRED), so its package has neither; its next package,
 *   on activation, has both.
 * - The terms it is bound by (constraints: budget, deadline, approval policy, contract limits)
 *   are always given for its scope: a candidate must know them to accept an offer.
 * - A WorkItem-scoped package holds only that WorkItem's Events, contract, questions and
 *   Artifacts; Group content stays out of other scopes by default (§13.3).
 */

import type { Membership } from '../documents.js';

/** The Mission, or one WorkItem of it. */
export interface ContextScope {
  readonly missionId: string;
  readonly workItemId?: string;
}

/** What of the Group a recipient's package may draw on. */
export interface ContextView {
  /** The first Group sequence whose Event the package may cite. */
  readonly firstSequence: number;
  /** Whether open questions and Artifact references may be given (active Memberships only). */
  readonly currentContent: boolean;
}

/** The view of a recipient holding `membership`; none for an ended one (it receives nothing). */
export function contextViewOf(membership: Pick<Membership, 'state' | 'visibilityStartSequence'>): ContextView | undefined {
  if (membership.state === 'ended') return undefined;
  return { firstSequence: Math.max(1, membership.visibilityStartSequence), currentContent: membership.state === 'active' };
}

/** A stable text for a scope, as the store keys versions by it. */
export function scopeKey(scope: ContextScope): string {
  return scope.workItemId === undefined ? `mission ${scope.missionId}` : `work-item ${scope.workItemId}`;
}

