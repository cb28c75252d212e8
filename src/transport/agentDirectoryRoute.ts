/**
 * `GET /v1/agents`: the Organization's Agents by name (`app/humans/agentDirectory.ts`), for the
 * console's Coordinator picker and for showing Agents by name rather than by identifier. The
 * Registry copy is caught up first, so an Agent `agent add` registered a moment ago is listed;
 * at most `MAX_DIRECTORY_AGENTS`, `truncated` saying when more exist. Read with the token of any
 * live session, as `GET /v1/registry` is: Agent IDs are Organization facts, not a Group's.
 */

import { agentDirectory } from '../app/humans/agentDirectory.js';
import type { Route, RouteIo } from './routeTable.js';
import { MAX_DIRECTORY_AGENTS } from './readerLimits.js';
import type { TransportContext } from './transportContext.js';

export const AGENTS_PATH = '/v1/agents';

async function getAgents(context: TransportContext, io: RouteIo): Promise<void> {
  await context.authority.refreshRegistry().catch((error: unknown) => context.logger.warn({ err: error }, 'Registry refresh failed'));
  io.send(200, JSON.stringify(agentDirectory(context.authority.registry.current.agents.values(), MAX_DIRECTORY_AGENTS)));
}

export const agentDirectoryRoutes: readonly Route[] = [{ method: 'GET', path: AGENTS_PATH, auth: 'reader', handle: ({ context, io }) => getAgents(context, io) }];
