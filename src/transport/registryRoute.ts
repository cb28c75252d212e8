/**
 * `GET /v1/registry`: the Organization's Registry snapshot (app/registryExport.ts), so that a
 * party holding no server key can verify Events and other Signed Documents with the six stages
 * of §6.4. Only public keys and their validity are published, yet key IDs and Principal IDs
 * are Organization facts: like a snapshot, it is read with a live session's token as a Bearer
 * credential (§6.3) and refused with AUTH_REQUIRED without one.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { wireError, type WireError } from '../app/wireError.js';
import type { TransportContext } from './transportContext.js';

export const REGISTRY_PATH = '/v1/registry';

/** Names the revision, so a client can tell a newer snapshot before parsing it. */
export const REGISTRY_REVISION_HEADER = 'missionweave-registry-revision';

export async function getRegistry(context: TransportContext, request: IncomingMessage, response: ServerResponse, sendError: (error: WireError) => void): Promise<void> {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (token === undefined || context.sessions.session(token) === undefined) {
    return sendError(wireError('AUTH_REQUIRED', 'present the session token of a live session'));
  }
  const document = await context.authority.registryExport();
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', [REGISTRY_REVISION_HEADER]: String(document.revision) });
  response.end(JSON.stringify(document));
}
