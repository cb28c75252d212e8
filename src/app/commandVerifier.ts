/**
 * The Group Authority's stateless checks (§6.4): a Command verified on a crypto worker or on the
 * main thread, again on a Registry caught up with the database where a refusal calls for it, and
 * a refusal's Policy Log record committed before the refusal is answered.
 */

import type { Logger } from 'pino';
import type { JsonObject, JsonValue } from '../protocol/strictJson.js';
import type { VerificationFailure } from '../protocol/signing/verification.js';
import type { GroupBatchDependencies } from './runGroupBatch.js';
import { commandFromWorker, verifyCommandBytes, verifyCommandValue, type FrontResult } from './verifyCommand.js';
import { InlineVerifyPolicy } from './workers/inlineVerify.js';
import type { WireError } from './wireError.js';
import { unrecordedError, type PolicyLogRecorder, type Refusal, type SubmissionOrigin } from './recordPolicyLog.js';

/**
 * The exact text a Command arrived in, so that a crypto worker can verify it: a whole COMMAND
 * frame (`frame`: verify its `command`), or the Command itself (an HTTPS body).
 */
export interface RawCommand {
  readonly text: string;
  readonly frame: boolean;
}

/**
 * Failures after which the Registry is caught up with the database before refusing: those
 * another node's recent Registry change could explain, and a known key's bad signature too, so
 * that refusing an unknown key takes no longer than refusing a known one (the time of a refusal
 * must not tell which key IDs exist).
 */
function refreshBeforeRefusing(diagnostic: VerificationFailure | undefined): boolean {
  return diagnostic !== undefined && (diagnostic.stage === 'key-resolution' || diagnostic.stage === 'admission' || diagnostic.stage === 'signature');
}

export class CommandVerifier {
  /** Whether the main thread verifies a Command itself rather than handing it to a worker. */
  private readonly inlineVerify = new InlineVerifyPolicy();

  constructor(
    private readonly deps: GroupBatchDependencies,
    private readonly policyLog: PolicyLogRecorder,
    private readonly logger: Logger,
  ) {}

  /**
   * The stateless checks: on a crypto worker when there are any and the input is text, unless
   * the origin may be verified here (`mayInline`: not an outsider in bad standing) and the main
   * thread has room (`InlineVerifyPolicy`).
   */
  private async front(input: Uint8Array | JsonValue, raw: RawCommand | undefined, mayInline: boolean): Promise<FrontResult> {
    const snapshot = this.deps.registry.current;
    const crypto = this.deps.crypto;
    const source = raw ?? (input instanceof Uint8Array ? { text: Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8'), frame: false } : undefined);
    if (crypto !== undefined && source !== undefined && !(mayInline && this.inlineVerify.inline(source.text.length))) {
      const reply = await crypto.verify(source.text, source.frame);
      if (reply.type === 'rejected') return { ok: false, error: reply.error, ...(reply.diagnostic === undefined ? {} : { diagnostic: reply.diagnostic }) };
      if (reply.type === 'verified') {
        const parsed = raw !== undefined && !(input instanceof Uint8Array) ? (input as JsonObject) : undefined;
        const command = commandFromWorker(reply.canonical, reply.signingHash, reply.keyId, reply.registryRevision, this.deps.registry.current.registry, this.deps.kinds, parsed, reply.embedded);
        if (command !== undefined) return { ok: true, command };
      }
    }
    return input instanceof Uint8Array
      ? verifyCommandBytes(input, snapshot, this.deps.schemas, this.deps.kinds)
      : verifyCommandValue(input, snapshot, this.deps.schemas, this.deps.kinds);
  }

  /** The stateless checks, again on a Registry caught up with the database where a refusal calls for it. */
  private async verify(input: Uint8Array | JsonValue, raw: RawCommand | undefined, mayInline: boolean): Promise<FrontResult> {
    const front = await this.front(input, raw, mayInline);
    if (front.ok || !refreshBeforeRefusing(front.diagnostic)) return front;
    let moved: boolean;
    try {
      moved = await this.refreshRegistry();
    } catch (error) {
      // No Registry change explains a bad signature: with the database away it is still refused.
      if (front.diagnostic?.stage === 'signature') return front;
      throw error;
    }
    return moved ? this.front(input, raw, mayInline) : front;
  }

  /**
   * The stateless checks, and a refusal's Policy Log record committed before the refusal is
   * returned (§6.4); the caller runs it inside an outsider's turn of the verification gate, so
   * that a flooder's refusals waiting on the record count toward its own share. A refusal that
   * could not be recorded is answered as such (`unrecordedError`), never as the refusal.
   */
  async verifyRecorded(input: Uint8Array | JsonValue, source: RawCommand | undefined, mayInline: boolean, origin: SubmissionOrigin): Promise<FrontResult> {
    const front = await this.verify(input, source, mayInline);
    if (front.ok || front.diagnostic === undefined) return front;
    if (front.diagnostic.code === 'AUTH_INVALID_SIGNATURE') {
      this.logger.info({ stage: front.diagnostic.stage, reason: front.diagnostic.reason }, 'signed Command rejected');
    }
    const error = await this.recordRefusal({ diagnostic: front.diagnostic, origin, document: input }, front.error);
    return { ok: false, error };
  }

  /** Records a refusal and returns what to answer: `error` once it is recorded. */
  async recordRefusal(refusal: Refusal, error: WireError): Promise<WireError> {
    const outcome = await this.policyLog.record(refusal);
    return outcome === 'recorded' ? error : unrecordedError(outcome, error.relatedActionId);
  }

  /** Catches up with Registry changes made by other nodes; true when the Registry moved. */
  async refreshRegistry(): Promise<boolean> {
    const before = this.deps.registry.current.revision;
    return (await this.deps.registry.refresh(this.deps.pool)).revision !== before;
  }
}
