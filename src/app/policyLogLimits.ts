/**
 * Every limit of the Policy Log (the protected audit record of refused Signed Documents, §6.4),
 * in one place, with why it has its value. Refusals are what hostile input produces, so each
 * thing an outsider can grow here has a bound.
 */

export interface PolicyLogLimits {
  /**
   * Refusals held in memory awaiting their INSERT. A flood of bad signatures must cost memory
   * and database writes in proportion to this, not to the flood: past it, refusals are
   * coalesced (below) until the next flush. With the flush interval it caps the Policy Log's
   * write load at about 8,000 rows a second, however fast refusals arrive.
   */
  readonly maxBufferedEntries: number;
  /**
   * Distinct (stage, reason, address) summaries kept while the buffer is full; beyond them
   * every further refusal counts into one catch-all summary. Stages and reasons are our own
   * vocabulary; addresses are what an attacker can vary.
   */
  readonly maxSummaries: number;
  /**
   * How often buffered refusals are written: one statement per interval, off the hot path.
   * A crash loses at most this much of the audit trail.
   */
  readonly flushIntervalMs: number;
  /** Rows per INSERT: keeps one statement's JSON parameter under a megabyte or so. */
  readonly maxRowsPerInsert: number;
  /**
   * Characters kept of each claimed (untrusted) field: identifiers in the protocol are far
   * shorter; a longer claim is cut so an attacker cannot make each row large.
   */
  readonly maxClaimedChars: number;
}

export const DEFAULT_POLICY_LOG_LIMITS: PolicyLogLimits = {
  maxBufferedEntries: 2_000,
  maxSummaries: 1_000,
  flushIntervalMs: 250,
  maxRowsPerInsert: 1_000,
  maxClaimedChars: 256,
};

/**
 * Policy Log entries a signed Group Snapshot references (the newest ones): the snapshot is
 * sent to Agents catching up, so its size must not grow with an attacker's flood of refusals
 * naming the Group. Older records stay reachable through `missionweave audit --group`.
 */
export const SNAPSHOT_POLICY_LOG_ENTRIES = 100;

/** Records `missionweave audit` prints unless told otherwise, and the most it prints at all. */
export const AUDIT_DEFAULT_LIMIT = 1_000;
export const AUDIT_MAX_LIMIT = 100_000;
