/**
 * `MissionWeaveAgent`: one Agent runtime talking to its Group Authority over `wss` (§6.3,
 * §15–17, §19).
 *
 * ```ts
 * const agent = new MissionWeaveAgent({ url, agentId, keyId, privateKey, ca, cursorStore });
 * // or { url, agentId, signer: { keyId, sign: (bytes) => kms.sign(bytes) }, … }
 * agent.onEvent(async (event, groupId) => { … });      // each Group Event once, in order
 * agent.onError((error) => log(error.code, error));    // everything not tied to a Command
 * await agent.connect();                               // HELLO; agent.sessionEpoch is set
 * await agent.subscribe(groupId);                      // from the saved Cursor, else 0
 * const event = await agent.command('message.post', payload, { groupId, membershipEpoch: 1 });
 * await agent.close();
 * ```
 *
 * Connection (connection.ts): `connect()` opens the first session and rejects if it fails. After that, any
 * close that invites it (a network failure, 1000/1001/1006/1011–1014, 4000–4499, or a 4500–4999
 * close whose ERROR is `retryable`) reconnects with exponential backoff and full jitter
 * (`reconnect.initialDelayMs`, `maxDelayMs`), with a fresh HELLO and so a new Session Epoch.
 * Any other close — 4501 above all: a newer runtime of this Agent replaced this one, and
 * reconnecting would fence it in turn — stops the Agent for good (`state === 'failed'`,
 * `failure`), rejects every Command in flight with the reason and reports it to `onError`.
 *
 * Commands: see commands.ts (same Action ID on every retry, byte-identical resend after a
 * reconnect, re-signed once under the new Session Epoch on AUTH_STALE_SESSION).
 *
 * Verification (agentFrames.ts): every EVENT passes the six stages of §6.4 under a service key of the
 * Organization's Registry before anything else sees it (eventVerifier.ts): the Registry the
 * Agent pinned (`registry`), else `GET /v1/registry` read with the session and cached by
 * revision, read again once for a key it does not know. An Event that fails is never handed
 * over: an EventVerificationError (a MissionWeaveError, `code` AUTH_INVALID_SIGNATURE for a
 * bad signature or key) goes to `onError`, a Command it claimed to answer rejects with it, and
 * its Group stops before it. `verifyEvents: false` opts out. Frames are handled in arrival
 * order while a Registry read is pending (inbox.ts).
 *
 * Events: see groupStream.ts (dedup by Event ID and sequence, per-Group order, Cursor saved
 * then ACKed after the handlers resolved, gaps never counted) and subscriptions.ts (re-SUBSCRIBE
 * from each Group's horizon on every new session; per-Group errors). A thrown handler is
 * reported as HANDLER_FAILED and the same Event is delivered again after a delay; the Group
 * waits meanwhile. Events wait until a first handler is registered.
 *
 * Errors: Command failures reject `command()`; every other ERROR — per-Group ones carry
 * `groupId`, BACKPRESSURE included (nothing to do: the server resumes the Group itself) — and
 * every local failure (AgentClientError) goes to `onError` handlers. CURSOR_TOO_OLD restores
 * through `onSnapshot` when a handler is set (snapshots.ts), else it is reported there too.
 */

import { backoffDelay, endpoint, signerOf, type AgentState, type ConnectionChange, type MissionWeaveAgentOptions } from './agentOptions.js';
import { FrameRouter } from './agentFrames.js';
import { artifactEndpoint, capabilityClient, contextPackages, readRegistry, type SessionAccess } from './agentServices.js';
import { CommandTracker, type CommandOptions } from './commands.js';
import { MemoryCursorStore } from './cursorStore.js';
import type { Attention, ProtocolEvent } from './documents.js';
import type { ArtifactEndpoint } from './artifacts.js';
import { AgentClientError, type AgentError } from './errors.js';
import type { ContextPackages } from './contextPackages.js';
import { eventVerifierFor } from './eventVerifier.js';
import type { EventHandler } from './groupStream.js';
import { AgentConnection } from './connection.js';
import type { CapabilityClient } from './capabilities.js';
import { AgentSession, type SessionHandlers } from './session.js';
import type { Signer } from './signer.js';
import type { SnapshotHandler } from './snapshots.js';
import { Subscriptions } from './subscriptions.js';
import { ACK_DELAY_MS, COMMAND_RETRIES, GAP_GRACE_MS, HANDLER_RETRY_INITIAL_DELAY_MS, HANDLER_RETRY_MAX_DELAY_MS, HANDSHAKE_TIMEOUT_MS, MAX_FRAME_BYTES, PING_INTERVAL_MS, RECONNECT_INITIAL_DELAY_MS, RECONNECT_MAX_DELAY_MS } from './limits.js';

