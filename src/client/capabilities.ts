/**
 * The Worker's side of the Authorization Service (§12): ask for a capability token for the
 * WorkItem it executes, under its current Ownership Epoch and Execution Lease, and ask again to
 * rotate or narrow it (the new token revokes the old one). The request is authenticated by the
 * Agent's live Session; the token comes back in the answer only. Keep it in memory and hand it
 * to tool hosts; never put it in a Message, an Artifact or a log line.
 *
 * Also the §16 idempotency key of an external side effect: `idempotencyKey(claims, operationId)`
 * derives it from the token's Mission, WorkItem and Ownership Epoch and the Worker's logical
 * operation ID, so a retried operation carries the same key and the receiving tool recognises it.
 */

import { idempotencyKeyOf, type CapabilityClaims, type CapabilityLimits, type CapabilityResource } from '../protocol/capabilityToken.js';
import type { ContentHash } from '../protocol/contentHash.js';
import { AgentClientError } from './errors.js';
import { postJson, type CapabilityEndpoint } from './capabilityHttp.js';

export interface CapabilityRequest {
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
  /** Narrower than the contract's tools, resources and ceilings; absent: all the grant allows. */
  readonly tools?: readonly string[];
  readonly resources?: readonly CapabilityResource[];
  readonly limits?: CapabilityLimits;
  readonly expiresInSeconds?: number;
}

export interface CapabilityToken {
  /** The bearer secret: give it to tool hosts only. */
  readonly token: string;
  readonly claims: CapabilityClaims;
}

export class CapabilityClient {
  constructor(
    private readonly endpoint: CapabilityEndpoint,
    /** The live Session's token, read at each request (it changes when the Agent reconnects). */
    private readonly sessionToken: () => string | undefined,
  ) {}

  /** A token for `request`; asking again under the same lease rotates it. Refusals throw `MissionWeaveError`. */
  async request(request: CapabilityRequest): Promise<CapabilityToken> {
    const session = this.sessionToken();
    if (session === undefined || session === '') throw new AgentClientError('CONNECTION_CLOSED', 'no live session to ask for a capability token with');
    const { groupId, ...body } = request;
    const answer = await postJson(this.endpoint, `/v1/groups/${encodeURIComponent(groupId)}/capabilities`, body, session);
    if (typeof answer['token'] !== 'string' || typeof answer['claims'] !== 'object') throw new Error('the Authorization Service answered no token');
    return { token: answer['token'], claims: answer['claims'] as CapabilityClaims };
  }
}

/** The §16 idempotency key of one logical external operation under `claims`. */
export function idempotencyKey(claims: Pick<CapabilityClaims, 'missionId' | 'workItemId' | 'ownershipEpoch'>, operationId: string): ContentHash {
  return idempotencyKeyOf(claims, operationId);
}
