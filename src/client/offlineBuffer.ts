/**
 * Bounded offline execution on the Worker's side (§11.5). While the Group service is unreachable
 * a Worker may continue already-active reversible work until a grace deadline and buffer signed
 * progress: Messages in the WorkItem's Conversation and checkpoints. Each buffered Command is
 * signed at once, as of its buffer time, under the Session it was made in, and carries the
 * critical `urn:missionweaveprotocol:extension:bounded-offline-execution` binding.
 *
 * On reconnect each Command is rebased: its binding, correlation ID and payload are kept, and it
 * is re-signed with the current `issuedAt`, Session Epoch and Membership Epoch under a NEW Action
 * ID; a checkpoint's `executionLeaseId` is pointed at the Execution Lease the Worker holds now,
 * since its new Session revoked the old one (§11.3) and the Authority applies a checkpoint only
 * under the current lease (the binding keeps the historical one, which bounds when the work was
 * done). §19: "A stale fencing error requires the current authoritative epoch and a new Command
 * with a new Action ID and signature", and a buffered Command's Session is fenced by the time it
 * is reconciled — the durable outbox's rebase (runtime/outboxRebase.ts) follows the same rule.
 *
 * Reconciled at most once (§11.5: one charge) with a new Action ID per rebase, because
 * `reconcile` first sends the text it last sent for a Command, unchanged: if the Authority had
 * applied it (its answer lost) it answers with the original receipt (§15.1) and nothing is
 * rebased; only a refusal as stale (AUTH_STALE_SESSION, MEMBERSHIP_STALE: fenced, so never
 * applied and never applicable later) leads to a new rebase. Rebasing again into the same Session,
 * Membership Epoch and lease returns the same bytes: an unchanged retry keeps its Action ID and
 * content (§19).
 */

import { randomUUID } from 'node:crypto';
import { NO_USAGE, OFFLINE_EXECUTION_EXTENSION, OFFLINE_EXECUTION_VERSION, type ResourceUsage } from '../protocol/offlineExecution.js';
import { formatTimestamp } from '../protocol/timestamp.js';
import type { ProtocolEvent } from './documents.js';
import { AgentClientError, MissionWeaveError } from './errors.js';
import { MAX_OFFLINE_COMMANDS } from './limits.js';
import { signWith, type Signer } from './signer.js';

/** The execution the Worker was running when it lost the service, as its last Events told it. */
export interface OfflineExecution {
  readonly agentId: string;
  readonly groupId: string;
  readonly workItemId: string;
  /** The WorkItem's own Conversation: the only one offline Messages may go to. */
  readonly conversationId: string;
  readonly sessionEpoch: number;
  readonly membershipEpoch: number;
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
  readonly executionLeaseExpiresAt: string;
}

export interface OfflineBufferOptions {
  /** When the service was lost (default: now). */
  readonly disconnectedAt?: string;
  /** The lease-grace period allowed by policy; the deadline never passes the lease's expiry. */
  readonly maxGraceSeconds: number;
  readonly maxCommands?: number;
  /** Milliseconds since the epoch (tests pass a fixed clock). */
  readonly clock?: () => number;
}

/** The six budget dimensions of what the work used since the previous buffered Command (§12). */
export type ResourceUsageDelta = ResourceUsage;

/** The authenticated session the progress is reconciled in. */
export interface CurrentSession {
  readonly sessionEpoch: number;
  readonly membershipEpoch: number;
  /** The Execution Lease the Worker holds now; buffered checkpoints are rebased onto it. */
  readonly executionLeaseId?: string;
}

/** What sends a signed Command: a `MissionWeaveAgent` (`agent.sendSigned`). */
export interface SignedCommandSender {
  sendSigned(command: string): Promise<ProtocolEvent>;
}

/**
 * What became of one buffered Command. `actionId` is the Action ID it was delivered (or last
 * sent) as — a rebase's new one — and `bufferedActionId` the one it was buffered under.
 */
