/**
 * Bounded offline execution on the Worker's side (§11.5). While the Group service is unreachable
 * a Worker may continue already-active reversible work until a grace deadline and buffer signed
 * progress: Messages in the WorkItem's Conversation and checkpoints. Each buffered Command is
 * signed at once, as of its buffer time, under the Session it was made in, and carries the
 * critical `urn:missionweaveprotocol:extension:bounded-offline-execution` binding.
 *
 * On reconnect `rebase` keeps each Command's binding, payload and Action ID and re-signs it with
 * the current `issuedAt`, Session Epoch and Membership Epoch; a checkpoint's `executionLeaseId` is
 * pointed at the Execution Lease the Worker holds now, since its new Session revoked the old one
 * (§11.3) and the Authority applies a checkpoint only under the current lease (the binding keeps
 * the historical one, which bounds when the work was done).
 *
 * The Action ID is kept, not renewed. The buffered Command never reached the Authority, so its
 * rebased form is its first submission, and the Action ID is what makes reconciliation happen at
 * most once: if an accepted reconciliation's answer is lost and the Worker reconnects again, the
 * next rebase differs in content and gets ACTION_ID_COLLISION instead of a second Message and a
 * second charge. (§19 asks for a new Action ID after a stale-fencing refusal so that a new
 * Command is never confused with the refused one; the Authority keeps receipts of accepted
 * Commands only, so reusing the ID of a refused rebase is safe, and a new ID here would defeat the
 * at-most-once charge §11.5 requires.) Rebasing again for the same Session, Membership Epoch and
 * lease returns the same bytes: an unchanged retry keeps its Action ID and content (§19).
 */

import { randomUUID } from 'node:crypto';
import { NO_USAGE, OFFLINE_EXECUTION_EXTENSION, OFFLINE_EXECUTION_VERSION, type ResourceUsage } from '../protocol/offlineExecution.js';
import { formatTimestamp } from '../protocol/timestamp.js';
import type { ProtocolEvent } from './documents.js';
import { AgentClientError, isAgentError, type AgentError } from './errors.js';
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

export type ReconcileOutcome =
  /** `event`: the Command's primary Event — its usage record when the Command carried a charge. */
  | { readonly actionId: string; readonly outcome: 'accepted'; readonly event: ProtocolEvent }
  /** ACTION_ID_COLLISION: an earlier rebase of this Command was accepted; nothing was applied twice. */
  | { readonly actionId: string; readonly outcome: 'already-reconciled' }
  | { readonly actionId: string; readonly outcome: 'refused'; readonly error: AgentError };

type Document = Record<string, unknown>;


export class OfflineBuffer {
  readonly disconnectedAt: string;
  readonly graceDeadline: string;
  private readonly buffered: Document[] = [];
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
    this.rebased = undefined;
    return signed;
  }

  /**
   * Each buffered Command rebased into `current` and re-signed, oldest first, as the texts to send
   * (`agent.sendSigned`). The same `current` again gives the same texts.
   */
  async rebase(current: CurrentSession): Promise<readonly string[]> {
    const key = `${current.sessionEpoch}/${current.membershipEpoch}/${current.executionLeaseId ?? ''}`;
    if (this.rebased?.key === key) return this.rebased.texts;
    const issuedAt = formatTimestamp(Math.max(this.clock(), ...this.buffered.map((c) => Date.parse(c['issuedAt'] as string))));
    const texts: string[] = [];
    for (const original of this.buffered) {
      const payload = original['payload'] as Document;
      const rebased: Document = {
        ...original,
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
   * Rebases and sends every buffered Command in order, one at a time (a checkpoint after the
   * Messages it follows), and says what became of each. The buffer is left as it was: drop it
   * once the Worker is satisfied with the outcomes.
   */
  async reconcile(sender: SignedCommandSender, current: CurrentSession): Promise<ReconcileOutcome[]> {
    const texts = await this.rebase(current);
    const outcomes: ReconcileOutcome[] = [];
    for (const [index, text] of texts.entries()) {
      const actionId = this.buffered[index]?.['actionId'] as string;
      try {
        outcomes.push({ actionId, outcome: 'accepted', event: await sender.sendSigned(text) });
      } catch (error) {
        if (!isAgentError(error)) throw error;
        outcomes.push(error.code === 'ACTION_ID_COLLISION' ? { actionId, outcome: 'already-reconciled' } : { actionId, outcome: 'refused', error });
      }
    }
    return outcomes;
  }
}
