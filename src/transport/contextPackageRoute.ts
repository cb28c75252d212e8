/**
 * `GET /v1/groups/{groupId}/context-packages` (the caller's newest packages) and
 * `GET /v1/groups/{groupId}/context-packages/{contextPackageId}` (one signed package, as stored):
 * Context Packages are read by their recipient with its live session's token as a Bearer
 * credential, like snapshots (§13.3, §8; app/context/contextPackageAccess.ts has the rule).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { wireError, type WireError } from '../app/wireError.js';
import type { TransportContext } from './transportContext.js';

const PATH = /^\/v1\/groups\/([^/]+)\/context-packages(?:\/([^/]+))?$/;

/** Whether this route serves `pathname`. */
export function isContextPackagePath(pathname: string): boolean {
  return PATH.test(pathname);
}

export async function getContextPackages(
  context: TransportContext,
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
  sendError: (error: WireError) => void,
): Promise<void> {
  const [, group, id] = PATH.exec(pathname) ?? [];
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  const session = token === undefined ? undefined : context.sessions.session(token);
  if (session === undefined) return sendError(wireError('AUTH_REQUIRED', 'present the session token of a live session'));
  const groupId = decodeURIComponent(group as string);
  const read =
    id === undefined
      ? await context.groups.contextPackages(groupId, session.agentId)
      : await context.groups.contextPackage(groupId, session.agentId, decodeURIComponent(id));
  if (!read.ok) return sendError(read.error);
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(read.body);
}