export type ReconcileOutcome =
  /** `event`: the Command's primary Event — its usage record when the Command carried a charge. */
  | { readonly actionId: string; readonly bufferedActionId: string; readonly outcome: 'accepted'; readonly event: ProtocolEvent }
  | { readonly actionId: string; readonly bufferedActionId: string; readonly outcome: 'refused'; readonly error: MissionWeaveError }
  /** No answer (the connection dropped): the next `reconcile` sends the same text again first; nothing after it was sent. */
  | { readonly actionId: string; readonly bufferedActionId: string; readonly outcome: 'unanswered'; readonly error: unknown };

/** The refusals that say a Command's epoch is fenced: never applied, so rebased under a new Action ID (§19). */
const STALE = new Set(['AUTH_STALE_SESSION', 'MEMBERSHIP_STALE']);

type Document = Record<string, unknown>;


export class OfflineBuffer {
  readonly disconnectedAt: string;
  readonly graceDeadline: string;
  private readonly buffered: Document[] = [];
  /** Per buffered Command, the text `reconcile` last sent: sent again unchanged before any new rebase. */
  private readonly lastSent: (string | undefined)[] = [];
  private readonly clock: () => number;
  private readonly maxCommands: number;
  private rebased: { readonly key: string; readonly texts: readonly string[] } | undefined;

  constructor(
    private readonly execution: OfflineExecution,
    private readonly signer: Signer,
    options: OfflineBufferOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.maxCommands = options.maxCommands ?? MAX_OFFLINE_COMMANDS;
    this.disconnectedAt = options.disconnectedAt ?? formatTimestamp(this.clock());
    const grace = Date.parse(this.disconnectedAt) + options.maxGraceSeconds * 1000;
    this.graceDeadline = formatTimestamp(Math.min(grace, Date.parse(execution.executionLeaseExpiresAt)));
  }

  get size(): number {
    return this.buffered.length;
  }

  /** The buffered Commands as signed, oldest first. */
  get commands(): readonly Readonly<Document>[] {
    return this.buffered;
  }

  /** Buffers a Message in the WorkItem's Conversation. */
  bufferMessage(payload: { readonly messageId?: string; readonly content: unknown; readonly mentions?: readonly unknown[] }, usage: Partial<ResourceUsageDelta> = {}): Promise<Readonly<Document>> {
    return this.buffer('message.post', { messageId: payload.messageId ?? `urn:uuid:${randomUUID()}`, ...payload, conversationId: this.execution.conversationId }, usage);
  }

  /** Buffers a checkpoint of the WorkItem (§11.4), taken now unless `checkpoint.createdAt` says when. */
  bufferCheckpoint(checkpoint: { readonly phase: string; readonly createdAt?: string } & Readonly<Record<string, unknown>>, usage: Partial<ResourceUsageDelta> = {}): Promise<Readonly<Document>> {
    const { workItemId, ownershipEpoch, executionLeaseId } = this.execution;
    return this.buffer('work.checkpoint', { workItemId, ownershipEpoch, executionLeaseId, checkpoint: { createdAt: formatTimestamp(this.clock()), ...checkpoint } }, usage);
  }

  private async buffer(kind: 'message.post' | 'work.checkpoint', payload: Document, usage: Partial<ResourceUsageDelta>): Promise<Readonly<Document>> {
    const now = this.clock();
    const invalid = (message: string) => new AgentClientError('INVALID_ARGUMENT', message, { groupId: this.execution.groupId });
    if (now >= Date.parse(this.graceDeadline)) throw invalid(`the offline grace period ended at ${this.graceDeadline}`);
    if (this.buffered.length >= this.maxCommands) throw invalid(`the offline buffer holds at most ${this.maxCommands} Commands`);
    const delta = { ...NO_USAGE, ...usage };
    if (delta.externalActions !== 0) throw invalid('no external action may be taken offline (§11.5)');
    const bufferedAt = formatTimestamp(now);
    const { execution } = this;
    const binding = {
      agentId: execution.agentId,
      groupId: execution.groupId,
      workItemId: execution.workItemId,
      sessionEpoch: execution.sessionEpoch,
      ownershipEpoch: execution.ownershipEpoch,
      executionLeaseId: execution.executionLeaseId,
      disconnectedAt: this.disconnectedAt,
      bufferedAt,
      graceDeadline: this.graceDeadline,
      executionLeaseExpiresAt: execution.executionLeaseExpiresAt,
      resourceUsageDelta: delta,
    };
    const command: Document = {
      protocolVersion: '0.1',
      actionId: `urn:uuid:${randomUUID()}`,
      actor: { type: 'agent', id: execution.agentId },
      sessionEpoch: execution.sessionEpoch,
      membershipEpoch: execution.membershipEpoch,
      groupId: execution.groupId,
      kind,
      correlationId: `urn:uuid:${randomUUID()}`,
      issuedAt: bufferedAt,
      payload,
      extensions: { [OFFLINE_EXECUTION_EXTENSION]: { version: OFFLINE_EXECUTION_VERSION, critical: true, data: binding } },
    };
    const signed = (await signWith('command', command, this.signer)).document;
    this.buffered.push(signed);
    this.lastSent.push(undefined);
    this.rebased = undefined;
    return signed;
  }

