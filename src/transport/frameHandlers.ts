/**
 * Frames of an authenticated connection: COMMAND, SUBSCRIBE, ACK and PING.
 */

import { wireError } from '../app/wireError.js';
import { Subscription } from '../delivery/subscription.js';
import type { Attention } from '../delivery/deliveryEvent.js';
import { pingFrame } from '../protocol/frames.js';
import type { JsonObject } from '../protocol/strictJson.js';
import { CLOSE } from './limits.js';
import type { FrameConnection } from './transportContext.js';

type Handler = (connection: FrameConnection, frame: JsonObject, frameId: string | undefined, text: string) => Promise<void>;

function schemaOk(connection: FrameConnection, definition: string, frame: JsonObject, frameId: string | undefined): boolean {
  const check = connection.context.authority.schemas.validateDefinition('websocket-frame', definition, frame);
  if (!check.ok) connection.fail(wireError('SCHEMA_VALIDATION_FAILED', check.error), frameId);
  return check.ok;
}

/** The COMMAND frame's own members; the Command inside is checked by the pipeline. */
function commandFrameOk(frame: JsonObject): boolean {
  const keys = Object.keys(frame).sort().join(',');
  const command = frame['command'];
  return keys === 'command,frameId,frameType,protocolVersion' && typeof command === 'object' && command !== null && !Array.isArray(command) && typeof frame['frameId'] === 'string';
}

export const handleCommand: Handler = async (connection, frame, frameId, text) => {
  if (!commandFrameOk(frame) || frameId === undefined) {
    connection.fail(wireError('SCHEMA_VALIDATION_FAILED', 'a COMMAND frame holds exactly protocolVersion, frameId, frameType and command'), frameId);
    return;
  }
  const command = frame['command'] as JsonObject;
  const actionId = typeof command['actionId'] === 'string' && command['actionId'].length <= 512 ? command['actionId'] : undefined;
  const related = actionId === undefined ? {} : { relatedActionId: actionId };
  const actor = command['actor'] as JsonObject | undefined;
  if (actor?.['type'] !== 'agent' || actor['id'] !== connection.agentId) {
    connection.fail(wireError('AUTH_FORBIDDEN', 'a session carries only its own Agent\u2019s Commands', related), frameId);
    return;
  }
  const { limits } = connection.context;
  if (connection.inFlight >= limits.maxInFlightCommands) {
    connection.fail(wireError('RATE_LIMITED', 'too many Commands in flight on this connection', { ...related, retryAfterMs: 100 }), frameId);
    return;
  }
  connection.inFlight++;
  try {
    const outcome = await connection.context.authority.submit(command, text, { transport: 'wss', address: connection.address }, connection);
    if (outcome.ok) connection.sendEvents(outcome.events);
    else {
      // When the Command carried this connection's own epoch, the connection itself is fenced
      // (the cross-node hint was lost): close it. An older Command's epoch fences only it.
      const connectionFenced = outcome.error.code === 'AUTH_STALE_SESSION' && command['sessionEpoch'] === connection.sessionEpoch;
      connection.fail({ ...outcome.error, ...related }, frameId, connectionFenced, CLOSE.sessionReplaced);
    }
  } finally {
    connection.inFlight--;
  }
};

async function subscribeOne(connection: FrameConnection, entry: JsonObject, frameId: string | undefined): Promise<void> {
  const { groups, hub, limits } = connection.context;
  const groupId = String(entry['groupId']);
  // A new SUBSCRIBE replaces the Group's subscription, whether or not it succeeds.
  const previous = connection.subscriptions.get(groupId);
  if (previous !== undefined) {
    hub.unsubscribe(previous);
    connection.subscriptions.delete(groupId);
  }
  const access = await groups.authorizeRead(groupId, connection.agentId, { purpose: 'subscribe', afterSequence: Number(entry['afterSequence']) });
  if (!access.ok) {
    connection.fail(access.error, frameId);
    return;
  }
  const head = (await groups.lastSequence(groupId)) ?? 0;
  const after = access.afterSequence;
  if (head - after > limits.onlineReplayWindow) {
    await connection.context.cursorTooOld(connection, groupId, frameId);
    return;
  }
  const subscription = new Subscription(groupId, connection.agentId, after, entry['attention'] as Attention | undefined, limits.groupQueueLimit, connection.outbox, hub);
  connection.subscriptions.set(groupId, subscription);
  hub.replay(subscription);
}

export const handleSubscribe: Handler = async (connection, frame, frameId) => {
  if (!schemaOk(connection, 'subscribeFrame', frame, frameId)) return;
  const groups = frame['groups'] as JsonObject[];
  const fresh = new Set(groups.map((g) => String(g['groupId'])).filter((g) => !connection.subscriptions.has(g)));
  if (connection.subscriptions.size + fresh.size > connection.context.limits.maxSubscriptionsPerConnection) {
    connection.fail(wireError('RATE_LIMITED', 'too many subscribed Groups on this connection'), frameId);
    return;
  }
  for (const entry of groups) await subscribeOne(connection, entry, frameId);
};

export const handleAck: Handler = async (connection, frame, frameId) => {
  if (!schemaOk(connection, 'ackFrame', frame, frameId)) return;
  const cursors = (frame['acknowledgements'] as JsonObject[])
    .map((a) => ({ groupId: String(a['groupId']), sequence: Number(a['sequence']) }))
    .filter((a) => connection.subscriptions.has(a.groupId));
  await connection.context.groups.advanceCursors(connection.agentId, cursors, connection.now());
};

export const handlePing: Handler = (connection, frame, frameId) => {
  if (!schemaOk(connection, 'pingFrame', frame, frameId)) return Promise.resolve();
  const presence = frame['presence'] as JsonObject | undefined;
  if (presence !== undefined && presence['agentId'] === connection.agentId) connection.context.presence.set(connection.agentId, presence);
  if (frame['replyToNonce'] === undefined) connection.outbox.send(pingFrame(String(frame['nonce']), connection.now()));
  return Promise.resolve();
};
