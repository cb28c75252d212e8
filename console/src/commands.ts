/**
 * Commands built and signed in the page (§15.1): the envelope the server's schema
 * (schemas/command.schema.json) requires — protocol version, fresh Action and Correlation IDs,
 * the human as actor, `issuedAt` as the protected signed time — and only those optional members
 * that are set (the schema forbids extra ones). The signature is made here, with the
 * non-extractable key; the posted body is exactly the signed document.
 */

import type { ConsoleApi } from './api.js';
import { freshUrn } from './base64url.js';
import type { CommandOptions, JsonObject, SubmitResult } from './panel.js';
import { nowTimestamp, signDocument } from './signing.js';

export interface EnvelopeFacts extends CommandOptions {
  /** The human's current Membership Epoch in the Group; absent for Commands outside any Group. */
  readonly membershipEpoch?: number;
}

export async function buildCommand(api: ConsoleApi, kind: string, payload: JsonObject, facts: EnvelopeFacts): Promise<JsonObject> {
  const command: JsonObject = {
    protocolVersion: '0.1',
    actionId: freshUrn(),
    actor: { type: 'human', id: api.identity.humanId },
    kind,
    correlationId: freshUrn(),
    issuedAt: nowTimestamp(),
    payload,
  };
  if (facts.groupId !== undefined && facts.groupId !== null) command['groupId'] = facts.groupId;
  if (facts.membershipEpoch !== undefined) command['membershipEpoch'] = facts.membershipEpoch;
  if (facts.conversationId !== undefined) command['conversationId'] = facts.conversationId;
  if (facts.workItemId !== undefined) command['workItemId'] = facts.workItemId;
  if (facts.expectedRevision !== undefined) command['expectedRevision'] = facts.expectedRevision;
  if (facts.causedByEventId !== undefined) command['causedByEventId'] = facts.causedByEventId;
  return signDocument(command, 'issuedAt', api.identity);
}

export async function submitCommand(api: ConsoleApi, kind: string, payload: JsonObject, facts: EnvelopeFacts): Promise<SubmitResult> {
  return api.postCommand(await buildCommand(api, kind, payload, facts));
}
