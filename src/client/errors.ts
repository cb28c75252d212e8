/**
 * The errors an Agent sees, classified by `code` (never by `instanceof` alone):
 *
 * - `MissionWeaveError` — an ERROR document from the Group Authority (§19,
 *   error.schema.json), member for member: `code` (the typed `ErrorCode` union), `message`,
 *   `retryable`, `occurredAt`, and when present `fatal`, `relatedFrameId`, `relatedActionId`,
 *   `groupId`, `expectedRevision`, `currentRevision`, `retryAfterMs`,
 *   `snapshotArtifactHash`, `details`.
 * - `AgentClientError` — a failure on the Agent's side of the wire, with a `ClientErrorCode`
 *   (the two code sets are disjoint, so `error.code` alone tells them apart).
 */

import { ERROR_CODES, isErrorCode, type ErrorCode } from '../protocol/errorCodes.js';
import type { MissionWeaveProtocolError } from '../protocol/schemas/wireTypes.js';

/**
 * The members of an ERROR frame's `error` document: error.schema.json's generated type, with
 * `details` open to this side's diagnostics (EventVerificationError).
 */
export type ErrorDocument = Readonly<Omit<MissionWeaveProtocolError, 'details'>> & { readonly details?: Readonly<Record<string, unknown>> };

export class MissionWeaveError extends Error implements ErrorDocument {
  override readonly name = 'MissionWeaveError';
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly occurredAt: string;
  declare readonly fatal?: boolean;
  declare readonly relatedFrameId?: string;
  declare readonly relatedActionId?: string;
  declare readonly groupId?: string;
  declare readonly expectedRevision?: number;
  declare readonly currentRevision?: number;
  declare readonly retryAfterMs?: number;
  declare readonly snapshotArtifactHash?: string;
  declare readonly details?: Readonly<Record<string, unknown>>;

  constructor(document: ErrorDocument) {
    super(document.message);
    Object.assign(this, document);
    this.code = document.code;
    this.retryable = document.retryable;
    this.occurredAt = document.occurredAt;
  }

  /** The error document as the server sent it. */
  toJSON(): ErrorDocument {
    const { name: _name, stack: _stack, ...members } = { ...this, message: this.message };
    return members as ErrorDocument;
  }
}

const OPTIONAL_STRINGS = ['relatedFrameId', 'relatedActionId', 'groupId', 'snapshotArtifactHash'] as const;
const OPTIONAL_NUMBERS = ['expectedRevision', 'currentRevision', 'retryAfterMs'] as const;

/**
 * Reads a received `error` document. A code outside the v0.1 catalogue is itself a protocol
 * violation by the peer; it is reported as such rather than dropped, with the code it sent.
 */
export function errorFromDocument(value: unknown): MissionWeaveError {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const known = isErrorCode(raw['code']);
  const code: ErrorCode = known ? (raw['code'] as ErrorCode) : 'PROTOCOL_VIOLATION';
  const document: { -readonly [K in keyof ErrorDocument]: ErrorDocument[K] } = {
    code,
    message: typeof raw['message'] === 'string' ? raw['message'] : ERROR_CODES[code].meaning,
    retryable: typeof raw['retryable'] === 'boolean' ? raw['retryable'] : ERROR_CODES[code].retryable,
    occurredAt: typeof raw['occurredAt'] === 'string' ? raw['occurredAt'] : new Date().toISOString(),
  };
  if (!known) document['details'] = { receivedCode: String(raw['code']) };
  if (raw['fatal'] === true) document['fatal'] = true;
  for (const member of OPTIONAL_STRINGS) {
    const text = raw[member];
    if (typeof text === 'string') document[member] = text;
  }
  for (const member of OPTIONAL_NUMBERS) {
    const number = raw[member];
    if (typeof number === 'number') document[member] = number;
  }
  if (known && typeof raw['details'] === 'object' && raw['details'] !== null) document['details'] = raw['details'] as Record<string, unknown>;
  return new MissionWeaveError(document);
}

