/**
 * The Authority reactor's limits (src/app/reactor/authorityReactor.ts), each with its reason.
 */

/**
 * How often every node sweeps, in milliseconds. Expiry is judged at acceptance by the Authority's
 * clock whether or not a sweep has run (a holder past its expiry is already refused,
 * `WORK_LEASE_EXPIRED`), so the period only bounds how long an expired WorkItem waits to leave
 * `active` or to become re-offerable. One second matches the delivery poll (src/delivery/notifier.ts)
 * and costs each node two index reads a second (migration 0006).
 */
export const REACTOR_PERIOD_MS = 1_000;

/**
 * Commands one sweep issues in one round, at most. They are submitted together and the commit
 * queue groups them into a few write transactions; a larger backlog drains at this many per
 * period per node instead of flooding the queue that outsiders' Commands share.
 */
export const REACTOR_ROUND_LIMIT = 64;

/**
 * Facts whose Command was refused, remembered so that a fact that can no longer apply (another
 * node closed the lease first, or a row the decider will always refuse) does not take a round's
 * places again; bounded, oldest forgotten first.
 */
export const REACTOR_REFUSED_KEPT = 1_024;

/**
 * How long a refused fact is skipped, in milliseconds: long enough that a stuck row costs one
 * Command a minute, short enough that a refusal for a passing reason is retried soon.
 */
export const REACTOR_REFUSED_SKIP_MS = 60_000;
