/**
 * What an Agent reaches over HTTPS with its live Session's bearer token (§12, §13): the
 * Authorization Service, the Artifact store, its Context Packages and the Registry. The token
 * changes with every session, so each is read when a request is made, never kept.
 */

import type { MissionWeaveAgentOptions } from './agentOptions.js';
import type { ArtifactEndpoint } from './artifacts.js';
import { CapabilityClient } from './capabilities.js';
import { ContextPackages } from './contextPackages.js';
import { contextTrustOf } from './contextTrust.js';
import { AgentClientError } from './errors.js';
import type { RegistryDocument } from './eventVerifier.js';
import { HANDSHAKE_TIMEOUT_MS } from './limits.js';
import { fetchRegistry } from './registryFetch.js';

export interface SessionAccess {
  readonly origin: URL;
  readonly options: MissionWeaveAgentOptions;
  /** The live session's token, undefined while none is open. */
  readonly token: () => string | undefined;
}

function timeoutOf(access: SessionAccess): number {
  return access.options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS;
}

function caOf(access: SessionAccess): { ca?: MissionWeaveAgentOptions['ca'] } {
  return access.options.ca === undefined ? {} : { ca: access.options.ca };
}

/** `GET /v1/registry` with the live session; rejects while none is open. */
export function readRegistry(access: SessionAccess): Promise<RegistryDocument> {
  const token = access.token();
  if (token === undefined) return Promise.reject(new Error('no session to read the Registry with'));
  return fetchRegistry(access.origin, access.options.ca, token, timeoutOf(access), access.options.registryKey);
}

export function capabilityClient(access: SessionAccess): CapabilityClient {
  return new CapabilityClient({ origin: access.origin, timeoutMs: timeoutOf(access), ...caOf(access) }, access.token);
}

/** The token is the live Session's, so a reconnect needs a fresh endpoint. */
export function artifactEndpoint(access: SessionAccess): ArtifactEndpoint {
  const sessionToken = access.token();
  if (sessionToken === undefined) throw new AgentClientError('CONNECTION_CLOSED', 'no live Session to reach the Artifact store with');
  return { origin: access.origin, sessionToken, timeoutMs: timeoutOf(access), ...caOf(access) };
}

/** Verified over the pinned Registry when there is one, else the one the session reads. */
export function contextPackages(access: SessionAccess): ContextPackages {
  const { registry } = access.options;
  return new ContextPackages({
    origin: access.origin,
    ca: access.options.ca,
    timeoutMs: timeoutOf(access),
    token: access.token,
    trust: async () => contextTrustOf(registry ?? (await readRegistry(access)).evidence),
  });
}
