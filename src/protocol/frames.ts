/**
 * Frames the server sends, as JCS text (§17.4): each frame's members typed by its generated
 * websocket-frame.schema.json type, no I/O. An EVENT frame wraps the stored Event text verbatim
 * and takes the Event ID as its frame ID, so it is built once per Event and the same bytes go to
 * every subscriber.
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { canonicalize } from './jcs.js';
import type { JsonObject } from './jsonValue.js';
import type { ErrorFrame, HelloAccept, HelloChallenge, MissionWeaveProtocolError, MissionWeaveWebSocketFrame, PingFrame } from './schemas/wireTypes.js';

/** A frame's own members: `frame()` adds the three every frame has. */
type Members<F> = Omit<F, 'protocolVersion' | 'frameId' | 'frameType'>;

export function newFrameId(): string {
  return `urn:uuid:${randomUUID()}`;
}

export function nonce(bytes = 18): string {
  return randomBytes(bytes).toString('base64url');
}

function frame(frameType: MissionWeaveWebSocketFrame['frameType'], members: JsonObject, frameId = newFrameId()): string {
  return canonicalize({ protocolVersion: '0.1', frameId, frameType, ...members });
}

/** `{"event":…,"frameId":…,"frameType":"EVENT","protocolVersion":"0.1"}` in JCS member order. */
export function eventFrame(eventId: string, eventText: string): string {
  return `{"event":${eventText},"frameId":${JSON.stringify(eventId)},"frameType":"EVENT","protocolVersion":"0.1"}`;
}

/** An ERROR frame around an error.schema.json document; a fatal one precedes the close. */
export function errorFrame(error: MissionWeaveProtocolError, fatal = false): string {
  const members: Members<ErrorFrame> = { error: fatal ? { ...error, fatal: true } : error };
  return frame('ERROR', members);
}

export function challengeFrame(clientNonce: string, serverNonce: string, challenge: string): string {
  const members: Members<HelloChallenge> = { phase: 'server_challenge', selectedVersion: '0.1', clientNonce, serverNonce, challenge };
  return frame('HELLO', members);
}

export function acceptFrame(sessionToken: string, sessionEpoch: number, expiresAt: string): string {
  const members: Members<HelloAccept> = { phase: 'server_accept', selectedVersion: '0.1', sessionToken, sessionEpoch, expiresAt };
  return frame('HELLO', members);
}

export function pingFrame(replyToNonce: string | undefined, sentAt: string): string {
  const members: Members<PingFrame> = { nonce: nonce(), ...(replyToNonce === undefined ? {} : { replyToNonce }), sentAt };
  return frame('PING', members);
}
