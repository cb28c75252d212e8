/**
 * Every limit of the Policy Log (the protected audit record of refused Signed Documents, §6.4),
 * in one place, with why it has its value. Refusals are what hostile input produces, so each
 * thing an outsider can grow here has a bound.
 */

export interface PolicyLogLimits {
  /**
   * Refusals waiting for their INSERT (or in it) at once. A refusal is answered only after its
   * record is committed, so this is how many refused senders wait on the Policy Log; past it a
   * refused Command is answered RATE_LIMITED instead, its sender turned away rather than its
   * refusal forgotten. The verification gate already holds a node's outsiders to 8,192
   * verifications at once (verificationLimits.ts), each waiting for at most one record, so
   * 10,000 leaves room for the Organization's own paths (CLI, HELLO, in-transaction refusals);
   * with every claim cut below, a row holds at most ~2,300 characters: under 50 MB in all.
   */
  readonly maxPendingEntries: number;
  /**
   * Rows per INSERT: keeps one statement's JSON parameter under a megabyte or so. Refusals
   * beyond it wait for the next statement, which starts as soon as this one commits.
   */
  readonly maxRowsPerInsert: number;
  /**
   * Characters kept of each claimed (untrusted) field: identifiers in the protocol are far
   * shorter; a longer claim is cut so an attacker cannot make each row large.
   */
  readonly maxClaimedChars: number;
}

export const DEFAULT_POLICY_LOG_LIMITS: PolicyLogLimits = {
  maxPendingEntries: 10_000,
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
