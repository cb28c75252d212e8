/**
 * Reading one incoming WebSocket message into a frame, or the §19 error that answers it:
 * binary messages carry nothing, the text must be exactly one strict JSON object within the
 * size and depth bounds, and it must speak protocol version 0.1. Pure, so it can be fuzzed.
 */

import { wireError, type WireError } from '../app/wireError.js';
import { isProtocolError } from '../protocol/errorCodes.js';
import { isUri } from '../protocol/identifier.js';
import { parseStrictJsonText, type JsonObject, type JsonValue } from '../protocol/strictJson.js';

export type Intake =
  | { readonly ok: true; readonly frame: JsonObject; readonly frameId: string | undefined }
  | { readonly ok: false; readonly error: WireError; readonly frameId: string | undefined };

/** Frames nest far less than this; it bounds every later recursive walk. */
const MAX_DEPTH = 64;

export function readFrame(data: Buffer | string, isBinary: boolean, maxBytes: number): Intake {
  if (isBinary) return { ok: false, error: wireError('PROTOCOL_VIOLATION', 'binary messages carry no protocol objects'), frameId: undefined };
  let value: JsonValue;
  try {
    value = parseStrictJsonText(typeof data === 'string' ? data : data.toString('utf8'), { maxBytes, maxDepth: MAX_DEPTH });
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return { ok: false, error: wireError('PROTOCOL_VIOLATION', `${error.reason}: ${error.message}`), frameId: undefined };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: wireError('SCHEMA_VALIDATION_FAILED', 'a frame is a JSON object'), frameId: undefined };
  }
  const frameId = typeof value['frameId'] === 'string' && isUri(value['frameId']) && value['frameId'].length <= 512 ? value['frameId'] : undefined;
  if (value['protocolVersion'] !== '0.1') {
    return { ok: false, error: wireError('UNSUPPORTED_VERSION', 'this server speaks MissionWeaveProtocol 0.1'), frameId };
  }
  return { ok: true, frame: value, frameId };
}
