/**
 * `GET /v1/groups/{groupId}/context-packages` (the caller's newest packages) and
 * `GET /v1/groups/{groupId}/context-packages/{contextPackageId}` (one signed package, as stored):
 * Context Packages are read by their recipient with its live session's token as a Bearer
 * credential, like snapshots (§13.3, §8; app/context/contextPackageAccess.ts has the rule).
 */

import type { Route, RouteCall } from './routeTable.js';
import type { AgentSession } from './sessions.js';

const PATH = /^\/v1\/groups\/([^/]+)\/context-packages(?:\/([^/]+))?$/;

async function getContextPackages({ context, response, io, params }: RouteCall, session: AgentSession): Promise<void> {
  const [group, id] = params;
  const groupId = decodeURIComponent(group as string);
  const read =
    id === undefined
      ? await context.groups.contextPackages(groupId, session.agentId)
      : await context.groups.contextPackage(groupId, session.agentId, decodeURIComponent(id));
  if (!read.ok) return io.fail(read.error);
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(read.body);
}

export const contextPackageRoutes: readonly Route[] = [{ method: 'GET', path: PATH, auth: 'session', handle: getContextPackages }];
