/**
 * Commands in flight (§15.1, §19): each is signed with the Agent's key and identified by its
 * Action ID, and settles with its primary Event or a typed error. The primary Event is the
 * first one in the Command's own Group whose `cause` is the Action ID and whose `commandHash`
 * is one this runtime signed: the server sends a Command's Events primary first, both as the
 * answer and to subscribers (an attention filter hiding the primary Event's kind from a live
 * subscription of that Group could let a later Event of the Command arrive first).
 *
 * Retries keep the Action ID. A Command not yet sent is signed when it goes out, under the
 * Session Epoch of that moment; while the Agent is disconnected it waits. Once sent, its bytes
 * are kept: after a reconnect it is sent again byte for byte, so a Command the Group Authority
 * had already accepted answers with its original Events (same Event IDs, no second transition).
 * If that answer is AUTH_STALE_SESSION — the original was never accepted (an accepted one would
 * have answered with its Events) and its epoch is now fenced — it becomes, as §19 requires, a new
 * Command: a new Action ID, the new Session Epoch, a fresh `issuedAt` and a new signature; the
 * caller's promise follows it. A `retryable` refusal (RATE_LIMITED, INTERNAL_ERROR) is
 * retried unchanged after `retryAfterMs` or a growing delay, a few times. Anything else rejects
 * with the MissionWeaveError the server sent.
 */

import { randomUUID } from 'node:crypto';
import { parseStrictJsonText, type JsonObject } from '../protocol/strictJson.js';
import type { ProtocolEvent } from './documents.js';
import { AgentClientError, type AgentError, type MissionWeaveError } from './errors.js';
import type { AgentSession } from './session.js';
import { signingHash, signWith, type Signer } from './signer.js';
import { COMMAND_RESIGNS, MAX_COMMAND_TEXT_BYTES, MAX_JSON_DEPTH, RECENT_ACTION_IDS } from './limits.js';

export interface CommandOptions {
  /** The Group the Command acts in; every Agent Command names one. */
  readonly groupId?: string;
  /** The Agent's current Membership Epoch in the Group (else asked of `epochs`). */
  readonly membershipEpoch?: number;
  /** The current Coordinator Epoch, for Commands resting on the Coordinator lease. */
  readonly coordinatorEpoch?: number;
  readonly expectedRevision?: number;
  readonly conversationId?: string;
  readonly workItemId?: string;
  readonly cooperationOverrideGrantId?: string;
  readonly causedByEventId?: string;
  /** Chosen by the caller to make a retry across restarts idempotent; a fresh URN otherwise. */
  readonly actionId?: string;
  readonly correlationId?: string;
  /** Stops waiting (the Command may still have been accepted if it was already sent). */
  readonly signal?: AbortSignal;
}

export interface EpochFacts {
  readonly membershipEpoch?: number;
  readonly coordinatorEpoch?: number;
}

/** Supplies epochs a Command's options leave out; asked each time a Command is signed. */
export type EpochProvider = (groupId: string) => EpochFacts | undefined | Promise<EpochFacts | undefined>;

export interface CommandTrackerDeps {
  readonly agentId: string;
  readonly signer: Signer;
  readonly epochs: EpochProvider | undefined;
  /** The open session, if any. */
  readonly session: () => AgentSession | undefined;
  readonly maxRetries: number;
}

interface Pending {
  actionId: string;
  readonly correlationId: string;
  readonly kind: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly options: CommandOptions;
  readonly hashes: Set<string>;
  signed: Record<string, unknown> | undefined;
  /** A Command signed elsewhere (`sendSigned`): its exact text, never re-signed. */
  readonly presigned: string | undefined;
  signedEpoch: number;
  sent: boolean;
  frameId: string | undefined;
  retries: number;
  resigns: number;
  busy: boolean;
  /** A dispatch was asked for while one ran; it runs again after (re-signing if `resignAgain`). */
  again: boolean;
  resignAgain: boolean;
  timer: NodeJS.Timeout | undefined;
  resolve(event: ProtocolEvent): void;
  reject(error: AgentError): void;
}


export class CommandTracker {
  private readonly pending = new Map<string, Pending>();
  private readonly recent = new Set<string>();

  constructor(private readonly deps: CommandTrackerDeps) {}

  submit(kind: string, payload: Readonly<Record<string, unknown>>, options: CommandOptions): Promise<ProtocolEvent> {
    const actionId = options.actionId ?? `urn:uuid:${randomUUID()}`;
    const invalid = (message: string) => Promise.reject(new AgentClientError('INVALID_ARGUMENT', message, { relatedActionId: actionId }));
    if (typeof options.groupId !== 'string') return invalid('an Agent Command names its Group (options.groupId)');
    if (this.pending.has(actionId)) return invalid(`Action ID ${actionId} is already in flight`);
    if (options.signal?.aborted === true) return Promise.reject(new AgentClientError('ABORTED', 'aborted before sending', { relatedActionId: actionId }));
    return this.track(actionId, options.correlationId ?? `urn:uuid:${randomUUID()}`, kind, payload, options, undefined);
  }

