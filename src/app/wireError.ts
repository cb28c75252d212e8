/**
 * The errors a caller may see (§19, error.schema.json): a stable code, whether retry is safe,
 * the related frame or Action ID, and nothing the caller is not entitled to. Protected
 * diagnostics (which signature stage failed and why) stay in the log.
 */

import { ERROR_CODES, type ErrorCode } from '../protocol/errorCodes.js';
import type { MissionWeaveProtocolError as ProtocolErrorDocument } from '../protocol/schemas/wireTypes.js';
import type { SemanticStage } from '../protocol/signing/verification.js';
import { MAX_ERROR_MESSAGE_CHARS } from './limits.js';

/**
 * An error before it is sent: the error.schema.json members the pipeline decides (the generated
 * type's), without the send time and frame, plus the protected diagnostic.
 */
export type WireError = Readonly<Pick<ProtocolErrorDocument, 'code' | 'message' | 'retryable'>> &
  Readonly<Partial<Pick<ProtocolErrorDocument, 'relatedActionId' | 'groupId' | 'expectedRevision' | 'currentRevision' | 'retryAfterMs' | 'snapshotArtifactHash' | 'details'>>> & {
    /** Protected (§6.4): the first failing semantic stage, kept for the Policy Log, never sent. */
    readonly diagnostic?: { readonly stage: SemanticStage; readonly reason: string };
  };

/** Wire messages for codes whose cause must not be revealed (§6.4 non-oracular failures). */
const OPAQUE: Partial<Record<ErrorCode, string>> = {
  AUTH_INVALID_SIGNATURE: 'signed document rejected',
  INTERNAL_ERROR: 'the Group Authority failed without accepting the transition',
};

export function wireError(code: ErrorCode, message: string, extra: Partial<Omit<WireError, 'code' | 'retryable'>> = {}): WireError {
  return {
    code,
    message: OPAQUE[code] ?? (message.length > 0 ? message.slice(0, MAX_ERROR_MESSAGE_CHARS) : ERROR_CODES[code].meaning),
    retryable: ERROR_CODES[code].retryable,
    ...extra,
  };
}

/** The error.schema.json document for a wire error. */
export function errorDocument(error: WireError, occurredAt: string, relatedFrameId?: string): ProtocolErrorDocument {
  const document: ProtocolErrorDocument = { code: error.code, message: error.message, retryable: error.retryable, occurredAt };
  if (relatedFrameId !== undefined) document['relatedFrameId'] = relatedFrameId;
  if (error.relatedActionId !== undefined) document['relatedActionId'] = error.relatedActionId;
  if (error.groupId !== undefined) document['groupId'] = error.groupId;
  if (error.expectedRevision !== undefined) document['expectedRevision'] = error.expectedRevision;
  if (error.currentRevision !== undefined) document['currentRevision'] = error.currentRevision;
  if (error.retryAfterMs !== undefined) document['retryAfterMs'] = error.retryAfterMs;
  if (error.snapshotArtifactHash !== undefined) document['snapshotArtifactHash'] = error.snapshotArtifactHash;
  if (error.details !== undefined) document['details'] = error.details;
  return document;
}
