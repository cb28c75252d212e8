/**
 * The cryptographic floor of one accepted Command (issue 16): what no implementation can avoid
 * spending on it — one Ed25519 verification of the Command's signature (§6.4) and one Ed25519
 * signature of the Event it produces (§15.2) — measured with raw `node:crypto` on one core, in
 * the same run as the figures it is compared with, so the ratio holds on any machine.
 *
 * The inputs are a typical ~1.4 KB `message.post` Command as the bench's writers send it and
 * the `message.posted` Event the server would sign for it; their signing bytes are computed once,
 * outside the timed loops, so parsing, JCS and schema checks are not part of the floor.
 */

import { createPublicKey, randomUUID, sign, verify } from 'node:crypto';
import { signCommand, timestampOf } from '#src/app/issueDocuments.js';
import { decodeBase64url } from '#src/protocol/base64url.js';
import { canonicalBytesWithout } from '#src/protocol/jcs.js';
import { generatePrivateKey, signDocumentWithBytes } from '#src/protocol/signing/signDocument.js';
import { parseStrictJson, type JsonObject } from '#src/protocol/strictJson.js';
import { measureRates } from './measure.js';

export interface CryptoFloor {
  readonly verifyUs: number;
  readonly signUs: number;
  /** verifyUs + signUs: `cryptoFloorUsPerCommand`. */
  readonly floorUs: number;
}

/** The floor from the two measured rates (operations per second on one core). */
export function floorFromRates(verifyPerSec: number, signPerSec: number): CryptoFloor {
  const verifyUs = 1e6 / verifyPerSec;
  const signUs = 1e6 / signPerSec;
  return { verifyUs, signUs, floorUs: verifyUs + signUs };
}

/** Signing bytes and keys of a typical Command and of its Event. */
function typicalDocuments() {
  const agentKey = generatePrivateKey();
  const authorityKey = generatePrivateKey();
  const suffix = randomUUID();
  const now = timestampOf(Date.now());
  const payload: JsonObject = { messageId: `urn:uuid:${randomUUID()}`, conversationId: `urn:missionweave:conversation:${suffix}`, content: 'x'.repeat(900) };
  const actor = { type: 'agent', id: `urn:missionweave:agent:floor-${suffix}` };
  const command = signCommand({ actor: { type: 'agent', id: actor.id }, kind: 'message.post', payload, groupId: `urn:missionweave:group:${suffix}`, sessionEpoch: 1, membershipEpoch: 1, issuedAt: now }, { keyId: `urn:uuid:${randomUUID()}`, privateKey: agentKey });
  const commandBytes = canonicalBytesWithout(parseStrictJson(Buffer.from(JSON.stringify(command))) as JsonObject, 'signature');
  const signature = decodeBase64url(String((command['signature'] as JsonObject)['value'])) as Buffer;
  // The Event document as eventFactory.ts builds it for a message.post (§15.2).
  const event = signDocumentWithBytes('event', {
    protocolVersion: '0.1', eventId: `urn:uuid:${randomUUID()}`, groupId: command['groupId'], sequence: 12_345, aggregateRevision: 12_345,
    kind: 'message.posted', actor, cause: { type: 'command', id: command['actionId'] }, correlationId: command['correlationId'],
    conversationId: payload['conversationId'], occurredAt: now, payload,
    acceptedBy: { type: 'service', id: `urn:missionweave:service:authority-${suffix}` }, commandHash: `sha256:${'0'.repeat(64)}`,
  }, { keyId: `urn:uuid:${randomUUID()}`, privateKey: authorityKey });
  return { agentPublicKey: createPublicKey(agentKey), commandBytes, signature, authorityKey, eventBytes: event.signingBytes };
}

/**
 * Measures the floor on this thread: verify and sign alternate in `rounds` rounds of `millis`
 * each and the median rate of each is kept (measure.ts), so a burst of load from another tenant
 * moves one round, not the figure.
 */
export function cryptoFloorUsPerCommand(rounds = 5, millis = 300): CryptoFloor {
  const d = typicalDocuments();
  if (!verify(null, d.commandBytes, d.agentPublicKey, d.signature)) throw new Error('the typical Command does not verify');
  const rates = measureRates({
    verify: () => verify(null, d.commandBytes, d.agentPublicKey, d.signature),
    sign: () => sign(null, d.eventBytes, d.authorityKey),
  }, rounds, millis);
  const rate = (name: string) => rates.find((r) => r.name === name)?.perSecond ?? Number.NaN;
  return floorFromRates(rate('verify'), rate('sign'));
}