  /**
   * Tracks a Command signed elsewhere, sent as the exact text given (re-sent byte for byte after
   * a reconnect, never re-signed: a fenced Session Epoch rejects it with AUTH_STALE_SESSION).
   */
  submitSigned(text: string): Promise<ProtocolEvent> {
    let command: JsonObject;
    try {
      const value = parseStrictJsonText(text, { maxBytes: MAX_COMMAND_TEXT_BYTES, maxDepth: MAX_JSON_DEPTH });
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('a Command is a JSON object');
      command = value;
    } catch (cause) {
      return Promise.reject(new AgentClientError('INVALID_ARGUMENT', `not a Signed Command: ${(cause as Error).message}`, { cause }));
    }
    const actionId = command['actionId'];
    const actor = command['actor'] as JsonObject | undefined;
    const invalid = (message: string) => Promise.reject(new AgentClientError('INVALID_ARGUMENT', message, typeof actionId === 'string' ? { relatedActionId: actionId } : {}));
    if (typeof actionId !== 'string' || typeof command['kind'] !== 'string' || typeof command['groupId'] !== 'string') return invalid('a Signed Command has an actionId, a kind and a groupId');
    if (actor?.['type'] !== 'agent' || actor['id'] !== this.deps.agentId) return invalid(`a Command sent on this session is signed as the Agent ${this.deps.agentId}`);
    if (typeof command['signature'] !== 'object') return invalid('the Command carries no signature');
    if (this.pending.has(actionId)) return invalid(`Action ID ${actionId} is already in flight`);
    const options: CommandOptions = { groupId: command['groupId'] };
    return this.track(actionId, typeof command['correlationId'] === 'string' ? command['correlationId'] : '', command['kind'], (command['payload'] ?? {}) as JsonObject, options, text, signingHash(command));
  }

  private track(actionId: string, correlationId: string, kind: string, payload: Readonly<Record<string, unknown>>, options: CommandOptions, presigned: string | undefined, hash?: string): Promise<ProtocolEvent> {
    return new Promise<ProtocolEvent>((resolve, reject) => {
      const command: Pending = {
        actionId,
        correlationId,
        kind,
        payload,
        options,
        hashes: new Set(hash === undefined ? [] : [hash]),
        signed: undefined,
        presigned,
        signedEpoch: 0,
        sent: false,
        frameId: undefined,
        retries: 0,
        resigns: 0,
        busy: false,
        again: false,
        resignAgain: false,
        timer: undefined,
        resolve,
        reject,
      };
      this.pending.set(actionId, command);
      this.remember(actionId);
      options.signal?.addEventListener('abort', () => this.settle(command, new AgentClientError('ABORTED', 'the caller stopped waiting', { relatedActionId: actionId })), { once: true });
      void this.dispatch(command, false);
    });
  }

  /** A session opened: every waiting Command goes out, sent ones byte for byte. */
  sessionOpened(): void {
    for (const command of this.pending.values()) if (command.timer === undefined) void this.dispatch(command, false);
  }

  /** Whether an Event was caused by a Command this runtime sent. */
  isOwn(event: ProtocolEvent): boolean {
    return event.cause.type === 'command' && event.actor.type === 'agent' && event.actor.id === this.deps.agentId && this.recent.has(event.cause.id);
  }

  /** Settles the Command an Event answers; false when it answers none in flight. */
  answer(event: ProtocolEvent): boolean {
    if (!this.isOwn(event)) return false;
    const command = this.pending.get(event.cause.id);
    if (command === undefined) return false;
    // The primary Event is in the Command's own Group; others (a child Mission's) are not answers.
    if (event.groupId !== undefined && event.groupId !== command.options.groupId) return false;
    if (event.commandHash !== undefined && !command.hashes.has(event.commandHash)) return false;
    this.settle(command, event);
    return true;
  }

  /** A would-be answer failed verification: the Command it claims to answer fails with `error`. */
  unverifiedAnswer(event: ProtocolEvent, error: AgentError): boolean {
    const command = this.isOwn(event) ? this.pending.get(event.cause.id) : undefined;
    if (command === undefined) return false;
    this.settle(command, error);
    return true;
  }

