/**
 * The server side of HELLO (§6.3): `client_init` gets a challenge, `client_response` is verified
 * against the kept transcript, and acceptance opens a new session through the Command pipeline
 * (`ext.missionweaveprotocol.identity.session_open`), which issues Session Epoch n+1 and fences
 * every older session of the Agent. Every failure closes the connection.
 */

import { signSessionOpen } from '../app/issueDocuments.js';
import { unrecordedError } from '../app/recordPolicyLog.js';
import { wireError } from '../app/wireError.js';
import { acceptFrame, challengeFrame } from '../protocol/frames.js';
import type { HelloResponse } from '../protocol/schemas/wireTypes.js';
import type { JsonObject, JsonValue } from '../protocol/strictJson.js';
import type { Instant } from '../protocol/timestamp.js';
import { credentialRefusal, HELLO_REFUSAL_STAGES, issueChallenge, newSessionToken, rejectResponse, type ClientResponse, type PendingChallenge } from './hello.js';
import { CLOSE } from './limits.js';
import type { FrameConnection } from './transportContext.js';

/**
 * Refuses the HELLO and closes. `claimed`: the Agent and key the client named, recorded
 * untrusted with a signature refusal; the refusal leaves only once its record is committed, and
 * a record that could not be made is answered as such (§6.4, `unrecordedError`).
 */
async function refuseAuthentication(connection: FrameConnection, frameId: string | undefined, reason: string, claimed: { readonly agentId?: JsonValue; readonly keyId?: JsonValue }): Promise<void> {
  connection.context.logger.info({ reason, address: connection.address }, 'HELLO rejected');
  const stage = HELLO_REFUSAL_STAGES[reason.replace(/^after-session-open-/, '')];
  const recorded = stage === undefined
    ? 'recorded'
    : await connection.context.authority.policyLog.record({
      diagnostic: { stage, reason, code: 'AUTH_INVALID_SIGNATURE' },
      origin: { transport: 'hello', address: connection.address },
      document: { actor: { type: 'agent', id: claimed.agentId ?? null }, signature: { keyId: claimed.keyId ?? null } },
    });
  if (recorded !== 'recorded') return connection.fail(unrecordedError(recorded), frameId, true, CLOSE.unavailable);
  connection.fail(wireError('AUTH_INVALID_SIGNATURE', ''), frameId, true, CLOSE.authenticationFailed);
}

export async function handleHello(connection: FrameConnection, frame: JsonObject, frameId: string | undefined): Promise<void> {
  const { authority, clock, limits } = connection.context;
  if (frame['frameType'] !== 'HELLO') {
    connection.fail(wireError('AUTH_REQUIRED', 'authenticate with HELLO first'), frameId, true, CLOSE.authenticationFailed);
    return;
  }
  if (connection.state === 'awaiting_init') {
    const versions = frame['supportedVersions'];
    if (Array.isArray(versions) && !versions.includes('0.1')) {
      connection.fail(wireError('UNSUPPORTED_VERSION', 'no shared protocol version; this server speaks 0.1'), frameId, true);
      return;
    }
    const check = authority.schemas.validateDefinition('websocket-frame', 'helloInit', frame);
    if (!check.ok) {
      connection.fail(wireError('SCHEMA_VALIDATION_FAILED', check.error), frameId, true);
      return;
    }
    const init = { agentId: String(frame['agentId']), keyId: String(frame['keyId']), clientNonce: String(frame['clientNonce']) };
    // Unknown Agents and keys get a challenge too: the answer to HELLO reveals nothing.
    connection.hello.pending = issueChallenge(init, clock.nowMillis(), limits.challengeTtlMs);
    connection.state = 'awaiting_response';
    connection.outbox.send(challengeFrame(init.clientNonce, connection.hello.pending.serverNonce, connection.hello.pending.challenge));
    return;
  }
  const pending = connection.hello.pending;
  connection.hello.pending = undefined; // one use, whatever happens next
  const check = authority.schemas.validateDefinition('websocket-frame', 'helloResponse', frame);
  if (pending === undefined || !check.ok) {
    await refuseAuthentication(connection, frameId, check.ok ? 'no-pending-challenge' : 'response-schema-invalid', frame);
    return;
  }
  const response: ClientResponse = frame as HelloResponse; // schema-valid just above
  let reason = rejectResponse(pending, response, authority.registry.current, clock.nowMillis());
  // Another node may have registered (or changed) this Agent's card a moment ago.
  if (reason !== null && REGISTRY_REASONS.has(reason) && (await refreshed(connection))) {
    reason = rejectResponse(pending, response, authority.registry.current, clock.nowMillis());
  }
  if (reason !== null) {
    await refuseAuthentication(connection, frameId, reason, pending);
    return;
  }
  await openSession(connection, pending, frameId);
}

