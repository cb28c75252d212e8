/**
 * `GET /v1/registry`: the Organization's signed Registry snapshot (app/registryPublication.ts),
 * its stored JCS bytes as they are (the same bytes `registry export` writes), so that a party
 * holding no server key can verify Events and other Signed Documents with the six stages of §6.4,
 * and one holding the Registry service's published key can check the Registry itself. Only public keys and their validity are published, yet key IDs and Principal IDs
 * are Organization facts: it is read with the token of any live session as a Bearer credential —
 * an Agent's HELLO session (§6.3) or a human's (`readerAuth.ts`) — and refused with AUTH_REQUIRED
 * without one.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { wireError, type WireError } from '../app/wireError.js';
import { readerOf } from './readerAuth.js';
import type { TransportContext } from './transportContext.js';

export const REGISTRY_PATH = '/v1/registry';

/** Names the revision, so a client can tell a newer snapshot before parsing it. */
export const REGISTRY_REVISION_HEADER = 'missionweave-registry-revision';

export async function getRegistry(context: TransportContext, request: IncomingMessage, response: ServerResponse, sendError: (error: WireError) => void): Promise<void> {
  if (readerOf(context, request) === undefined) {
    return sendError(wireError('AUTH_REQUIRED', 'present the token of a live session (an Agent HELLO session or a human session) as a Bearer credential'));
  }
  const published = await context.authority.registryExport();
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', [REGISTRY_REVISION_HEADER]: String(published.revision) });
  response.end(published.text);
}
