/**
 * One WebSocket connection (§17), an explicit state machine: `awaiting_init` →
 * `awaiting_response` → `open` → `closing`. Each message must be one UTF-8 JSON text frame;
 * before authentication only HELLO is accepted. After it, COMMAND frames run the Command
 * pipeline (the sender always receives the resulting EVENT frames), SUBSCRIBE replays and then
 * streams Groups, ACK records Cursors, PING echoes.
 */

import type { WebSocket } from 'ws';
import { timestampOf } from '../app/issueDocuments.js';
import { errorDocument, wireError, type WireError } from '../app/wireError.js';
import { ControlQueue } from '../delivery/controlQueue.js';
import { Outbox } from '../delivery/outbox.js';
import type { Subscription } from '../delivery/subscription.js';
import { errorFrame, eventFrame } from '../protocol/frames.js';
import { CLOSE } from './limits.js';
import { readFrame } from './frameIntake.js';
import { handleAck, handleCommand, handlePing, handleSubscribe, queueControl, stopDelivery } from './frameHandlers.js';
import { handleHello } from './helloHandler.js';
import type { PendingChallenge } from './hello.js';
import type { ConnectionState, FrameConnection, TransportContext } from './transportContext.js';

export class Connection implements FrameConnection {
  state: ConnectionState = 'awaiting_init';
  readonly hello: { pending?: PendingChallenge } = {};
  agentId = '';
  keyId = '';
  sessionEpoch = 0;
  sessionToken = '';
  inFlight = 0;
  /** The chain that keeps control frames in arrival order. */
  private readonly control: ControlQueue;
  readonly outbox: Outbox;
  readonly subscriptions = new Map<string, Subscription>();
  private lastActivity: number;
  private readonly timers: NodeJS.Timeout[] = [];
  private alive = true;

