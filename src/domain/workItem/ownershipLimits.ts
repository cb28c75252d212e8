/**
 * The limits of offering and owning a WorkItem (§10.3, §11.3), each named once with its reason.
 * The payload schemas allow far more (256 candidates, leases of a year); these are what one
 * Group Authority grants.
 */

/**
 * Most candidates one `work.offer` may name. §10.3 prefers sequential offers and allows a
 * *bounded* candidate set for urgent placement: every candidate is a pending obligation to
 * withdraw (`lost_race`) in the accepting transaction and an Event its attention filter
 * delivers, so a wide fan-out buys nothing a placement needs and costs every loser a wasted race.
 */
export const MAX_OFFER_CANDIDATES = 16;

/**
 * Most offer entries a WorkItem keeps. Pending offers (at most `MAX_OFFER_CANDIDATES`) are always
 * kept; closed ones (accepted, withdrawn, expired, lost) are history the Events already hold,
 * so the oldest are pruned first. Re-offering the same WorkItem forever cannot grow its row past
 * this, well under the schema's 1,000.
 */
export const MAX_OFFER_ENTRIES = 64;

/**
 * Longest Execution Lease one `work.start` or renewal grants. An Execution Lease is how the
 * Authority notices a silent Worker (§11.3, §11.5): past this a stalled Worker holds its WorkItem
 * for more than an hour before the Coordinator may reassign it, so a longer lease is refused and
 * a long run renews instead.
 */
export const MAX_EXECUTION_LEASE_SECONDS = 3_600;

/** Payload schema defaults, where the payload omits the member. */
export const DEFAULT_OFFER_SECONDS = 300;
export const DEFAULT_OWNERSHIP_LEASE_SECONDS = 900;
export const DEFAULT_EXECUTION_LEASE_SECONDS = 300;
export const DEFAULT_EXECUTION_APPROVAL_SECONDS = 300;
