/**
 * The life of an Agent's connection (§6.3, §17.1): the first session opens on `connect()`;
 * after that, a close that invites it reconnects with exponential backoff and full jitter,
 * with a fresh HELLO and so a new Session Epoch; any other close stops the Agent for good
 * (`failed`), since reconnecting after a 4501 would fence the newer runtime that replaced it.
 * Frames of the current session are handled in arrival order (inbox.ts); frames and closes of
 * any earlier session are dropped.
 */

import { backoffDelay, isFinalClose, isFinalFailure, type AgentState, type ConnectionChange } from './agentOptions.js';
import { AgentClientError, type AgentError } from './errors.js';
import { FrameInbox } from './inbox.js';
import type { AgentSession, SessionClose, SessionHandlers } from './session.js';

export interface ConnectionParts {
  /** Opens one session (HELLO) that reports to the handlers given. */
  readonly open: (handlers: SessionHandlers) => Promise<AgentSession>;
  /** One frame of the current session, after every frame before it was handled. */
  readonly route: (session: AgentSession, frame: Record<string, unknown>) => void | Promise<void>;
  /** A session was accepted and is now current. */
  readonly opened: () => void;
  /** The current session ended. */
  readonly ended: () => void;
  /** The Agent stopped: every Command in flight rejects with `error`. */
  readonly failAll: (error: AgentError) => void;
  readonly report: (error: AgentError) => void;
  readonly changed: (change: ConnectionChange) => void;
  readonly delays: { readonly initialDelayMs: number; readonly maxDelayMs: number };
}

export class AgentConnection {
  private session: AgentSession | undefined;
  private agentState: AgentState = 'idle';
  private failed: AgentError | undefined;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private inbox: FrameInbox<Record<string, unknown>> | undefined;

  constructor(private readonly parts: ConnectionParts) {}

  get state(): AgentState {
    return this.agentState;
  }

  get current(): AgentSession | undefined {
    return this.session;
  }

  get failure(): AgentError | undefined {
    return this.failed;
  }

  /** Opens the first session; rejects with the reason if it cannot (call again to retry). */
  async connect(): Promise<void> {
    if (this.agentState !== 'idle' && this.agentState !== 'failed') throw new AgentClientError('INVALID_ARGUMENT', `connect() while ${this.agentState}`);
    this.failed = undefined;
    this.change('connecting');
    try {
      await this.open();
    } catch (error) {
      if ((this.agentState as AgentState) === 'connecting') {
        // The caller holds the rejection; onError is for what no caller is waiting on.
        this.failed = error as AgentError;
        this.change('failed');
        this.parts.failAll(this.failed);
      }
      throw error;
    }
  }

  /** Stops for good; `drain` runs (last ACKs) before the session closes. */
  async close(drain: () => Promise<void>): Promise<void> {
    if (this.agentState === 'closed') return;
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    const session = this.session;
    this.change('closed');
    this.parts.failAll(new AgentClientError('CONNECTION_CLOSED', 'the Agent was closed'));
    await drain();
    this.session = undefined;
    if (session?.isOpen === true) session.close(1000, 'agent closing');
  }

  private open(): Promise<AgentSession> {
    return this.parts.open({
      accepted: (session) => this.accepted(session),
      frame: (session, frame) => {
        if (session === this.session) this.inbox?.push(frame);
      },
      closed: (session, close) => this.closed(session, close),
    });
  }

  private accepted(session: AgentSession): void {
    if (this.agentState !== 'connecting' && this.agentState !== 'reconnecting') {
      session.close(1000, 'agent closing');
      return;
    }
    this.session = session;
    this.inbox = new FrameInbox(
      (frame) => this.parts.route(session, frame),
      () => session.terminate(),
      (cause) => this.parts.report(new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `a frame could not be handled: ${(cause as Error).message}`, { cause })),
    );
    this.attempt = 0;
    this.change('open');
    this.parts.opened();
  }

  private closed(session: AgentSession, close: SessionClose): void {
    if (session !== this.session) return;
    this.session = undefined;
    this.inbox = undefined;
    this.parts.ended();
    if (this.agentState === 'closed' || this.agentState === 'failed') return;
    if (isFinalClose(close)) {
      this.fail(close.error ?? new AgentClientError('CONNECTION_CLOSED', `closed for good: ${close.code} ${close.reason}`, { closeCode: close.code }), close);
      return;
    }
    if (close.error !== undefined) this.parts.report(close.error);
    this.change('reconnecting', close);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delay = backoffDelay(this.attempt++, this.parts.delays.initialDelayMs, this.parts.delays.maxDelayMs);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.agentState !== 'reconnecting') return;
      this.open().catch((error: AgentError) => {
        if (this.agentState !== 'reconnecting') return;
        if (isFinalFailure(error)) this.fail(error);
        else {
          this.parts.report(error);
          this.scheduleReconnect();
        }
      });
    }, delay);
  }

  private fail(error: AgentError, close?: SessionClose): void {
    this.failed = error;
    this.change('failed', close);
    this.parts.failAll(error);
    this.parts.report(error);
  }

  private change(state: AgentState, close?: SessionClose): void {
    this.agentState = state;
    const sessionEpoch = this.session?.isOpen === true ? this.session.sessionEpoch : undefined;
    this.parts.changed({ state, sessionEpoch, ...(close === undefined ? {} : { close }) });
  }
}