  constructor(
    readonly ws: WebSocket,
    readonly address: string,
    readonly context: TransportContext,
  ) {
    this.outbox = new Outbox(
      { get bufferedAmount() { return ws.bufferedAmount; }, send: (frame) => this.corkedSend(frame), write: (wires) => this.corkedWrite(wires) },
      context.limits,
      () => this.close(CLOSE.slowConsumer, 'BACKPRESSURE'),
    );
    this.control = new ControlQueue(context.limits);
    this.socket()?.on('drain', () => this.outbox.drained());
    this.lastActivity = context.clock.nowMillis();
    ws.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary));
    // A pong proves the peer alive, not active: a session that only answers pings still meets
    // the idle limit (a client keeps itself open with PING frames, §17.3).
    ws.on('pong', () => {
      this.alive = true;
    });
    ws.on('close', () => this.closed());
    ws.on('error', (error) => context.logger.debug({ err: error, address }, 'connection error'));
    const { limits } = context;
    this.timers.push(setTimeout(() => this.state !== 'open' && this.close(CLOSE.handshakeTimeout, 'handshake timeout'), limits.handshakeTimeoutMs));
    this.timers.push(setInterval(() => this.heartbeat(), limits.heartbeatIntervalMs));
  }

  now(): string {
    return timestampOf(this.context.clock.nowMillis());
  }

  /** Sends an ERROR frame; a fatal one also closes the connection. */
  fail(error: WireError, relatedFrameId?: string, fatal = false, closeCode: number = CLOSE.protocolViolation): void {
    this.outbox.send(errorFrame(errorDocument(error, this.now(), relatedFrameId), fatal));
    if (fatal) this.close(closeCode, error.code);
  }

  sendEvents(events: readonly { eventId: string; text: string }[]): void {
    for (const event of events) this.outbox.send(eventFrame(event.eventId, event.text));
  }

  /** Session `currentEpoch` replaced this one (§6.3). */
  fence(currentEpoch: number): void {
    if (this.state === 'closing') return;
    this.fail(wireError('AUTH_STALE_SESSION', `Session Epoch ${this.sessionEpoch} was replaced by ${currentEpoch}`), undefined, true, CLOSE.sessionReplaced);
  }

  close(code: number, reason: string): void {
    if (this.state === 'closing') return;
    this.state = 'closing';
    stopDelivery(this, this.control);
    // Let queued frames (the fatal ERROR) flush before the close frame.
    setImmediate(() => this.ws.close(code, reason.slice(0, 120)));
  }

  private heartbeat(): void {
    const idleFor = this.context.clock.nowMillis() - this.lastActivity;
    if (!this.alive || idleFor > this.context.limits.idleTimeoutMs) {
      this.close(CLOSE.idle, 'idle');
      if (!this.alive) this.ws.terminate();
      return;
    }
    this.alive = false;
    this.ws.ping();
  }

  private closed(): void {
    this.state = 'closing';
    for (const timer of this.timers) clearTimeout(timer);
    stopDelivery(this, this.control);
    this.outbox.close();
    if (this.sessionEpoch > 0) this.context.sessions.remove(this);
    this.context.connectionClosed(this);
  }

  private socket(): { cork(): void; uncork(): void; write(bytes: Buffer): boolean; destroyed: boolean; on(event: 'drain', listener: () => void): void } | undefined {
    return (this.ws as unknown as { _socket?: ReturnType<Connection['socket']> })._socket;
  }

  /** Frames sent in one tick leave in one write (one TLS pass, one system call). */
  private corked = false;

  private cork(socket: ReturnType<Connection['socket']>): void {
    if (!this.corked && socket !== undefined && !socket.destroyed) {
      this.corked = true;
      socket.cork();
      process.nextTick(() => {
        this.corked = false;
        socket.uncork();
      });
    }
  }

  private corkedSend(frame: string): void {
    this.cork(this.socket());
    this.ws.send(frame, { binary: false });
  }

  /**
   * Group Event frames, already framed (`delivery/wireFrame.ts`), go to the socket directly:
   * `ws` writes each frame it sends to the socket at once when permessage-deflate is off (as
   * `listener.ts` configures it), so these bytes land between whole frames, in order. Once the
   * close handshake has begun nothing more is written, as `ws.send` would refuse.
   */
  private corkedWrite(wires: Buffer): void {
    const socket = this.socket();
    if (this.ws.readyState !== this.ws.OPEN || socket === undefined || socket.destroyed) return;
    this.cork(socket);
    socket.write(wires);
  }

  startSessionExpiry(expiresAtMillis: number): void {
    const delay = Math.max(0, expiresAtMillis - this.context.clock.nowMillis());
    this.timers.push(setTimeout(() => this.close(CLOSE.sessionExpired, 'session expired'), delay));
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (this.state === 'closing') return;
    this.lastActivity = this.context.clock.nowMillis();
    const authenticated = this.state === 'open';
    const text = isBinary ? '' : data.toString('utf8');
    const intake = readFrame(isBinary ? data : text, isBinary, this.context.limits.maxPayloadBytes);
    if (!intake.ok) {
      this.fail(intake.error, intake.frameId, !authenticated);
      return;
    }
    const { frame, frameId } = intake;
    if (!authenticated) {
      void handleHello(this, frame, frameId).catch((error: unknown) => this.internal(error, frameId, true));
      return;
    }
    const handler = { COMMAND: handleCommand, SUBSCRIBE: handleSubscribe, ACK: handleAck, PING: handlePing }[String(frame['frameType'])];
    if (handler === undefined) {
      const known = ['HELLO', 'EVENT', 'ERROR'].includes(String(frame['frameType']));
      this.fail(wireError(known ? 'PROTOCOL_VIOLATION' : 'SCHEMA_VALIDATION_FAILED', `a client may not send ${String(frame['frameType'])} frames now`), frameId);
      return;
    }
    const run = () => handler(this, frame, frameId, text).catch((error: unknown) => this.internal(error, frameId, false));
    // Commands run concurrently (pipelining); SUBSCRIBE, ACK and PING keep their order.
    if (frame['frameType'] === 'COMMAND') void run();
    else queueControl(this, this.control, text.length, frameId, run);
  }

  private internal(error: unknown, frameId: string | undefined, fatal: boolean): void {
    this.context.logger.error({ err: error, agentId: this.agentId }, 'frame handling failed');
    this.fail(wireError('INTERNAL_ERROR', ''), frameId, fatal, CLOSE.unavailable);
  }
}