/** An Instant as milliseconds, rounded down (a key is invalid from its boundary on). */
function millisOf(instant: Instant): number {
  return instant.seconds * 1000 + Number(instant.fraction.padEnd(3, '0').slice(0, 3));
}

/** Rejections that a stale copy of the Registry could cause. */
const REGISTRY_REASONS = new Set(['unknown-key', 'key-bound-to-another-principal', 'key-not-valid-now', 'agent-card-not-active']);

async function refreshed(connection: FrameConnection): Promise<boolean> {
  try {
    return await connection.context.authority.refreshRegistry();
  } catch {
    return false; // the database is away: the refusal stands, on the evidence we hold
  }
}

async function openSession(connection: FrameConnection, pending: PendingChallenge, frameId: string | undefined): Promise<void> {
  const { authority, clock, limits, service, sessions } = connection.context;
  const command = signSessionOpen(service.principal, pending.agentId, connection.now(), service.key);
  const outcome = await authority.submit(command, undefined, { transport: 'hello', address: connection.address });
  if (!outcome.ok) {
    connection.context.logger.warn({ code: outcome.error.code, agentId: pending.agentId }, 'session could not be opened');
    // A database outage is not the Agent's fault: say so, and invite a retry.
    if (outcome.error.retryable) connection.fail(wireError('INTERNAL_ERROR', ''), frameId, true, CLOSE.unavailable);
    else await refuseAuthentication(connection, frameId, `session-open-${outcome.error.code}`, pending);
    return;
  }
  if (connection.state === 'closing') return;
  // Opening the session brought this node's Registry up to the database's: a key revoked on
  // another node since the first check is refused now. Only the key's standing can have changed:
  // the signature was verified against it above, and a key ID is bound to one key for good
  // (`key-id-reused`), so verifying again would cost a signature check per HELLO for nothing.
  const revoked = credentialRefusal(authority.registry.current, pending.agentId, pending.keyId, clock.nowMillis());
  if (revoked !== null) {
    await refuseAuthentication(connection, frameId, `after-session-open-${revoked}`, pending);
    return;
  }
  const opened = JSON.parse(outcome.events[0]?.text ?? '{}') as { payload?: { sessionEpoch?: number } };
  connection.agentId = pending.agentId;
  connection.keyId = pending.keyId;
  connection.sessionEpoch = Number(opened.payload?.sessionEpoch);
  connection.sessionToken = newSessionToken();
  connection.state = 'open';
  const published = sessions.add(connection);
  sessions.fence(connection.agentId, connection.sessionEpoch);
  // A session outlives neither its lifetime nor its key's validity; a revocation before either
  // closes it at once (sessions.ts).
  const key = authority.registry.current.registry.resolve(pending.keyId);
  const keyEnds = [key?.validUntil, key?.revokedAt].flatMap((end) => (end === undefined ? [] : [millisOf(end)]));
  const expiresAt = Math.min(clock.nowMillis() + limits.sessionTtlMs, ...keyEnds);
  connection.startSessionExpiry(expiresAt);
  // Every process of the node knows the token before the client does (clusterLink.ts).
  await published.catch((error: unknown) => connection.context.logger.warn({ err: error }, 'session token not published to the other processes'));
  // The connection may have closed meanwhile (TypeScript does not see the await change it).
  if ((connection.state as FrameConnection['state']) === 'closing') return;
  connection.outbox.send(acceptFrame(connection.sessionToken, connection.sessionEpoch, new Date(expiresAt).toISOString()));
}
