/**
 * Keeps one Execution Lease renewed while a handler runs (§11.3), and says so the moment it is
 * lost. Renewal goes out once `renewAtFraction` of the lease has run; the lease is lost when
 *
 * - a renewal (or another Command citing the lease) is refused with WORK_LEASE_EXPIRED,
 *   WORK_STALE_OWNERSHIP or AUTH_STALE_SESSION (`refused`: the Authority closed it, fenced the
 *   owner or the Session);
 * - its expiry passes with no successful renewal (`expired`), judged conservatively on this
 *   side: the local deadline is the time the renewal was *sent* plus the length the Authority
 *   granted (`expiresAt − occurredAt` of its Event), so a clock offset between the two machines
 *   does not matter and the local deadline never falls after the Authority's;
 * - the caller says so (`lose`): an Event showed another owner or a closed lease (`fenced`), or
 *   the Agent's Session was replaced, which revokes its leases (`session_replaced`).
 *
 * Then renewal stops for good and `signal` aborts with a LeaseLostError as its reason. Expiry
 * itself is the Authority's alone: a Command sent after a local loss is still sent, and judged
 * there. Any other renewal failure (a dropped connection) is retried, sooner as expiry nears.
 */

import { AgentClientError, isAgentError } from './errors.js';
import { LEASE_RENEW_RETRY_MS } from './limits.js';

export type LeaseLossReason = 'refused' | 'expired' | 'fenced' | 'session_replaced';

/** Why a lease was lost; `cause` is the refusal, for `refused`. */
export class LeaseLostError extends AgentClientError {
  constructor(
    readonly reason: LeaseLossReason,
    message: string,
    init: { readonly groupId?: string; readonly cause?: unknown } = {},
  ) {
    super('LEASE_LOST', message, init);
  }
}

/** The refusals that mean the lease is gone (§11.3, §19); anything else may pass. */
export const LEASE_LOSS_CODES: ReadonlySet<string> = new Set(['WORK_LEASE_EXPIRED', 'WORK_STALE_OWNERSHIP', 'AUTH_STALE_SESSION']);

/** What a lease Event says about its term, in the Authority's time. */
export interface LeaseTerm {
  readonly expiresAt: string;
  readonly occurredAt: string;
}

export interface LeaseKeeperOptions {
  /** Sends one renewal; resolves with the renewed term or rejects with the refusal. */
  readonly renew: () => Promise<LeaseTerm>;
  readonly renewAtFraction: number;
  readonly groupId?: string;
  /** Local milliseconds (tests move it). */
  readonly now?: () => number;
  readonly onLost?: (error: LeaseLostError) => void;
}

export class LeaseKeeper {
  private readonly controller = new AbortController();
  private state: 'keeping' | 'stopped' | 'lost' = 'keeping';
  private localDeadline = 0;
  private renewTimer: NodeJS.Timeout | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private renewing = false;
  private renewed = 0;
  private readonly now: () => number;

  /** Starts keeping a lease granted by an Event answering a Command sent at `sentAt` (local ms). */
  constructor(first: LeaseTerm, sentAt: number, private readonly options: LeaseKeeperOptions) {
    this.now = options.now ?? Date.now;
    this.extend(first, sentAt);
  }

  /** Aborts, with a LeaseLostError as its reason, when the lease is lost. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The local time by which the lease is surely over unless renewed. */
  get deadline(): number {
    return this.localDeadline;
  }

  get renewals(): number {
    return this.renewed;
  }

  get status(): 'keeping' | 'stopped' | 'lost' {
    return this.state;
  }

  /** The lease was lost for a reason only the caller sees; a second call changes nothing. */
  lose(reason: LeaseLossReason, message: string, cause?: unknown): void {
    if (this.state !== 'keeping') return;
    this.state = 'lost';
    this.clearTimers();
    const error = new LeaseLostError(reason, message, { ...(this.options.groupId === undefined ? {} : { groupId: this.options.groupId }), ...(cause === undefined ? {} : { cause }) });
    this.controller.abort(error);
    this.options.onLost?.(error);
  }

  /** Stops renewing without a loss: the work was checkpointed, submitted or failed. */
  stop(): void {
    if (this.state !== 'keeping') return;
    this.state = 'stopped';
    this.clearTimers();
  }

  private extend(term: LeaseTerm, sentAt: number): void {
    const length = Date.parse(term.expiresAt) - Date.parse(term.occurredAt);
    this.localDeadline = sentAt + (Number.isFinite(length) ? Math.max(0, length) : 0);
    this.clearTimers();
    const now = this.now();
    this.deadlineTimer = setTimeout(() => this.lose('expired', 'the Execution Lease expired with no successful renewal'), Math.max(0, this.localDeadline - now));
    this.scheduleRenewal(Math.max(0, sentAt + length * this.options.renewAtFraction - now));
  }

  private scheduleRenewal(delayMs: number): void {
    if (this.renewTimer !== undefined) clearTimeout(this.renewTimer);
    this.renewTimer = setTimeout(() => {
      this.renewTimer = undefined;
      void this.renewNow();
    }, delayMs);
  }

  private async renewNow(): Promise<void> {
    if (this.state !== 'keeping' || this.renewing) return;
    this.renewing = true;
    const sentAt = this.now();
    try {
      const term = await this.options.renew();
      if (this.state !== 'keeping') return;
      this.renewed++;
      this.extend(term, sentAt);
    } catch (error) {
      if (this.state !== 'keeping') return;
      if (isAgentError(error) && LEASE_LOSS_CODES.has(error.code)) {
        this.lose('refused', `the lease renewal was refused: ${error.code}`, error);
      } else {
        // Not about the lease: try again while it lasts (the deadline timer still runs).
        this.scheduleRenewal(Math.min(LEASE_RENEW_RETRY_MS, Math.max(0, (this.localDeadline - this.now()) / 2)));
      }
    } finally {
      this.renewing = false;
    }
  }

  private clearTimers(): void {
    if (this.renewTimer !== undefined) clearTimeout(this.renewTimer);
    if (this.deadlineTimer !== undefined) clearTimeout(this.deadlineTimer);
    this.renewTimer = undefined;
    this.deadlineTimer = undefined;
  }
}
