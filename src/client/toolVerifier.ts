/**
 * The tool-side verifier (§12 "Expired, revoked, mismatched, or over-budget tokens MUST be
 * rejected"): what a tool host calls before it acts on a Worker's request.
 *
 * Offline, with no round trip: the token is well formed, signed by a key the Organization's
 * Registry binds to a service (the Group Authority's Event-signing key; the snapshot is the one
 * `GET /v1/registry` serves, or a pinned export), the key valid at the check; the token has not
 * expired; and it binds what the caller expects — the Agent presenting it, the WorkItem, the
 * tool and the operation on the resource it is about to perform, on data no more sensitive than
 * the token's bound for that resource.
 *
 * Online, for revocation: `POST /v1/capabilities/status` asks the Authorization Service whether
 * the grant is still the WorkItem's newest and its Execution Lease still live (rotation, lease
 * closure, cancellation and Session replacement revoke a token before it expires). A tool host
 * that acts on a side effect should check online; a read-only tool may accept the offline check
 * for the token's few minutes.
 *
 * Charging: `chargeCapability` records a call's usage against the token's ceilings and the
 * ledger (`POST /v1/capabilities/charge`).
 */

import { decodeCapabilityToken, verifyCapabilitySignature, type CapabilityClaims } from '../protocol/capabilityToken.js';
import { isDataClassification, withinClassification, type DataClassification } from '../protocol/dataClassification.js';
import type { KeyRegistry } from '../protocol/signing/keyRegistry.js';
import { keyValidAt } from '../protocol/signing/keyRegistry.js';
import { instantFromMillis } from '../protocol/timestamp.js';
import { postJson, type CapabilityEndpoint } from './capabilityHttp.js';
import { isAgentError, type MissionWeaveError } from './errors.js';
import { isErrorCode } from '../protocol/errorCodes.js';

/** What the tool host expects the token to allow; each member given is checked. */
export interface ToolExpectation {
  readonly agentId?: string;
  readonly workItemId?: string;
  readonly tool?: string;
  readonly resource?: string;
  readonly operation?: string;
  /**
   * The classification of the data the operation touches: within the bound the token carries on
   * that resource (`constraints.maxDataClassification`), when it carries one.
   */
  readonly dataClassification?: DataClassification;
}

export type ToolCheck =
  | { readonly ok: true; readonly claims: CapabilityClaims }
  | { readonly ok: false; readonly reason: 'token-malformed' | 'unknown-key' | 'not-a-service-key' | 'key-not-valid' | 'bad-signature' | 'expired' | 'mismatch' | 'revoked'; readonly message: string };

function refused(reason: Extract<ToolCheck, { ok: false }>['reason'], message: string): ToolCheck {
  return { ok: false, reason, message };
}

/** Data at `level` lies within a resource's bound; a bound that is none of the four levels allows nothing. */
function withinBound(level: DataClassification, bound: string | undefined): boolean {
  if (bound === undefined) return true;
  return isDataClassification(bound) && withinClassification(level, bound);
}

/** Offline check of `token` at `nowMillis` against the Registry snapshot `registry`. */
export function verifyCapabilityOffline(token: string, registry: KeyRegistry, expect: ToolExpectation = {}, nowMillis: number = Date.now()): ToolCheck {
  const decoded = decodeCapabilityToken(token);
  if (!decoded.ok) return refused('token-malformed', 'not a capability token');
  const { claims } = decoded;
  const key = registry.resolve(claims.keyId);
  if (key === undefined) return refused('unknown-key', `the Registry binds no key ${claims.keyId}`);
  if (key.principal.type !== 'service' || key.principal.id !== claims.issuer.id) return refused('not-a-service-key', 'the signing key is not the issuing service’s');
  if (!keyValidAt(key, instantFromMillis(nowMillis))) return refused('key-not-valid', 'the signing key is not valid now');
  if (!verifyCapabilitySignature(decoded, key.keyObject)) return refused('bad-signature', 'the token’s signature does not verify');
  if (!(Date.parse(claims.expiresAt) > nowMillis)) return refused('expired', 'the token has expired');
  if (expect.agentId !== undefined && expect.agentId !== claims.agentId) return refused('mismatch', 'the token is bound to another Agent');
  if (expect.workItemId !== undefined && expect.workItemId !== claims.workItemId) return refused('mismatch', 'the token is bound to another WorkItem');
  if (expect.tool !== undefined && !claims.tools.includes(expect.tool)) return refused('mismatch', 'the token does not allow this tool');
  if (expect.resource !== undefined || expect.operation !== undefined || expect.dataClassification !== undefined) {
    const level = expect.dataClassification;
    const allowed = claims.resources.some(
      (r) =>
        (expect.resource === undefined || r.resource === expect.resource) &&
        (expect.operation === undefined || r.operations.includes(expect.operation)) &&
        (level === undefined || withinBound(level, r.constraints?.maxDataClassification)),
    );
    if (!allowed) return refused('mismatch', 'the token does not allow this operation on this resource, or data this sensitive');
  }
  return { ok: true, claims };
}

/**
 * Offline, then online: the Authorization Service confirms the grant is current. A refusal the
 * service answers (revoked, expired, forged) is `revoked`; a transport failure throws.
 */
export async function verifyCapabilityOnline(token: string, registry: KeyRegistry, endpoint: CapabilityEndpoint, expect: ToolExpectation = {}, nowMillis: number = Date.now()): Promise<ToolCheck> {
  const offline = verifyCapabilityOffline(token, registry, expect, nowMillis);
  if (!offline.ok) return offline;
  try {
    await postJson(endpoint, '/v1/capabilities/status', { token });
  } catch (error) {
    // The service's §19 answers are MissionWeaveErrors; a non-retryable one is its verdict.
    if (isAgentError(error) && isErrorCode(error.code) && !(error as MissionWeaveError).retryable) return refused('revoked', error.message);
    throw error;
  }
  return offline;
}

/**
 * Charges one call's usage to `token` through the Authorization Service (§12): the charge must
 * fit the token's ceilings and the budgets, else `BUDGET_EXCEEDED` (thrown as `MissionWeaveError`).
 * `operationId` names the logical operation: charging it again is the same charge (§16).
 */
export async function chargeCapability(token: string, usageDelta: Readonly<Record<string, number>>, operationId: string, endpoint: CapabilityEndpoint): Promise<CapabilityClaims> {
  const answer = await postJson(endpoint, '/v1/capabilities/charge', { token, usageDelta, operationId });
  return answer['claims'] as CapabilityClaims;
}
