/**
 * Every bound and timing of the runtime host (hostRuntime.ts), each with why it has its value.
 */

/**
 * A Group's view read back to re-check one WorkItem: the server caps what a view lists (its own
 * bounds on WorkItems, Memberships and Artifacts); 32 MiB still bounds what a misbehaving server
 * can make the Agent hold.
 */
export const MAX_VIEW_BYTES = 32 * 1024 * 1024;

/**
 * How long one job may run before it is aborted, released and reported as blocked: a bound on a
 * hung handler, long enough for real work between checkpoints. Option `jobTimeoutMs`.
 */
export const JOB_TIMEOUT_MS = 30 * 60_000;

/**
 * After a job's signal aborted, how long the host waits for the handler to return before it
 * treats the run as hung: a cooperative handler stops well within it.
 */
export const JOB_ABORT_GRACE_MS = 2_000;

/**
 * After a restart the Authority closes the old Session's Execution Leases in its next reactor
 * round (about a second); a resumable WorkItem still `active` is asked again until this passes,
 * then left blocked with a reason.
 */
export const RECHECK_WAIT_MS = 20_000;

/** How often a WorkItem still `active` under the old Session is asked about again. */
export const RECHECK_POLL_MS = 250;

/** A `work.start` refused for a passing reason (the old lease not yet closed) is tried again after this. */
export const START_RETRY_MS = 1_000;

/** Tries of one start before the WorkItem stays blocked (with the last refusal as its reason). */
export const START_ATTEMPTS = 20;

/** How long `stop()` waits for running jobs to reach a checkpoint and yield before releasing them. */
export const STOP_GRACE_MS = 10_000;

/** Context Packages fetched for one job: the newest ones listed, a package is at most a few MiB. */
export const MAX_JOB_CONTEXT_PACKAGES = 8;

/** The blocked lease asked for when the host blocks work it cannot finish (the Coordinator's time to act). */
export const BLOCKED_LEASE_SECONDS = 3_600;

/**
 * A run that ends without progress (no new safe checkpoint, no submit or fail) is not started
 * again at once: the next start waits NO_PROGRESS_BACKOFF_MS, doubling with each such run in a
 * row up to NO_PROGRESS_BACKOFF_MAX_MS, so a handler failing the same way each time cannot spin
 * (the PoC once saw 2,289 starts in six minutes). Long enough to let a passing cause pass, short
 * enough that a retried transient failure costs seconds.
 */
export const NO_PROGRESS_BACKOFF_MS = 1_000;

/** The longest wait before a start after runs without progress. */
export const NO_PROGRESS_BACKOFF_MAX_MS = 30_000;

/**
 * Runs in a row without progress after which the host stops retrying on its own: the WorkItem is
 * blocked and reported to its Coordinator with the typed reason `runtime-no-progress`.
 */
export const NO_PROGRESS_RUNS = 5;
