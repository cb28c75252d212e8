/**
 * The one catalogue of MissionWeaveProtocol 0.1 error codes (§19).
 *
 * Every wire error the service emits is one of these codes. `retryable` says whether the
 * same request may be sent again unchanged; `httpStatus` is the status the HTTPS API answers
 * it with; codes are classified here and nowhere else.
 */

import type { MissionWeaveProtocolError as ProtocolErrorDocument } from './schemas/wireTypes.js';

export const ERROR_CODES = {
  UNSUPPORTED_VERSION: { retryable: false, httpStatus: 400, meaning: 'No compatible protocol version' },
  AUTH_REQUIRED: { retryable: false, httpStatus: 401, meaning: 'Authentication is absent' },
  AUTH_INVALID_SIGNATURE: {
    retryable: false,
    httpStatus: 401,
    meaning: 'Signed-document signature, key validity, admission proof, or freshness check failed',
  },
  // 401, not 403: the credential itself (the Session Epoch) is no longer current; a new HELLO cures it.
  AUTH_STALE_SESSION: { retryable: false, httpStatus: 401, meaning: 'Session Epoch is fenced' },
  // 403: the caller is authenticated; its role was taken from it, and no new login restores it.
  AUTH_STALE_COORDINATOR: { retryable: false, httpStatus: 403, meaning: 'Coordinator Epoch is fenced' },
  AUTH_FORBIDDEN: { retryable: false, httpStatus: 403, meaning: 'Actor lacks permission or policy eligibility' },
  GROUP_NOT_FOUND: { retryable: false, httpStatus: 404, meaning: 'Group is absent or intentionally undisclosed' },
  MEMBERSHIP_REQUIRED: { retryable: false, httpStatus: 403, meaning: 'No applicable Membership' },
  // 403 like MEMBERSHIP_REQUIRED: the Command's Membership Epoch no longer authorizes anything.
  MEMBERSHIP_STALE: { retryable: false, httpStatus: 403, meaning: 'Membership Epoch is fenced' },
  SCHEMA_VALIDATION_FAILED: { retryable: false, httpStatus: 400, meaning: 'Object does not conform to its schema' },
  // 422: the document parsed and matched its schema; its content is what is wrong.
  INVALID_COMMAND: { retryable: false, httpStatus: 422, meaning: 'Command is well-formed but semantically invalid' },
  // 409, as every refusal below that the aggregate's current state (not the request alone) decides.
  INVALID_STATE_TRANSITION: { retryable: false, httpStatus: 409, meaning: 'Aggregate state forbids the transition' },
  REVISION_CONFLICT: { retryable: false, httpStatus: 409, meaning: 'Expected revision does not match' },
  ACTION_ID_COLLISION: {
    retryable: false,
    httpStatus: 409,
    meaning: 'Stable Action ID was reused with different content',
  },
  UNKNOWN_CRITICAL_EXTENSION: {
    retryable: false,
    httpStatus: 422,
    meaning: 'Required extension cannot be interpreted',
  },
  WORK_CONTRACT_INCOMPLETE: {
    retryable: false,
    httpStatus: 422,
    meaning: 'Required Work Contract information is missing',
  },
  WORK_OFFER_EXPIRED: { retryable: false, httpStatus: 409, meaning: 'Offer is no longer valid' },
  WORK_ALREADY_OWNED: { retryable: false, httpStatus: 409, meaning: 'Another candidate won exclusive ownership' },
  WORK_LEASE_EXPIRED: { retryable: false, httpStatus: 409, meaning: 'Required lease is no longer valid' },
  WORK_STALE_OWNERSHIP: { retryable: false, httpStatus: 409, meaning: 'Ownership Epoch is fenced' },
  // 409, not 403: no permission is missing; the gate opens once an Approval is recorded.
  APPROVAL_REQUIRED: { retryable: false, httpStatus: 409, meaning: 'Policy gate has not been satisfied' },
  BUDGET_EXCEEDED: { retryable: false, httpStatus: 409, meaning: 'A hard Mission or WorkItem budget is exhausted' },
  RATE_LIMITED: { retryable: true, httpStatus: 429, meaning: 'Policy rate or recursion threshold was reached' },
  BACKPRESSURE: { retryable: true, httpStatus: 429, meaning: 'Receiver cannot currently accept more traffic' },
  // 409: only a SUBSCRIBE meets it, on the WebSocket; listed for completeness like the rest.
  CURSOR_TOO_OLD: {
    retryable: false,
    httpStatus: 409,
    meaning: 'Online replay no longer contains the requested position',
  },
  PROTOCOL_VIOLATION: { retryable: false, httpStatus: 400, meaning: 'Peer violated framing or a core invariant' },
  // 503, not 500: nothing was accepted and a retry is safe (`retryable`); HTTP clients and
  // proxies read 503 as "try again", 500 as a defect.
  INTERNAL_ERROR: { retryable: true, httpStatus: 503, meaning: 'Authority failed without accepting the transition' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The catalogue names exactly the codes of error.schema.json: it compiles only while they agree. */
const _catalogueMatchesSchema: [ErrorCode] extends [ProtocolErrorDocument['code']] ? ([ProtocolErrorDocument['code']] extends [ErrorCode] ? true : never) : never = true;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

export function isRetryable(code: ErrorCode): boolean {
  return ERROR_CODES[code].retryable;
}

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODES[code].httpStatus;
}

/**
 * The one error class of the protocol layer. `code` is what the wire may see; `reason` is a
 * stable machine-readable diagnostic that may be protected (never sent when `protectedReason`).
 */
export class ProtocolError extends Error {
  readonly code: ErrorCode;
  readonly reason: string;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, reason: string, message?: string, details?: Record<string, unknown>) {
    super(message ?? reason);
    this.name = 'ProtocolError';
    this.code = code;
    this.reason = reason;
    this.details = details;
  }
}

export function isProtocolError(value: unknown): value is ProtocolError {
  return value instanceof Error && isErrorCode((value as { code?: unknown }).code);
}
