/**
 * `POST /v1/commands`: one signed Command through the very same pipeline and authorization as a
 * COMMAND frame, for actors without Agent sessions (humans, Organization services). The Command
 * authenticates itself; an Agent's belong to its WebSocket session (§6.3).
 */

import { wireError } from '../app/wireError.js';
import { parseStrictJson, type JsonObject } from '../protocol/strictJson.js';
import type { Route, RouteCall } from './routeTable.js';

async function postCommand(call: RouteCall): Promise<void> {
  const { context, request, io } = call;
  const read = await io.read(context.limits.maxPayloadBytes);
  if (read.kind === 'tooLarge') return io.tooLarge(context.limits.maxPayloadBytes);
  if (read.kind === 'aborted') {
    context.logger.debug({ address: request.socket.remoteAddress, path: request.url }, 'HTTP request aborted');
    return;
  }
  const body = read.bytes;
  let command: JsonObject;
  try {
    command = parseStrictJson(body) as JsonObject;
  } catch (error) {
    io.fail(wireError('PROTOCOL_VIOLATION', (error as Error).message));
    return;
  }
  const actor = typeof command === 'object' && command !== null ? (command['actor'] as JsonObject | undefined) : undefined;
  if (actor?.['type'] === 'agent') {
    // An Agent's Commands belong to its authenticated session (§6.3).
    io.fail(wireError('AUTH_REQUIRED', 'Agents send Commands over their WebSocket session'));
    return;
  }
  const origin = { transport: 'https' as const, ...(request.socket.remoteAddress === undefined ? {} : { address: request.socket.remoteAddress }) };
  const outcome = await context.authority.submit(command, { text: body.toString('utf8'), frame: false }, origin, request.socket, call.trace);
  if (!outcome.ok) {
    io.fail(outcome.error);
    return;
  }
  io.send(outcome.duplicate ? 200 : 201, `{"duplicate":${outcome.duplicate},"events":[${outcome.events.map((e) => e.text).join(',')}]}`);
}

export const commandRoutes: readonly Route[] = [{ method: 'POST', path: '/v1/commands', auth: 'handler', handle: postCommand }];
