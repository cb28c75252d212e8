/**
 * Frames the server sends, as JCS text (§17.4): the wire shape of each frame type, no I/O. An
 * EVENT frame wraps the stored Event text verbatim and takes the Event ID as its frame ID, so it
 * is built once per Event and the same bytes go to every subscriber.
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { canonicalize } from './jcs.js';
import type { JsonObject } from './jsonValue.js';

export function newFrameId(): string {
  return `urn:uuid:${randomUUID()}`;
}

export function nonce(bytes = 18): string {
  return randomBytes(bytes).toString('base64url');
}

function frame(frameType: string, members: JsonObject, frameId = newFrameId()): string {
  return canonicalize({ protocolVersion: '0.1', frameId, frameType, ...members });
}

/** `{"event":…,"frameId":…,"frameType":"EVENT","protocolVersion":"0.1"}` in JCS member order. */
export function eventFrame(eventId: string, eventText: string): string {
  return `{"event":${eventText},"frameId":${JSON.stringify(eventId)},"frameType":"EVENT","protocolVersion":"0.1"}`;
}

/** An ERROR frame around an error.schema.json document; a fatal one precedes the close. */
export function errorFrame(error: JsonObject, fatal = false): string {
  return frame('ERROR', { error: fatal ? { ...error, fatal: true } : error });
}

export function challengeFrame(clientNonce: string, serverNonce: string, challenge: string): string {
  return frame('HELLO', { phase: 'server_challenge', selectedVersion: '0.1', clientNonce, serverNonce, challenge });
}

export function acceptFrame(sessionToken: string, sessionEpoch: number, expiresAt: string): string {
  return frame('HELLO', { phase: 'server_accept', selectedVersion: '0.1', sessionToken, sessionEpoch, expiresAt });
}

export function pingFrame(replyToNonce: string | undefined, sentAt: string): string {
  return frame('PING', { nonce: nonce(), ...(replyToNonce === undefined ? {} : { replyToNonce }), sentAt });
}
