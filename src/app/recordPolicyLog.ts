/**
 * Keeps every refused Signed Document's first failing semantic stage and stable reason in the
 * durable, append-only Policy Log (§6.4: "The Organization MUST retain the first failing
 * semantic stage and its specific diagnostic reason in a protected, access-controlled audit
 * record"), where auditors — and a Group Snapshot's `policyLog` — can reference it.
 *
 * Refusals are what hostile input produces, so recording one is never a synchronous database
 * write on the Command path: it joins a bounded in-memory buffer, written every few hundred
 * milliseconds in one statement. When a flood fills the buffer, further refusals are counted
 * into one summary record per (stage, reason, address) instead.
 */

import type { Logger } from 'pino';
import type { VerificationFailure } from '../protocol/signing/verification.js';
import type { JsonValue } from '../protocol/strictJson.js';
import type { Pool } from '../store/pool.js';
import { insertPolicyLogRows, type PolicyLogRow } from '../store/sql/policyLog.js';
import { newUrn } from './eventFactory.js';
import { DEFAULT_POLICY_LOG_LIMITS, type PolicyLogLimits } from './policyLogLimits.js';
import type { Clock } from './settings.js';

/** How the refused document reached us, and from where (the remote address, when there is one). */
export interface SubmissionOrigin {
  readonly transport: PolicyLogRow['transport'];
  readonly address?: string;
}

export interface Refusal {
  readonly diagnostic: Pick<VerificationFailure, 'stage' | 'reason' | 'code'>;
  readonly origin: SubmissionOrigin;
  /** The refused document as parsed, if it parsed: its claims are read, never trusted. */
  readonly document?: JsonValue | Uint8Array;
  /** The signing hash, when verification got far enough to compute it. */
  readonly signingHash?: string;
}

type Claims = Pick<PolicyLogRow, 'claimedActorType' | 'claimedActorId' | 'claimedKeyId' | 'claimedActionId' | 'claimedKind' | 'claimedGroupId'>;

const NO_CLAIMS: Claims = { claimedActorType: null, claimedActorId: null, claimedKeyId: null, claimedActionId: null, claimedKind: null, claimedGroupId: null };

function member(value: JsonValue | undefined, name: string): JsonValue | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value[name] : undefined;
}

/** What a refused document says about itself, each string cut to `maxChars`. */
export function claimsOf(document: JsonValue | Uint8Array | undefined, maxChars: number): Claims {
  if (document === undefined || document instanceof Uint8Array) return NO_CLAIMS;
  const text = (value: JsonValue | undefined): string | null => {
    if (typeof value !== 'string') return null;
    return value.length <= maxChars ? value : `${value.slice(0, maxChars)}…`;
  };
  const actor = member(document, 'actor');
  return {
    claimedActorType: text(member(actor, 'type')),
    claimedActorId: text(member(actor, 'id')),
    claimedKeyId: text(member(member(document, 'signature'), 'keyId')),
    claimedActionId: text(member(document, 'actionId')),
    claimedKind: text(member(document, 'kind')),
    claimedGroupId: text(member(document, 'groupId')),
  };
}

/** The refusals a full buffer could not hold, counted per (stage, reason, address). */
interface Summary {
  readonly row: Omit<PolicyLogRow, 'lastOccurredAt' | 'occurrences'>;
  lastOccurredAt: string;
  occurrences: number;
}

/** Where refusals go when even the summaries are full: one catch-all count. */
const CATCH_ALL = '*';

