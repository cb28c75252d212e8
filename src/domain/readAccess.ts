/**
 * Who may read a Group's history, and from where (§8, §16, §19): the one read rule behind
 * SUBSCRIBE, the Membership re-check of a live subscription, and the HTTPS snapshot endpoint.
 *
 * - No Membership at all: the Group is undisclosed, refused exactly as a Group that does not
 *   exist (GROUP_NOT_FOUND, with the same words a missing Group or snapshot gets), so a
 *   stranger learns nothing (§19).
 * - A Membership that is not active (provisional, ended): MEMBERSHIP_REQUIRED; its holder was
 *   told of the Group when it was granted, so there is nothing left to hide.
 * - An active Membership reads from its visibility start on: a late-joining Worker does not get
 *   earlier history (§8). A snapshot is the whole Group through its sequence, so only a
 *   Membership with complete visibility may read one (AUTH_FORBIDDEN otherwise).
 */

import type { ErrorCode } from '../protocol/errorCodes.js';

/** The facts of a Membership the rule reads. */
export interface ReadableMembership {
  readonly state: string;
  /** The first Group sequence the Member may see; 0 or 1 is the whole history. */
  readonly visibilityStartSequence: number;
}

/**
 * `subscribe`: a SUBSCRIBE asking for Events after `afterSequence`; `recheck`: a live
 * subscription after an Event that may have changed the Membership; `snapshot`: a Group Snapshot.
 */
export type ReadRequest =
  | { readonly purpose: 'subscribe'; readonly afterSequence: number }
  | { readonly purpose: 'recheck' }
  | { readonly purpose: 'snapshot' };

export type ReadRefusalCode = Extract<ErrorCode, 'GROUP_NOT_FOUND' | 'MEMBERSHIP_REQUIRED' | 'AUTH_FORBIDDEN'>;

export type ReadDecision =
  /** Events after `afterSequence` may be read. */
  | { readonly allowed: true; readonly afterSequence: number }
  | { readonly allowed: false; readonly code: ReadRefusalCode; readonly message: string };

/** What a stranger is told: word for word what a missing Group (or snapshot) gets. */
export const UNDISCLOSED = { subscribe: 'no such Group', recheck: 'no such Group', snapshot: 'no such snapshot' } as const;

const INACTIVE = {
  subscribe: 'an active Membership is required',
  recheck: 'the Membership ended; the Group is no longer delivered',
  snapshot: 'an active Membership is required',
} as const;

export function decideRead(membership: ReadableMembership | undefined, request: ReadRequest): ReadDecision {
  if (membership === undefined) return { allowed: false, code: 'GROUP_NOT_FOUND', message: UNDISCLOSED[request.purpose] };
  if (membership.state !== 'active') return { allowed: false, code: 'MEMBERSHIP_REQUIRED', message: INACTIVE[request.purpose] };
  const hidden = Math.max(0, membership.visibilityStartSequence - 1);
  if (request.purpose === 'snapshot' && hidden > 0) {
    return { allowed: false, code: 'AUTH_FORBIDDEN', message: 'a snapshot holds history before this Membership’s visibility' };
  }
  return { allowed: true, afterSequence: request.purpose === 'subscribe' ? Math.max(request.afterSequence, hidden) : hidden };
}