  /**
   * Each buffered Command rebased into `current` and re-signed under a new Action ID, oldest
   * first, as the texts to send (`agent.sendSigned`). The same `current` again gives the same
   * texts. A rebase alone cannot tell whether an earlier one was applied; `reconcile` can, and is
   * what keeps the charge at most once.
   */
  async rebase(current: CurrentSession): Promise<readonly string[]> {
    const key = `${current.sessionEpoch}/${current.membershipEpoch}/${current.executionLeaseId ?? ''}`;
    if (this.rebased?.key === key && this.rebased.texts.length === this.buffered.length) return this.rebased.texts;
    const issuedAt = formatTimestamp(Math.max(this.clock(), ...this.buffered.map((c) => Date.parse(c['issuedAt'] as string))));
    const texts: string[] = [];
    for (const original of this.buffered) {
      const payload = original['payload'] as Document;
      const rebased: Document = {
        ...original,
        actionId: `urn:uuid:${randomUUID()}`,
        issuedAt,
        sessionEpoch: current.sessionEpoch,
        membershipEpoch: current.membershipEpoch,
        ...(original['kind'] === 'work.checkpoint' && current.executionLeaseId !== undefined ? { payload: { ...payload, executionLeaseId: current.executionLeaseId } } : {}),
      };
      texts.push(JSON.stringify((await signWith('command', rebased, this.signer)).document));
    }
    this.rebased = { key, texts };
    return texts;
  }

  /**
   * Sends every buffered Command in order, one at a time (a checkpoint after the Messages it
   * follows), and says what became of each. A Command sent by an earlier `reconcile` is first sent
   * again with the same text: its receipt if it was applied, and only if it is refused as stale a
   * rebase into `current` under a new Action ID. Sending stops at the first Command left without
   * an answer. The buffer is left as it was: drop it once the Worker is satisfied with the outcomes.
   */
  async reconcile(sender: SignedCommandSender, current: CurrentSession): Promise<ReconcileOutcome[]> {
    const texts = await this.rebase(current);
    const outcomes: ReconcileOutcome[] = [];
    for (const [index, text] of texts.entries()) {
      const bufferedActionId = this.buffered[index]?.['actionId'] as string;
      const previous = this.lastSent[index];
      let outcome = previous === undefined ? undefined : await this.send(sender, previous, bufferedActionId);
      if (outcome === undefined || (outcome.outcome === 'refused' && STALE.has(outcome.error.code) && previous !== text)) {
        this.lastSent[index] = text;
        outcome = await this.send(sender, text, bufferedActionId);
      }
      outcomes.push(outcome);
      if (outcome.outcome === 'unanswered') break;
    }
    return outcomes;
  }

  private async send(sender: SignedCommandSender, text: string, bufferedActionId: string): Promise<ReconcileOutcome> {
    const actionId = (JSON.parse(text) as Document)['actionId'] as string;
    try {
      return { actionId, bufferedActionId, outcome: 'accepted', event: await sender.sendSigned(text) };
    } catch (error) {
      if (error instanceof MissionWeaveError && !error.retryable) return { actionId, bufferedActionId, outcome: 'refused', error };
      return { actionId, bufferedActionId, outcome: 'unanswered', error };
    }
  }
}
