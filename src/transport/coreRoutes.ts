/**
 * The core's HTTPS routes, in one place and in the order they are matched: liveness and
 * readiness, the metrics, Commands, the Registry, Context Packages, the read API of humans and
 * Agents (and the Agent directory), the Authorization Service, snapshots and Artifacts. The modules named here hold the
 * handlers; an Extension Profile's routes come after these (`ListenerOptions.routes`).
 */

import { agentDirectoryRoutes } from './agentDirectoryRoute.js';
import { artifactRoutes } from './artifactRoutes.js';
import { capabilityRoutes } from './capabilityRoutes.js';
import { commandRoutes } from './commandRoute.js';
import { contextPackageRoutes } from './contextPackageRoute.js';
import { readerRoutes } from './humanRoutes.js';
import { getMetrics, headMetrics, METRICS_PATH } from './metricsRoute.js';
import { getRegistry, REGISTRY_PATH } from './registryRoute.js';
import type { Route } from './routeTable.js';
import { snapshotRoutes } from './snapshotRoutes.js';

const probeRoutes: readonly Route[] = [
  { method: 'GET', path: '/health', auth: 'public', handle: ({ io }) => io.send(200, '{"status":"ok"}') },
  {
    method: 'GET',
    path: '/ready',
    auth: 'public',
    handle: async ({ context, io }) => {
      await context.groups.ready();
      io.send(200, '{"status":"ready"}');
    },
  },
  { method: 'GET', path: METRICS_PATH, auth: 'public', handle: ({ context, response }) => getMetrics(context, response) },
  { method: 'HEAD', path: METRICS_PATH, auth: 'public', handle: ({ context, response }) => headMetrics(context, response) },
];

/** The Registry's key bindings: any live session reads them, and the handler says so in its own words. */
const registryRoutes: readonly Route[] = [
  { method: 'GET', path: REGISTRY_PATH, auth: 'handler', handle: ({ context, request, response, io }) => getRegistry(context, request, response, (error) => io.fail(error)) },
];

export const CORE_ROUTES: readonly Route[] = [
  ...probeRoutes,
  ...commandRoutes,
  ...registryRoutes,
  ...contextPackageRoutes,
  ...readerRoutes,
  ...agentDirectoryRoutes,
  ...capabilityRoutes,
  ...snapshotRoutes,
  ...artifactRoutes,
];