export class PolicyLogRecorder {
  private entries: PolicyLogRow[] = [];
  private summaries = new Map<string, Summary>();
  private flushing: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly limits: PolicyLogLimits = DEFAULT_POLICY_LOG_LIMITS,
  ) {
    this.timer = setInterval(() => void this.flush(), limits.flushIntervalMs);
    this.timer.unref();
  }

  /** Records one refusal; never waits for the database. */
  record(refusal: Refusal): void {
    const now = new Date(this.clock.nowMillis()).toISOString();
    const address = refusal.origin.address === undefined ? null : refusal.origin.address.slice(0, this.limits.maxClaimedChars);
    const { stage, reason, code } = refusal.diagnostic;
    if (this.entries.length < this.limits.maxBufferedEntries) {
      this.entries.push({
        entryId: newUrn(),
        occurredAt: now,
        lastOccurredAt: now,
        occurrences: 1,
        stage,
        reason: reason.slice(0, this.limits.maxClaimedChars),
        code,
        transport: refusal.origin.transport,
        address,
        ...claimsOf(refusal.document, this.limits.maxClaimedChars),
        signingHash: refusal.signingHash ?? null,
      });
      return;
    }
    this.coalesce({ entryId: newUrn(), occurredAt: now, stage, reason: reason.slice(0, this.limits.maxClaimedChars), code, transport: refusal.origin.transport, address, ...NO_CLAIMS, signingHash: null }, now, 1);
  }

  private coalesce(row: Summary['row'], lastOccurredAt: string, occurrences: number): void {
    let key = `${row.stage}\n${row.reason}\n${row.address ?? ''}`;
    let summaryRow = row;
    if (!this.summaries.has(key) && this.summaries.size >= this.limits.maxSummaries) {
      key = CATCH_ALL;
      summaryRow = { ...row, stage: CATCH_ALL, reason: 'refusals-beyond-summary-limit', code: CATCH_ALL, address: null };
    }
    const summary = this.summaries.get(key);
    if (summary === undefined) this.summaries.set(key, { row: summaryRow, lastOccurredAt, occurrences });
    else {
      summary.occurrences += occurrences;
      if (lastOccurredAt > summary.lastOccurredAt) summary.lastOccurredAt = lastOccurredAt;
    }
  }

  /** Refusals (rows and summaries) held in memory now. */
  get held(): { readonly entries: number; readonly summaries: number; readonly refusals: number } {
    let refusals = this.entries.length;
    for (const summary of this.summaries.values()) refusals += summary.occurrences;
    return { entries: this.entries.length, summaries: this.summaries.size, refusals };
  }

  /**
   * Writes what was buffered when it started, `maxRowsPerInsert` rows per statement, the
   * summaries with the last one; one flush at a time. On failure the rows stay buffered.
   */
  flush(): Promise<void> {
    const inFlight = this.flushing;
    if (inFlight === undefined) return this.startWrite();
    // The write in flight covers only what was buffered when it began; a caller who flushes
    // expects what it recorded before calling to be written, so one more write follows it.
    this.queued ??= inFlight.then(() => {
      this.queued = undefined;
      return this.startWrite();
    });
    return this.queued;
  }

  private startWrite(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    let remaining = this.entries.length;
    do {
      const entries = this.entries.slice(0, Math.min(remaining, this.limits.maxRowsPerInsert));
      const last = entries.length === remaining;
      const summaries = last ? [...this.summaries.values()] : [];
      if (last) this.summaries = new Map();
      const rows = [...entries, ...summaries.map((s) => ({ ...s.row, lastOccurredAt: s.lastOccurredAt, occurrences: s.occurrences }))];
      try {
        await insertPolicyLogRows(this.pool, rows);
      } catch (error) {
        for (const s of summaries) this.coalesce(s.row, s.lastOccurredAt, s.occurrences);
        this.logger.warn({ err: error, rows: rows.length }, 'Policy Log write failed; will retry');
        return;
      }
      this.entries.splice(0, entries.length);
      remaining -= entries.length;
    } while (remaining > 0);
  }

  /** Stops the timer and writes what is left, while the database takes it. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    for (let held = this.held.refusals; held > 0; ) {
      await this.flush();
      const left = this.held.refusals;
      if (left >= held) return;
      held = left;
    }
  }
}