function remover<T>(list: T[], item: T): () => void {
  return () => {
    const index = list.indexOf(item);
    if (index >= 0) list.splice(index, 1);
  };
}

export class MissionWeaveAgent {
  private readonly connection: AgentConnection;
  private readonly eventHandlers: EventHandler[] = [];
  private readonly errorHandlers: ((error: AgentError) => void)[] = [];
  private readonly changeHandlers: ((change: ConnectionChange) => void)[] = [];
  private snapshotHandler: SnapshotHandler | undefined;
  private readonly commands: CommandTracker;
  private readonly subscriptions: Subscriptions;
  private readonly endpoint: { ws: string; origin: URL };
  readonly signer: Signer;
  private readonly access: SessionAccess;

  constructor(private readonly options: MissionWeaveAgentOptions) {
    this.endpoint = endpoint(options.url);
    this.signer = signerOf(options);
    this.access = { origin: this.endpoint.origin, options, token: () => this.sessionToken };
    const verifier = eventVerifierFor(options, () => readRegistry(this.access));
    this.commands = new CommandTracker({
      agentId: options.agentId,
      signer: this.signer,
      epochs: options.epochs,
      session: () => this.current,
      maxRetries: options.commandRetries ?? COMMAND_RETRIES,
    });
    this.subscriptions = new Subscriptions({
      agentId: options.agentId,
      store: options.cursorStore ?? new MemoryCursorStore(),
      handlers: () => this.eventHandlers,
      snapshotHandler: () => this.snapshotHandler,
      session: () => this.current,
      report: (error) => this.report(error),
      own: (event) => this.commands.isOwn(event),
      origin: this.endpoint.origin,
      ca: options.ca,
      gapGraceMs: options.gapGraceMs ?? GAP_GRACE_MS,
      ackDelayMs: options.ackDelayMs ?? ACK_DELAY_MS,
      retryDelayMs: (attempt) => backoffDelay(attempt, HANDLER_RETRY_INITIAL_DELAY_MS, HANDLER_RETRY_MAX_DELAY_MS),
    });
    const router = new FrameRouter({ commands: this.commands, subscriptions: this.subscriptions, verifier, current: () => this.current, report: (error) => this.report(error) });
    this.connection = new AgentConnection({
      open: (handlers) => this.open(handlers),
      route: (session, frame) => router.route(session, frame),
      opened: () => {
        this.subscriptions.sessionOpened();
        this.commands.sessionOpened();
      },
      ended: () => this.subscriptions.sessionClosed(),
      failAll: (error) => this.commands.failAll(error),
      report: (error) => this.report(error),
      changed: (change) => this.changed(change),
      delays: { initialDelayMs: options.reconnect?.initialDelayMs ?? RECONNECT_INITIAL_DELAY_MS, maxDelayMs: options.reconnect?.maxDelayMs ?? RECONNECT_MAX_DELAY_MS },
    });
  }

  private get current(): AgentSession | undefined {
    return this.connection.current;
  }

  /**
   * The Authorization Service of this Agent's live Session (§12): ask for, rotate and narrow
   * capability tokens (`capabilities.ts`).
   */
  capabilities(): CapabilityClient {
    return capabilityClient(this.access);
  }

  /** The node's HTTPS origin: where its Artifact store, Registry and capability endpoints are. */
  get origin(): URL {
    return this.endpoint.origin;
  }

  /**
   * The Artifact store as this Agent's live Session reaches it (§13.1), for `uploadArtifact` and
   * `downloadArtifact`: the token is the Session's, so a reconnect needs a fresh endpoint.
   */
  artifactEndpoint(): ArtifactEndpoint {
    return artifactEndpoint(this.access);
  }

  get agentId(): string {
    return this.options.agentId;
  }

  get state(): AgentState {
    return this.connection.state;
  }

  /** The current session's epoch; undefined while no session is open. */
  get sessionEpoch(): number | undefined {
    return this.current?.isOpen === true ? this.current.sessionEpoch : undefined;
  }

