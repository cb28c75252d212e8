/**
 * The bounds of work authoring, each with why it has its value. Members and delegates grow these
 * lists with their own Commands, so each has a ceiling (§17.3 bounded input, §20 runaway
 * controls); past it the Command is `RATE_LIMITED`, which a later retry may pass once the list
 * shrinks. They are far above what legitimate planning needs, as §20 asks of protocol ceilings.
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
