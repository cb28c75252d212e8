/**
 * The Authorization Service's limits (§12 "short-lived least-privilege capability token"), each
 * named once with its reason.
 */

/**
 * A token's lifetime when the Worker asks for none: five minutes, the default lease length
 * (`rules.ts`), so that a token outlives no renewal round of its Execution Lease by much and a
 * leaked one is soon worthless. It never outlives the lease anyway.
 */
export const DEFAULT_CAPABILITY_SECONDS = 300;

/**
 * How many capability grants a WorkItem remembers, newest last. Only the newest is valid (a new
 * grant supersedes the others, §11.3 "tokens may be rotated or narrowed while one lease remains
 * active"); the few before it answer "revoked" rather than "unknown" to a tool host that still
 * holds one. A Worker that asks again and again cannot grow the WorkItem row beyond this.
 */
export const CAPABILITY_GRANTS_KEPT = 8;

/**
 * How many tokens one Execution Lease may be granted. Each grant is a Group Event, and the
 * request costs the Worker one HTTPS call: without a bound a Worker could grow its Group's log
 * at will under one lease. A Worker rotates when it narrows scope or its token nears expiry —
 * a few times per lease; 64 leaves room for a long, renewed lease rotating every few minutes.
 * Beyond it: `RATE_LIMITED` (§20) until the next lease.
 */
export const CAPABILITY_GRANTS_PER_LEASE = 64;