  /**
   * The live session's bearer token for the node's HTTPS reads (`/v1/me`, a Group's Events,
   * Parley's reads), undefined while no session is open. It changes with every session, so read
   * it for each request rather than keep it.
   */
  get sessionToken(): string | undefined {
    return this.current?.isOpen === true ? this.current.sessionToken : undefined;
  }

  /** Why the Agent stopped, once `state` is `failed`. */
  get failure(): AgentError | undefined {
    return this.connection.failure;
  }

  /** Opens the first session (HELLO). Rejects with the reason if it cannot; call again to retry. */
  connect(): Promise<void> {
    return this.connection.connect();
  }

  /** Sends a signed Command; resolves with its primary Event. */
  command(kind: string, payload: Readonly<Record<string, unknown>>, options: CommandOptions = {}): Promise<ProtocolEvent> {
    const stopped = this.stopped();
    if (stopped !== undefined) return Promise.reject(stopped);
    return this.commands.submit(kind, payload, options);
  }

  /**
   * Sends a Command signed elsewhere (by a KMS, another process, a human's tool), given as its
   * exact JSON text (or an object, sent as `JSON.stringify` writes it): the bytes leave as they
   * are and are re-sent unchanged after a reconnect; resolves with its primary Event. Its
   * `sessionEpoch` must be this session's (`agent.sessionEpoch`), its `actor` this Agent.
   */
  sendSigned(command: string | Readonly<Record<string, unknown>>): Promise<ProtocolEvent> {
    const stopped = this.stopped();
    if (stopped !== undefined) return Promise.reject(stopped);
    return this.commands.submitSigned(typeof command === 'string' ? command : JSON.stringify(command));
  }

  /** Delivers a Group's Events after `afterSequence` (default: its saved Cursor, else 0). */
  subscribe(groupId: string, options: { readonly afterSequence?: number; readonly attention?: Attention } = {}): Promise<void> {
    return this.subscriptions.add(groupId, options.afterSequence, options.attention);
  }

  /** The Group's Cursor: the last sequence its handlers finished. */
  cursor(groupId: string): number | undefined {
    return this.subscriptions.cursor(groupId);
  }

  onEvent(handler: EventHandler): () => void {
    this.eventHandlers.push(handler);
    this.subscriptions.kick();
    return remover(this.eventHandlers, handler);
  }

  onError(handler: (error: AgentError) => void): () => void {
    this.errorHandlers.push(handler);
    return remover(this.errorHandlers, handler);
  }

  onConnectionChange(handler: (change: ConnectionChange) => void): () => void {
    this.changeHandlers.push(handler);
    return remover(this.changeHandlers, handler);
  }

  /** Sets the handler that takes over CURSOR_TOO_OLD snapshots (one at a time). */
  onSnapshot(handler: SnapshotHandler): () => void {
    this.snapshotHandler = handler;
    return () => {
      if (this.snapshotHandler === handler) this.snapshotHandler = undefined;
    };
  }

  /** The Agent's own Context Packages (§13.3), read with its session and verified over the Registry and the context generator it names. */
  contextPackages(): ContextPackages {
    return contextPackages(this.access);
  }

  /** Stops: Commands in flight reject, handlers in progress finish, last Cursors are ACKed. */
  close(): Promise<void> {
    return this.connection.close(() => this.subscriptions.stop());
  }

  /** Why a Command cannot be sent now: the Agent failed or was closed. */
  private stopped(): AgentError | undefined {
    const { state } = this.connection;
    if (state !== 'failed' && state !== 'closed') return undefined;
    return this.connection.failure ?? new AgentClientError('CONNECTION_CLOSED', `the Agent is ${state}`);
  }

  private open(handlers: SessionHandlers): Promise<AgentSession> {
    return AgentSession.open(
      {
        url: this.endpoint.ws,
        agentId: this.options.agentId,
        signer: this.signer,
        ...(this.options.ca === undefined ? {} : { ca: this.options.ca }),
        handshakeTimeoutMs: this.options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS,
        pingIntervalMs: this.options.pingIntervalMs ?? PING_INTERVAL_MS,
        maxPayloadBytes: MAX_FRAME_BYTES,
      },
      handlers,
    );
  }

  private changed(change: ConnectionChange): void {
    for (const handler of [...this.changeHandlers]) this.safely(() => handler(change));
  }

  private report(error: AgentError): void {
    for (const handler of [...this.errorHandlers]) this.safely(() => handler(error));
  }

  private safely(call: () => void): void {
    try {
      call();
    } catch {
      // A throwing observer must not break the connection it observes.
    }
  }
}
