/**
 * The one catalogue of MissionWeaveProtocol 0.1 error codes (§19).
 *
 * Every wire error the service emits is one of these codes. `retryable` says whether the
 * same request may be sent again unchanged; codes are classified here and nowhere else.
 */

export const ERROR_CODES = {
  UNSUPPORTED_VERSION: { retryable: false, meaning: 'No compatible protocol version' },
  AUTH_REQUIRED: { retryable: false, meaning: 'Authentication is absent' },
  AUTH_INVALID_SIGNATURE: {
    retryable: false,
    meaning: 'Signed-document signature, key validity, admission proof, or freshness check failed',
  },
  AUTH_STALE_SESSION: { retryable: false, meaning: 'Session Epoch is fenced' },
  AUTH_STALE_COORDINATOR: { retryable: false, meaning: 'Coordinator Epoch is fenced' },
  AUTH_FORBIDDEN: { retryable: false, meaning: 'Actor lacks permission or policy eligibility' },
  GROUP_NOT_FOUND: { retryable: false, meaning: 'Group is absent or intentionally undisclosed' },
  MEMBERSHIP_REQUIRED: { retryable: false, meaning: 'No applicable Membership' },
  MEMBERSHIP_STALE: { retryable: false, meaning: 'Membership Epoch is fenced' },
  SCHEMA_VALIDATION_FAILED: { retryable: false, meaning: 'Object does not conform to its schema' },
  INVALID_COMMAND: { retryable: false, meaning: 'Command is well-formed but semantically invalid' },
  INVALID_STATE_TRANSITION: { retryable: false, meaning: 'Aggregate state forbids the transition' },
  REVISION_CONFLICT: { retryable: false, meaning: 'Expected revision does not match' },
  ACTION_ID_COLLISION: {
    retryable: false,
    meaning: 'Stable Action ID was reused with different content',
  },
  UNKNOWN_CRITICAL_EXTENSION: {
    retryable: false,
    meaning: 'Required extension cannot be interpreted',
  },
  WORK_CONTRACT_INCOMPLETE: {
    retryable: false,
    meaning: 'Required Work Contract information is missing',
  },
  WORK_OFFER_EXPIRED: { retryable: false, meaning: 'Offer is no longer valid' },
  WORK_ALREADY_OWNED: { retryable: false, meaning: 'Another candidate won exclusive ownership' },
  WORK_LEASE_EXPIRED: { retryable: false, meaning: 'Required lease is no longer valid' },
  WORK_STALE_OWNERSHIP: { retryable: false, meaning: 'Ownership Epoch is fenced' },
  APPROVAL_REQUIRED: { retryable: false, meaning: 'Policy gate has not been satisfied' },
  BUDGET_EXCEEDED: { retryable: false, meaning: 'A hard Mission or WorkItem budget is exhausted' },
  RATE_LIMITED: { retryable: true, meaning: 'Policy rate or recursion threshold was reached' },
  BACKPRESSURE: { retryable: true, meaning: 'Receiver cannot currently accept more traffic' },
  CURSOR_TOO_OLD: {
    retryable: false,
    meaning: 'Online replay no longer contains the requested position',
  },
  PROTOCOL_VIOLATION: { retryable: false, meaning: 'Peer violated framing or a core invariant' },
  INTERNAL_ERROR: { retryable: true, meaning: 'Authority failed without accepting the transition' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

export function isRetryable(code: ErrorCode): boolean {
  return ERROR_CODES[code].retryable;
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
