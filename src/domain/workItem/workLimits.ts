/**
 * The bounds of WorkItems, each named once with why it has its value.
 *
 * Work authoring: members and delegates grow these lists with their own Commands, so each has a
 * ceiling (§17.3 bounded input, §20 runaway controls); past it the Command is `RATE_LIMITED`,
 * which a later retry may pass once the list shrinks. They are far above what legitimate
 * planning needs, as §20 asks of protocol ceilings.
 *
 * Offering and owning (§10.3, §11.3): the payload schemas allow far more (256 candidates, leases
 * of a year); these are what one Group Authority grants.
 */

/**
 * Open Work Proposals per Group (§20 "proposal rate"): any member may propose, and every open
 * proposal is a row the Coordinator must read. One Mission's plan rarely holds more than a few
 * dozen pending suggestions; 256 leaves room for a busy Group and stops a member from filling
 * the Group with thousands. Authorized proposals no longer count.
 */
export const MAX_OPEN_PROPOSALS_PER_GROUP = 256;

/**
 * WorkItems authorized or offered under one Delegation Grant (§9.1): the Grant's `usedBy` list
 * is stored in the Grant and summed at every use for its cumulative ceilings, so it is bounded
 * like every list in our schemas (256: far more than one delegated subtree holds).
 */
export const MAX_WORK_ITEMS_PER_GRANT = 256;

/**
 * Dependencies of one WorkItem: the Work Contract schema caps `dependencyWorkItemIds` at 1,000, so
 * `ext.missionweaveprotocol.core.work_dependency_add` stops there and every stored contract stays
 * schema-valid.
 */
export const MAX_DEPENDENCIES_PER_WORK_ITEM = 1_000;

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
