/**
 * Frames of an authenticated connection: COMMAND, SUBSCRIBE, ACK and PING. SUBSCRIBE, ACK and
 * PING wait in the connection's bounded control queue; everything a connection started in
 * delivery stops when it closes (`stopDelivery`).
 */

import { wireError } from '../app/wireError.js';
import type { ControlQueue } from '../delivery/controlQueue.js';
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

/** Queues a SUBSCRIBE, ACK or PING behind the earlier ones, or refuses it when too many wait. */
export function queueControl(connection: FrameConnection, queue: ControlQueue, bytes: number, frameId: string | undefined, run: () => Promise<void>): void {
  if (queue.push(bytes, run)) return;
  const retryAfterMs = connection.context.limits.backpressureRetryMs;
  connection.fail(wireError('RATE_LIMITED', 'too many SUBSCRIBE, ACK and PING frames waiting on this connection', { retryAfterMs }), frameId);
}

/**
 * The connection is closing: frames still waiting are dropped, and every subscription stops,
 * its replay included, its queued frames released. Called on close, not only once the peer
 * has answered it, so nothing keeps working for a client that is gone.
 */
export function stopDelivery(connection: FrameConnection, queue: ControlQueue): void {
  queue.cancel();
  for (const subscription of connection.subscriptions.values()) connection.context.hub.unsubscribe(subscription);
  connection.subscriptions.clear();
}

/** Read afresh after every await: the connection may have started closing meanwhile. */
function closing(connection: FrameConnection): boolean {
  return connection.state === 'closing';
}

async function subscribeOne(connection: FrameConnection, entry: JsonObject, frameId: string | undefined): Promise<void> {
  const { groups, hub, limits } = connection.context;
  const groupId = String(entry['groupId']);
  // A new SUBSCRIBE replaces the Group's subscription, whether or not it succeeds. The Group
  // keeps its place under the cap until the old replay has stopped reading: replays of one
  // Group replace each other, they never stack.
  const previous = connection.subscriptions.get(groupId);
  if (previous !== undefined) {
    hub.unsubscribe(previous);
    await hub.stopped(previous);
    connection.subscriptions.delete(groupId);
  }
  const access = await groups.authorizeRead(groupId, connection.agentId, { purpose: 'subscribe', afterSequence: Number(entry['afterSequence']) });
  if (closing(connection)) return;
  if (!access.ok) {
    connection.fail(access.error, frameId);
    return;
  }
  const head = (await groups.lastSequence(groupId)) ?? 0;
  if (closing(connection)) return;
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
  // Every Group that holds anything counts: live, replaying, paused, or still being replaced.
  const groups = frame['groups'] as JsonObject[];
  const fresh = new Set(groups.map((g) => String(g['groupId'])).filter((g) => !connection.subscriptions.has(g)));
  if (connection.subscriptions.size + fresh.size > connection.context.limits.maxSubscriptionsPerConnection) {
    connection.fail(wireError('RATE_LIMITED', 'too many subscribed Groups on this connection'), frameId);
    return;
  }
  for (const entry of groups) {
    if (closing(connection)) return;
    await subscribeOne(connection, entry, frameId);
  }
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