/** Failures on this side of the wire. */
export type ClientErrorCode =
  /** A connection could not be opened or authenticated (see `closeCode`, `cause`). */
  | 'CONNECTION_FAILED'
  /** The connection closed for good: a 4500–4999 close without an ERROR frame, or `close()`. */
  | 'CONNECTION_CLOSED'
  /** An `onEvent` handler threw; the Event is delivered again after a delay. */
  | 'HANDLER_FAILED'
  /** The CursorStore failed to save; the save is retried and the Cursor waits. */
  | 'CURSOR_STORE_FAILED'
  /** A CURSOR_TOO_OLD snapshot could not be fetched, did not match its hash, or was refused. */
  | 'SNAPSHOT_FAILED'
  /** A received frame or Event was malformed and ignored. */
  | 'PROTOCOL_VIOLATION_BY_SERVER'
  /** The caller's AbortSignal fired before the Command's answer arrived. */
  | 'ABORTED'
  /** The caller passed something no Group Authority could accept. */
  | 'INVALID_ARGUMENT'
  /** An Execution Lease was lost while its work ran (a LeaseLostError says why). */
  | 'LEASE_LOST'
  /** The runtime's local projection refused or failed (a ProjectionError says which bound or fault). */
  | 'PROJECTION_FAILED'
  /**
   * No Session was open: the Command was signed and kept in the runtime's durable outbox, and is
   * sent on reconnect (rebased onto the new Session under a new Action ID if it fences it, §19,
   * outboxRebase.ts); `relatedActionId` names it as it was kept.
   */
  | 'COMMAND_QUEUED';

export interface ClientErrorInit {
  readonly groupId?: string;
  readonly relatedActionId?: string;
  /** The WebSocket close code, for connection errors. */
  readonly closeCode?: number;
  readonly cause?: unknown;
}

export class AgentClientError extends Error {
  override readonly name = 'AgentClientError';
  readonly code: ClientErrorCode;
  declare readonly groupId?: string;
  declare readonly relatedActionId?: string;
  declare readonly closeCode?: number;

  constructor(code: ClientErrorCode, message: string, init: ClientErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    if (init.groupId !== undefined) this.groupId = init.groupId;
    if (init.relatedActionId !== undefined) this.relatedActionId = init.relatedActionId;
    if (init.closeCode !== undefined) this.closeCode = init.closeCode;
  }
}

/** Anything `onError` handlers and rejected promises carry. */
export type AgentError = MissionWeaveError | AgentClientError;

export function isAgentError(value: unknown): value is AgentError {
  return value instanceof MissionWeaveError || value instanceof AgentClientError;
}

/**
 * An Event that failed the six stages of §6.4 against the Registry (or was signed by a key not
 * bound to an Organization service): never handed to `onEvent`. `code` is the stage's §19 wire
 * code — AUTH_INVALID_SIGNATURE for envelope, key and signature failures — and `details` keep
 * this side's diagnostic (`stage`, `reason`, `eventId`, `keyId`, `sequence`).
 */
export class EventVerificationError extends MissionWeaveError {
  readonly stage: string;
  readonly reason: string;

  constructor(code: ErrorCode, stage: string, reason: string, event: Readonly<Record<string, unknown>>, retryable = false) {
    const keyId = (event['signature'] as Record<string, unknown> | undefined)?.['keyId'];
    const details: Record<string, unknown> = { stage, reason, eventId: event['eventId'], ...(typeof keyId === 'string' ? { keyId } : {}), ...(typeof event['sequence'] === 'number' ? { sequence: event['sequence'] } : {}) };
    super({
      code,
      message: `Event ${String(event['eventId'])} not delivered: ${stage} failed (${reason})`,
      retryable,
      occurredAt: new Date().toISOString(),
      ...(typeof event['groupId'] === 'string' ? { groupId: event['groupId'] } : {}),
      details,
    });
    this.stage = stage;
    this.reason = reason;
  }
}
