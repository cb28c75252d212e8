/**
 * One authenticated WebSocket connection of an Agent (§6.3, §17): `wss` with TLS 1.3 only, the
 * HELLO handshake (client_init → server_challenge → client_response → server_accept), then
 * one strict-JSON text frame per message in both directions, and a PING every
 * `pingIntervalMs` — the server closes connections that stay silent, and a peer that stops
 * answering is detected here and the socket dropped.
 *
 * A state machine (`connecting` → `hello` → `open` → `closed`); `openSession` resolves once the
 * server accepted, or rejects with the error that ended the attempt. Reconnecting, Commands and
 * Groups live above it (agent.ts); a session is never reused after it closed.
 */

import { randomBytes, randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { decodeBase64url } from '../protocol/base64url.js';
import { parseStrictJsonText, type JsonObject } from '../protocol/strictJson.js';
import { AgentClientError, errorFromDocument, type AgentError } from './errors.js';
import { signatureOf, type Signer } from './signer.js';
import { MAX_JSON_DEPTH } from './limits.js';

export interface SessionOptions {
  /** `wss://host:port/v1/ws`. */
  readonly url: string;
  readonly agentId: string;
  /** Signs the challenge transcript under the Agent's key ID. */
  readonly signer: Signer;
  /** Trusted CA or server certificate (PEM); the system store when absent. */
  readonly ca?: string | Buffer;
  readonly handshakeTimeoutMs: number;
  readonly pingIntervalMs: number;
  /** Largest frame accepted from the server. */
  readonly maxPayloadBytes: number;
}

export interface SessionClose {
  readonly code: number;
  readonly reason: string;
  /** The fatal ERROR the server sent before closing, or the unreadable frame that made us close. */
  readonly error?: AgentError;
}

export interface SessionHandlers {
  /** The server accepted the session; called before any frame of it is delivered. */
  accepted(session: AgentSession): void;
  /** Every frame after HELLO, strictly parsed. */
  frame(session: AgentSession, frame: JsonObject): void;
  /** The session ended after it had been accepted. */
  closed(session: AgentSession, close: SessionClose): void;
}

export type SessionState = 'connecting' | 'hello' | 'open' | 'closed';

export function newFrameId(): string {
  return `urn:uuid:${randomUUID()}`;
}

export class AgentSession {
  state: SessionState = 'connecting';
  sessionEpoch = 0;
  /** Issued at HELLO; authenticates this session's HTTPS requests (snapshots). */
  sessionToken = '';
  expiresAt = '';
  private fatal: AgentError | undefined;
  private lastHeard = Date.now();
  private pinger: NodeJS.Timeout | undefined;

  private constructor(
    private readonly ws: WebSocket,
    private readonly options: SessionOptions,
  ) {}

  /** Opens a connection and authenticates; resolves when the server accepted the session. */
  static open(options: SessionOptions, handlers: SessionHandlers): Promise<AgentSession> {
    const ws = new WebSocket(options.url, {
      ...(options.ca === undefined ? {} : { ca: options.ca }),
      minVersion: 'TLSv1.3',
      maxPayload: options.maxPayloadBytes,
      perMessageDeflate: false,
      handshakeTimeout: options.handshakeTimeoutMs,
    });
    const session = new AgentSession(ws, options);
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (error: AgentError): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      };
      const timer = setTimeout(() => {
        fail(new AgentClientError('CONNECTION_FAILED', `HELLO not completed within ${options.handshakeTimeoutMs} ms`));
        ws.terminate();
      }, options.handshakeTimeoutMs);
      const clientNonce = randomBytes(18).toString('base64url');
      ws.on('open', () => {
        session.state = 'hello';
        session.send({ frameType: 'HELLO', phase: 'client_init', agentId: options.agentId, keyId: options.signer.keyId, clientNonce, supportedVersions: ['0.1'] });
      });
      ws.on('error', (error) => fail(new AgentClientError('CONNECTION_FAILED', `cannot connect to ${options.url}: ${error.message}`, { cause: error })));
      ws.on('close', (code, reason) => {
        session.stopPinging();
        const wasOpen = session.state === 'open';
        session.state = 'closed';
        const text = reason.toString('utf8');
        if (!wasOpen) {
          fail(session.fatal ?? new AgentClientError('CONNECTION_FAILED', `closed during HELLO: ${code} ${text}`, { closeCode: code }));
          return;
        }
        handlers.closed(session, { code, reason: text, ...(session.fatal === undefined ? {} : { error: session.fatal }) });
      });
      ws.on('message', (data, isBinary) => {
        session.lastHeard = Date.now();
        const frame = session.parse(data as Buffer, isBinary);
        if (frame === undefined) return;
        if (frame['frameType'] === 'ERROR' && (frame['error'] as JsonObject | undefined)?.['fatal'] === true) {
          session.fatal = errorFromDocument(frame['error']);
        }
        if (session.state === 'open') {
          handlers.frame(session, frame);
          return;
        }
        const outcome = session.handshake(frame, clientNonce);
        if (outcome === 'accepted') {
          settled = true;
          clearTimeout(timer);
          session.startPinging();
          handlers.accepted(session);
          resolve(session);
        } else if (outcome instanceof Error) {
          fail(outcome);
          ws.close(1002, 'HELLO failed');
        } else if (outcome !== 'continue') {
          outcome.catch((cause: unknown) => {
            fail(new AgentClientError('CONNECTION_FAILED', `the signer failed on the HELLO challenge: ${(cause as Error).message}`, { cause }));
            ws.close(1000, 'HELLO abandoned');
          });
        }
      });
    });
  }

  /**
   * Sends a COMMAND frame around a Signed Command's exact text, so a Command signed elsewhere
   * leaves byte for byte as it was signed. Returns the frame ID.
   */
  sendCommandText(commandText: string): string {
    const frameId = newFrameId();
    this.ws.send(`{"protocolVersion":"0.1","frameId":${JSON.stringify(frameId)},"frameType":"COMMAND","command":${commandText}}`);
    return frameId;
  }

  /** Sends one frame; `frameId` and `protocolVersion` are added. Returns the frame ID. */
  send(members: Record<string, unknown>): string {
    const frameId = newFrameId();
    this.ws.send(JSON.stringify({ protocolVersion: '0.1', frameId, ...members }));
    return frameId;
  }

  get isOpen(): boolean {
    return this.state === 'open' && this.ws.readyState === WebSocket.OPEN;
  }

  close(code = 1000, reason = 'agent closing'): void {
    this.ws.close(code, reason);
  }

  /** Drops the connection at once, as a network failure would. */
  terminate(): void {
    this.ws.terminate();
  }

  private parse(data: Buffer, isBinary: boolean): JsonObject | undefined {
    try {
      if (isBinary) throw new Error('binary messages carry no protocol objects');
      const value = parseStrictJsonText(data.toString('utf8'), { maxBytes: this.options.maxPayloadBytes, maxDepth: MAX_JSON_DEPTH });
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('a frame is a JSON object');
      return value;
    } catch (error) {
      // A peer that breaks framing cannot be trusted with the rest of this connection.
      this.ws.close(1002, 'unreadable frame');
      this.fatal ??= new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `unreadable frame from the server: ${(error as Error).message}`, { cause: error });
      return undefined;
    }
  }

  /**
   * One HELLO step: `continue`, `accepted`, the error that ends the attempt, or the signing of
   * the challenge response in progress (a remote signer may take a while).
   */
  private handshake(frame: JsonObject, clientNonce: string): 'continue' | 'accepted' | AgentError | Promise<void> {
    if (frame['frameType'] === 'ERROR') return errorFromDocument(frame['error']);
    if (frame['frameType'] !== 'HELLO') return new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `unexpected ${String(frame['frameType'])} frame during HELLO`);
    if (frame['phase'] === 'server_challenge') {
      const challenge = typeof frame['challenge'] === 'string' ? decodeBase64url(frame['challenge']) : null;
      if (frame['selectedVersion'] !== '0.1' || frame['clientNonce'] !== clientNonce || challenge === null || typeof frame['serverNonce'] !== 'string') {
        return new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', 'the server challenge does not answer this HELLO');
      }
      // The challenge bytes are the server's transcript; the signature covers exactly them.
      const serverNonce = frame['serverNonce'];
      return signatureOf(this.options.signer, challenge).then((signature) => {
        if (this.state !== 'hello') return;
        const challengeSignature = signature.toString('base64url');
        this.send({ frameType: 'HELLO', phase: 'client_response', agentId: this.options.agentId, keyId: this.options.signer.keyId, clientNonce, serverNonce, challengeSignature });
      });
    }
    if (frame['phase'] === 'server_accept') {
      const epoch = frame['sessionEpoch'];
      if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 1) {
        return new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', 'server_accept carries no Session Epoch');
      }
      this.sessionEpoch = epoch;
      this.sessionToken = String(frame['sessionToken']);
      this.expiresAt = String(frame['expiresAt']);
      this.state = 'open';
      return 'accepted';
    }
    return new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `unexpected HELLO phase ${String(frame['phase'])}`);
  }

  private startPinging(): void {
    const interval = this.options.pingIntervalMs;
    this.pinger = setInterval(() => {
      // Every PING is answered, so two silent intervals mean the path is dead.
      if (Date.now() - this.lastHeard > 2 * interval) {
        this.ws.terminate();
        return;
      }
      if (this.isOpen) this.send({ frameType: 'PING', nonce: randomBytes(12).toString('base64url'), sentAt: new Date().toISOString() });
    }, interval);
    this.pinger.unref();
  }

  private stopPinging(): void {
    if (this.pinger !== undefined) clearInterval(this.pinger);
  }
}