  /** Handles an ERROR about a Command in flight; false when it concerns none. */
  refused(error: MissionWeaveError): boolean {
    const command =
      [...this.pending.values()].find((c) => c.frameId !== undefined && c.frameId === error.relatedFrameId) ??
      (error.relatedActionId === undefined ? undefined : this.pending.get(error.relatedActionId));
    if (command === undefined || !command.sent) return false;
    const epoch = this.deps.session()?.sessionEpoch ?? 0;
    if (error.code === 'AUTH_STALE_SESSION' && command.presigned === undefined && command.signedEpoch < epoch && command.resigns < COMMAND_RESIGNS) {
      command.resigns++;
      this.pending.delete(command.actionId);
      command.actionId = `urn:uuid:${randomUUID()}`;
      this.pending.set(command.actionId, command);
      this.remember(command.actionId);
      void this.dispatch(command, true);
    } else if (error.retryable && command.retries < this.deps.maxRetries) {
      command.retries++;
      const delay = error.retryAfterMs ?? 100 * 2 ** command.retries;
      command.timer = setTimeout(() => {
        command.timer = undefined;
        void this.dispatch(command, false);
      }, delay);
    } else {
      this.settle(command, error);
    }
    return true;
  }

  /** The Agent stopped for good: every Command in flight fails with `error`. */
  failAll(error: AgentError): void {
    for (const command of [...this.pending.values()]) this.settle(command, error);
  }

  get inFlight(): number {
    return this.pending.size;
  }

  private async dispatch(command: Pending, resign: boolean): Promise<void> {
    if (!this.pending.has(command.actionId)) return;
    if (command.busy) {
      command.again = true;
      command.resignAgain ||= resign;
      return;
    }
    command.busy = true;
    try {
      const session = this.deps.session();
      if (session === undefined || !session.isOpen) return;
      // Bytes that never left may be re-signed freely; sent bytes change only on a stale epoch.
      if (command.presigned === undefined && (!command.sent || resign)) await this.sign(command, session.sessionEpoch);
      if (this.deps.session() !== session || !session.isOpen) {
        command.again = true;
        return;
      }
      if (!this.pending.has(command.actionId)) return;
      command.frameId = command.presigned === undefined ? session.send({ frameType: 'COMMAND', command: command.signed }) : session.sendCommandText(command.presigned);
      command.sent = true;
    } catch (error) {
      this.settle(command, new AgentClientError('INVALID_ARGUMENT', `cannot sign ${command.kind}: ${(error as Error).message}`, { relatedActionId: command.actionId, cause: error }));
    } finally {
      command.busy = false;
      if (command.again) {
        const again = command.resignAgain;
        command.again = false;
        command.resignAgain = false;
        void this.dispatch(command, again);
      }
    }
  }

  private async sign(command: Pending, sessionEpoch: number): Promise<void> {
    const { options } = command;
    const groupId = options.groupId as string;
    const provided = options.membershipEpoch === undefined || options.coordinatorEpoch === undefined ? await this.deps.epochs?.(groupId) : undefined;
    const membershipEpoch = options.membershipEpoch ?? provided?.membershipEpoch;
    const coordinatorEpoch = options.coordinatorEpoch ?? provided?.coordinatorEpoch;
    if (membershipEpoch === undefined) throw new Error(`no Membership Epoch for ${groupId} (options.membershipEpoch or the epochs provider)`);
    const optional = {
      coordinatorEpoch,
      expectedRevision: options.expectedRevision,
      conversationId: options.conversationId,
      workItemId: options.workItemId,
      cooperationOverrideGrantId: options.cooperationOverrideGrantId,
      causedByEventId: options.causedByEventId,
    };
    const unsigned: Record<string, unknown> = {
      protocolVersion: '0.1',
      actionId: command.actionId,
      actor: { type: 'agent', id: this.deps.agentId },
      kind: command.kind,
      groupId,
      sessionEpoch,
      membershipEpoch,
      correlationId: command.correlationId,
      issuedAt: new Date().toISOString(),
      payload: command.payload,
    };
    for (const [member, value] of Object.entries(optional)) if (value !== undefined) unsigned[member] = value;
    const signed = await signWith('command', unsigned, this.deps.signer);
    command.signed = signed.document;
    command.signedEpoch = sessionEpoch;
    command.hashes.add(signed.signingHash);
  }

  private settle(command: Pending, outcome: ProtocolEvent | AgentError): void {
    if (this.pending.get(command.actionId) !== command) return;
    this.pending.delete(command.actionId);
    if (command.timer !== undefined) clearTimeout(command.timer);
    if (outcome instanceof Error) command.reject(outcome);
    else command.resolve(outcome);
  }

  private remember(actionId: string): void {
    this.recent.delete(actionId);
    this.recent.add(actionId);
    if (this.recent.size > RECENT_ACTION_IDS) this.recent.delete(this.recent.values().next().value as string);
  }
}
