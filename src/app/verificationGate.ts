/**
 * The door in front of Command verification for outsiders' Commands (wss and HTTPS): each
 * connection and each remote address gets a bounded share of the verifications in progress —
 * the rest wait their turn in arrival order — and a budget of refusals per window. Past the
 * budget, or when the node already holds `maxPending` verifications, a Command is refused
 * RATE_LIMITED (§19) before any parsing or signature work, so a flood of bad signatures costs
 * the flooder its own share and never the crypto workers' time that other Agents need.
 *
 * A Command's embedded Signed Documents (an Approval, each Evidence of an array member) are
 * verified inside the Command's own turn, after its signature and payload schema passed, so they
 * count toward the same shares and a failing one toward the same refusal budget, once. Their work
 * is bounded by the payload schema's `maxItems` and grows with the bytes sent, as a plain
 * Command's does: a Command with one Evidence (1.3 KB) took 1.05 ms to verify, one with 256
 * (150 KB, under `maxPayloadBytes`) 56 ms, on the 2-core development machine; a refusal stops at
 * the first failing element.
 */

import { DEFAULT_VERIFICATION_LIMITS, type VerificationLimits } from './verificationLimits.js';
import type { FrontResult } from './verifyCommand.js';
import { wireError } from './wireError.js';

/** One connection's or one address's share: verifications running, waiters, refusals this window. */
interface Share {
  running: number;
  readonly waiting: (() => void)[];
  windowStart: number;
  refusals: number;
}

function newShare(now: number): Share {
  return { running: 0, waiting: [], windowStart: now, refusals: 0 };
}

/** Who asks for a verification: the remote address and, on wss, the connection itself. */
export interface GateOrigin {
  readonly address?: string;
  readonly connection?: object;
}

export class VerificationGate {
  private readonly byConnection = new WeakMap<object, Share>();
  private readonly byAddress = new Map<string, Share>();
  private pending = 0;

  constructor(
    private readonly nowMillis: () => number,
    private readonly limits: VerificationLimits = DEFAULT_VERIFICATION_LIMITS,
  ) {}

  /**
   * Runs `verify` within the origin's shares, or refuses at once; counts a refusal it returns.
   * `verify` is told whether the origin is in good standing: a wss connection with no other
   * Command of its own in progress and no refusal this window, for itself or its address. Only
   * such a Command may be verified on the main thread (`InlineVerifyPolicy`): a refusal's
   * analysis of R costs ~2 ms of pure JavaScript, which a flooder must pay for on a worker, in
   * its share, never on the thread everyone's transactions run on. HTTPS requests never are.
   */
  async run(origin: GateOrigin, verify: (goodStanding: boolean) => Promise<FrontResult>): Promise<FrontResult> {
    const shares = this.sharesOf(origin, this.nowMillis());
    const limited = this.overBudget(shares);
    if (limited !== undefined) return limited;
    if (this.pending >= this.limits.maxPending) {
      return { ok: false, error: wireError('RATE_LIMITED', 'this node is verifying as many Commands as it can hold', { retryAfterMs: 100 }) };
    }
    this.pending++;
    try {
      for (const { share, capacity } of shares) await this.acquire(share, capacity);
      try {
        // The budget may have run out while this Command waited behind the client's others.
        const refused = this.overBudget(shares);
        if (refused !== undefined) return refused;
        const own = shares[0];
        const goodStanding = origin.connection !== undefined && own !== undefined && own.share.running === 1 && shares.every(({ share }) => share.refusals === 0);
        const result = await verify(goodStanding);
        if (!result.ok) for (const { share } of shares) share.refusals++;
        return result;
      } finally {
        for (const { share } of shares) this.release(share);
      }
    } finally {
      this.pending--;
    }
  }

  /** RATE_LIMITED with a retry hint when a share's refusals this window reached its budget. */
  private overBudget(shares: readonly { share: Share; budget: number }[]): FrontResult | undefined {
    const now = this.nowMillis();
    const exhausted = shares.find((s) => this.current(s.share, now).refusals >= s.budget);
    if (exhausted === undefined) return undefined;
    const retryAfterMs = Math.max(1, exhausted.share.windowStart + this.limits.refusalWindowMs - now);
    return { ok: false, error: wireError('RATE_LIMITED', 'too many refused Commands from this client; wait before sending more', { retryAfterMs }) };
  }

  private sharesOf(origin: GateOrigin, now: number): { share: Share; capacity: number; budget: number }[] {
    const shares: { share: Share; capacity: number; budget: number }[] = [];
    if (origin.connection !== undefined) {
      let share = this.byConnection.get(origin.connection);
      if (share === undefined) {
        share = newShare(now);
        this.byConnection.set(origin.connection, share);
      }
      shares.push({ share: this.current(share, now), capacity: this.limits.inFlightPerConnection, budget: this.limits.refusalsPerConnection });
    }
    if (origin.address !== undefined) {
      let share = this.byAddress.get(origin.address);
      if (share === undefined) {
        this.forgetIdleAddresses();
        share = newShare(now);
        this.byAddress.set(origin.address, share);
      }
      shares.push({ share: this.current(share, now), capacity: this.limits.inFlightPerAddress, budget: this.limits.refusalsPerAddress });
    }
    return shares;
  }

  /** Starts a new window when the last one has ended. */
  private current(share: Share, now: number): Share {
    if (now - share.windowStart >= this.limits.refusalWindowMs) {
      share.windowStart = now;
      share.refusals = 0;
    }
    return share;
  }

  /**
   * Makes room for one more address: drops the oldest ones with nothing in progress (a dropped
   * address starts a fresh budget; a client must spread over more than `maxTrackedAddresses`
   * addresses to get one). Addresses with work in progress stay, so the map holds at most
   * `maxTrackedAddresses` plus `maxPending` entries.
   */
  private forgetIdleAddresses(): void {
    if (this.byAddress.size < this.limits.maxTrackedAddresses) return;
    for (const [address, share] of this.byAddress) {
      if (share.running === 0 && share.waiting.length === 0) this.byAddress.delete(address);
      if (this.byAddress.size < this.limits.maxTrackedAddresses) return;
    }
  }

  private async acquire(share: Share, capacity: number): Promise<void> {
    if (share.running < capacity) {
      share.running++;
      return;
    }
    // `release` hands its place straight to the first waiter.
    await new Promise<void>((resolve) => share.waiting.push(resolve));
  }

  private release(share: Share): void {
    const next = share.waiting.shift();
    if (next !== undefined) next();
    else share.running--;
  }
}
