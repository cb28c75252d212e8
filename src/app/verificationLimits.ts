/**
 * The limits of the verification gate (verificationGate.ts), with why each has its value; a
 * module of its own because the settings name its type (limits.ts imports the settings' types).
 */

/**
 * How much verification work one outsider may cause (§17.3, README "bad input never slows the
 * server for others"). Verifying a signature is the dearest thing an unauthenticated request can
 * buy — a refusal whose R must be analysed costs about 2 ms of pure-JavaScript arithmetic — so
 * each connection and each remote address gets a bounded share of the crypto workers, and a
 * budget of refusals after which its Commands are refused unverified (RATE_LIMITED, §19), which
 * costs less than the client's request did.
 */
export interface VerificationLimits {
  /**
   * Verifications of one connection's Commands queued on the workers at once; its others wait
   * their turn here, so one connection's burst cannot stand in front of every other's Commands.
   * Enough to keep a worker busy while the main thread runs a write transaction between two of
   * a pipelining connection's replies; a flood of bad signatures is cut by the budget below.
   */
  readonly inFlightPerConnection: number;
  /** The same for one remote address, all its connections and HTTPS requests together. */
  readonly inFlightPerAddress: number;
  /**
   * Verifications waiting or running on this node at once, from everyone; past it a Command is
   * refused RATE_LIMITED at once rather than queued behind minutes of work.
   */
  readonly maxPending: number;
  /** Refused Commands (of any stage before the write) one connection may send per window. */
  readonly refusalsPerConnection: number;
  /** Refused Commands one remote address may send per window, all its connections together. */
  readonly refusalsPerAddress: number;
  /** The refusal budgets' window: long enough to span a flood, short enough to forgive a bug. */
  readonly refusalWindowMs: number;
  /**
   * Remote addresses whose shares and budgets are tracked at once; addresses are what an
   * attacker can vary, so the oldest idle entries are dropped past it.
   */
  readonly maxTrackedAddresses: number;
}

export const DEFAULT_VERIFICATION_LIMITS: VerificationLimits = {
  inFlightPerConnection: 64,
  inFlightPerAddress: 256,
  maxPending: 8_192,
  refusalsPerConnection: 64,
  refusalsPerAddress: 256,
  refusalWindowMs: 10_000,
  maxTrackedAddresses: 10_000,
};

/**
 * One process's share when `missionweave serve --processes n` runs n processes behind one
 * listener (src/cli/serveCluster.ts): an address's connections are spread over the processes,
 * each with its own gate, so the per-address shares and budgets and the node's pending bound are
 * split 1/n (at least one), and an address gets no more verification work from the node than
 * from one process. A connection lives in one process: its own share stays whole.
 */
export function shareOfVerificationLimits(limits: VerificationLimits, processes: number): VerificationLimits {
  const share = (cap: number): number => Math.max(1, Math.floor(cap / processes));
  return {
    ...limits,
    inFlightPerAddress: share(limits.inFlightPerAddress),
    refusalsPerAddress: share(limits.refusalsPerAddress),
    maxPending: share(limits.maxPending),
  };
}
