/**
 * The Authorization Service over HTTPS (§12), on the same listener as the Command endpoint:
 *
 * - `POST /v1/groups/{groupId}/capabilities`: a Worker asks for a capability token (or a new one
 *   under the same lease: rotation). Authenticated by its live Session's token as a Bearer
 *   credential, like snapshot reads; the Agent and Session Epoch come from that Session, never
 *   from the body. 201 `{token, claims}`; the token is in this answer and nowhere else.
 * - `POST /v1/capabilities/status`: a tool host's online check of a token it was shown (the
 *   token is the credential: the answer says no more than its holder may know). 200
 *   `{status: "valid", claims}`, or the §19 error (`AUTH_FORBIDDEN` revoked, mismatched or
 *   forged; `WORK_LEASE_EXPIRED` expired).
 * - `POST /v1/capabilities/charge`: a tool host charges a call, `{token, usageDelta,
 *   operationId}`; the same `operationId` (its §16 idempotency key) is one charge however often
 *   it is sent. 200 `{status: "charged", claims}`, or the §19 error (`BUDGET_EXCEEDED` over the
 *   token's ceilings or the budgets).
 *
 * The token travels in request bodies only, never in a URL (access logs keep URLs).
 */

import type { IncomingMessage } from 'node:http';
import { AuthorizationService } from '../app/authorization/authorizationService.js';
import { wireError } from '../app/wireError.js';
import { MAX_CAPABILITY_TOKEN_CHARS } from '../protocol/capabilityToken.js';
import { parseStrictJson, type JsonObject } from '../protocol/strictJson.js';
import type { Route, RouteIo } from './routeTable.js';
import type { TransportContext } from './transportContext.js';

/**
 * A status body is `{"token": …}`: the token's own bound plus room for the member name. A grant
 * request is a Command payload and shares the Command body limit.
 */
const STATUS_BODY_LIMIT = MAX_CAPABILITY_TOKEN_CHARS + 64;

const services = new WeakMap<TransportContext, AuthorizationService>();

function serviceOf(context: TransportContext): AuthorizationService {
  let service = services.get(context);
  if (service === undefined) {
    service = new AuthorizationService(context.authority, (groupId, workItemId) => context.groups.workItem(groupId, workItemId), (serviceId, actionId) => context.groups.serviceCommand(serviceId, actionId));
    services.set(context, service);
  }
  return service;
}

async function readObject(io: RouteIo, limit: number): Promise<JsonObject | undefined> {
  const read = await io.read(limit);
  if (read.kind === 'tooLarge') {
    io.tooLarge(limit);
    return undefined;
  }
  if (read.kind === 'aborted') return undefined;
  try {
    const value = parseStrictJson(read.bytes);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonObject;
    io.fail(wireError('SCHEMA_VALIDATION_FAILED', 'the body must be a JSON object'));
  } catch (error) {
    io.fail(wireError('PROTOCOL_VIOLATION', (error as Error).message));
  }
  return undefined;
}

const CAPABILITY_STATUS_PATH = '/v1/capabilities/status';
const CAPABILITY_CHARGE_PATH = '/v1/capabilities/charge';

/** A charge body is a token, a six-member usage delta and an operation ID: well under 1 KiB more. */
const CHARGE_BODY_LIMIT = STATUS_BODY_LIMIT + 1024;
const OPERATION_ID = /^[A-Za-z0-9][-A-Za-z0-9._:]{0,199}$/;
const GRANT_PATH = /^\/v1\/groups\/([^/]+)\/capabilities$/;

/** `POST /v1/groups/{groupId}/capabilities`. */
async function postCapability(context: TransportContext, request: IncomingMessage, io: RouteIo, groupId: string): Promise<void> {
  const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  const session = bearer === undefined ? undefined : context.sessions.session(bearer);
  if (session === undefined) return io.fail(wireError('AUTH_REQUIRED', 'present the session token of a live session'));
  const body = await readObject(io, context.limits.maxPayloadBytes);
  if (body === undefined) return;
  const outcome = await serviceOf(context).issue({ agentId: session.agentId, sessionEpoch: session.sessionEpoch }, groupId, body);
  if (!outcome.ok) return io.fail(outcome.error);
  context.logger.debug({ agentId: session.agentId, capabilityTokenId: outcome.claims.tokenId }, 'capability token issued');
  io.send(201, JSON.stringify({ token: outcome.token, claims: outcome.claims }));
}

/** `POST /v1/capabilities/status`. */
async function postCapabilityStatus(context: TransportContext, io: RouteIo): Promise<void> {
  const body = await readObject(io, STATUS_BODY_LIMIT);
  if (body === undefined) return;
  const token = body['token'];
  if (typeof token !== 'string') return io.fail(wireError('SCHEMA_VALIDATION_FAILED', 'the body names no token'));
  const outcome = await serviceOf(context).status(token);
  if (!outcome.ok) return io.fail(outcome.error);
  io.send(200, JSON.stringify({ status: 'valid', claims: outcome.claims }));
}

/** `POST /v1/capabilities/charge`. */
async function postCapabilityCharge(context: TransportContext, io: RouteIo): Promise<void> {
  const body = await readObject(io, CHARGE_BODY_LIMIT);
  if (body === undefined) return;
  const { token, usageDelta, operationId } = body;
  if (typeof token !== 'string' || typeof operationId !== 'string' || !OPERATION_ID.test(operationId) || typeof usageDelta !== 'object' || usageDelta === null) {
    return io.fail(wireError('SCHEMA_VALIDATION_FAILED', 'the body needs a token, a usageDelta and an operationId'));
  }
  const outcome = await serviceOf(context).charge(token, usageDelta, operationId);
  if (!outcome.ok) return io.fail(outcome.error);
  io.send(200, JSON.stringify({ status: 'charged', claims: outcome.claims }));
}

/**
 * The Authorization Service's routes. The grant's Session is checked by its handler, after the
 * Group is read from the path; status and charge are authenticated by the token in their body.
 */
export const capabilityRoutes: readonly Route[] = [
  { method: 'POST', path: GRANT_PATH, auth: 'handler', handle: ({ context, request, io, params }) => postCapability(context, request, io, decodeURIComponent(params[0] as string)) },
  { method: 'POST', path: CAPABILITY_STATUS_PATH, auth: 'handler', handle: ({ context, io }) => postCapabilityStatus(context, io) },
  { method: 'POST', path: CAPABILITY_CHARGE_PATH, auth: 'handler', handle: ({ context, io }) => postCapabilityCharge(context, io) },
];
