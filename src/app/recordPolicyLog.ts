/**
 * Keeps every refused Signed Document's first failing semantic stage and stable reason in the
 * durable, append-only Policy Log (§6.4: "The Organization MUST retain the first failing
 * semantic stage and its specific diagnostic reason in a protected, access-controlled audit
 * record"), where auditors — and a Group Snapshot's `policyLog` — can reference it.
 *
 * A refusal is answered only once its record is committed: `record` resolves after the INSERT
 * that carried it, so a node that dies right after answering has already kept it. Refusals that
 * arrive together are written together (one statement, one round trip per batch: while one
 * write is in flight the next ones gather, as a group commit does), so recording costs a
 * refusal's caller a round trip and the node one statement per batch, not per refusal. Every
 * record keeps its own stage, reason and claims; nothing is summarized or coalesced. What a
 * flood can grow is bounded by turning the flooder away: past `maxPendingEntries` refusals
 * waiting for their write, `record` answers `saturated` at once and the caller refuses the
 * Command RATE_LIMITED (§19, §20) instead of answering a refusal it did not record.
 */

import type { Logger } from 'pino';
import type { VerificationFailure } from '../protocol/signing/verification.js';
import type { JsonValue } from '../protocol/strictJson.js';
import type { Pool } from '../store/pool.js';
import { insertPolicyLogRows, type PolicyLogRow } from '../store/sql/policyLog.js';
import { newUrn } from './eventFactory.js';
import { DEFAULT_POLICY_LOG_LIMITS, type PolicyLogLimits } from './policyLogLimits.js';
import type { Clock } from './settings.js';
import { wireError, type WireError } from './wireError.js';

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

/**
 * `recorded`: committed; `saturated`: not taken, too many refusals wait for their write (refuse
 * the sender RATE_LIMITED); `failed`: the write failed (the database is away: INTERNAL_ERROR).
 */
export type RecordOutcome = 'recorded' | 'saturated' | 'failed';

/**
 * What a refusal is answered with when its record was not made: the sender is turned away
 * (retryable) rather than told a refusal the Organization did not keep.
 */
export function unrecordedError(outcome: Exclude<RecordOutcome, 'recorded'>, relatedActionId?: string): WireError {
  const related = relatedActionId === undefined ? {} : { relatedActionId };
  return outcome === 'saturated'
    ? wireError('RATE_LIMITED', 'this node is recording as many refusals as it can hold; wait before sending more', { ...related, retryAfterMs: 1_000 })
    : wireError('INTERNAL_ERROR', '', related);
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

/** A refusal's row, waiting for its write, and who waits for the outcome. */
interface Waiting {
  readonly row: PolicyLogRow;
  readonly settle: (outcome: RecordOutcome) => void;
}

export class PolicyLogRecorder {
  private queued: Waiting[] = [];
  /** Rows of the write in flight. */
  private writingRows = 0;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly limits: PolicyLogLimits = DEFAULT_POLICY_LOG_LIMITS,
  ) {}

  /** Refusals waiting for their write or in it. */
  get pending(): number {
    return this.queued.length + this.writingRows;
  }

  /** Whether a refusal now would be turned away (`saturated`). */
  get saturated(): boolean {
    return this.pending >= this.limits.maxPendingEntries;
  }

  /** Records one refusal; resolves once it is committed, or says why it was not. */
  record(refusal: Refusal): Promise<RecordOutcome> {
    if (this.saturated) return Promise.resolve('saturated');
    const now = new Date(this.clock.nowMillis()).toISOString();
    const { stage, reason, code } = refusal.diagnostic;
    const row: PolicyLogRow = {
      entryId: newUrn(),
      occurredAt: now,
      lastOccurredAt: now,
      occurrences: 1,
      stage,
      reason: reason.slice(0, this.limits.maxClaimedChars),
      code,
      transport: refusal.origin.transport,
      address: refusal.origin.address === undefined ? null : refusal.origin.address.slice(0, this.limits.maxClaimedChars),
      ...claimsOf(refusal.document, this.limits.maxClaimedChars),
      signingHash: refusal.signingHash ?? null,
    };
    return new Promise((settle) => {
      this.queued.push({ row, settle });
      this.startWrite();
    });
  }

  /** Starts the next write unless one is in flight; the one in flight starts it when it ends. */
  private startWrite(): void {
    if (this.writing !== undefined || this.queued.length === 0) return;
    this.writing = this.writeNext().finally(() => {
      this.writing = undefined;
      this.startWrite();
    });
  }

  /** Writes what is queued, up to `maxRowsPerInsert` rows, in one statement, and settles each. */
  private async writeNext(): Promise<void> {
    const batch = this.queued.splice(0, this.limits.maxRowsPerInsert);
    this.writingRows = batch.length;
    let outcome: RecordOutcome = 'recorded';
    try {
      await insertPolicyLogRows(this.pool, batch.map((w) => w.row));
    } catch (error) {
      outcome = 'failed';
      const refusals = batch.map(({ row }) => ({ stage: row.stage, reason: row.reason, code: row.code, claimedGroupId: row.claimedGroupId }));
      this.logger.error({ err: error, refusals }, 'Policy Log write failed; these refusals are answered INTERNAL_ERROR');
    }
    this.writingRows = 0;
    for (const waiting of batch) waiting.settle(outcome);
  }

  /** Resolves once every refusal recorded before the call has been written (or has failed). */
  async flush(): Promise<void> {
    while (this.writing !== undefined) await this.writing;
  }

  /** Waits for the writes in flight; nothing is held back for later. */
  close(): Promise<void> {
    return this.flush();
  }
}
