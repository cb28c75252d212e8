/**
 * The rows of a seeded history (curvesSeed.ts), built where they are signed: a crypto-heavy pure
 * function, so the seed runs it on worker threads (curvesSeedWorker.ts), one per core, while the
 * main thread writes the batch before. Each row is what the Authority writes for one
 * `message.post` by the Group's owner: the signed Command's receipt, the `message.posted` Event
 * signed by the Authority's key, and the new Message aggregate.
 */

import { randomUUID } from 'node:crypto';
import { newUrn, signEventDocuments } from '#src/app/eventFactory.js';
import { timestampOf } from '#src/app/issueDocuments.js';
import { sha256ContentHash } from '#src/protocol/contentHash.js';
import type { Principal } from '#src/protocol/principal.js';
import { signDocumentWithBytes, type SigningKey } from '#src/protocol/signing/signDocument.js';
import type { JsonObject } from '#src/protocol/strictJson.js';
import type { AggregateWrite } from '#src/store/sql/appendBatch.js';
import type { EventRow } from '#src/store/sql/events.js';
import type { ReceiptRow } from '#src/store/sql/receipts.js';

/** The last Event of the Group (a real `message.posted`) and the aggregates it wrote. */
export interface Template {
  readonly sequence: number;
  readonly revision: number;
  readonly row: { kind: string; aggregate_type: string; aggregate_id: string };
  readonly event: Record<string, unknown> & { payload: { message: Record<string, unknown> } };
  readonly message: Record<string, unknown> & { message: Record<string, unknown> };
  readonly conversation: JsonObject;
}

/** Everything a signer needs, as plain data a worker thread receives (keys as PKCS #8 PEM). */
export interface SeedJob {
  readonly template: Template;
  readonly groupId: string;
  readonly conversationId: string;
  readonly content: string;
  readonly actor: Principal;
  readonly owner: { readonly keyId: string; readonly pem: string };
  readonly authority: { readonly keyId: string; readonly pem: string };
}

export interface SeedRows {
  readonly events: EventRow[];
  /** Message aggregates only; the Conversation's is added by the writer, per batch. */
  readonly aggregates: AggregateWrite[];
  readonly receipts: ReceiptRow[];
}

/** Sequences `first..last` of the job's Group, signed with `owner` (Commands) and `authority` (Events). */
export function seedRows(job: SeedJob, keys: { owner: SigningKey; authority: SigningKey }, first: number, last: number): SeedRows {
  const { template, groupId, actor } = job;
  const events: EventRow[] = [];
  const aggregates: AggregateWrite[] = [];
  const receipts: ReceiptRow[] = [];
  const documents: Record<string, unknown>[] = [];
  for (let sequence = first; sequence <= last; sequence++) {
    const now = timestampOf(Date.now());
    const messageId = `urn:uuid:${randomUUID()}`;
    const command = signDocumentWithBytes('command', {
      protocolVersion: '0.1', actionId: newUrn(), actor, kind: 'message.post', correlationId: newUrn(), issuedAt: now,
      payload: { messageId, conversationId: job.conversationId, content: job.content }, groupId, membershipEpoch: 1,
    }, keys.owner);
    const commandHash = sha256ContentHash(command.signingBytes);
    const eventId = newUrn();
    const aggregateRevision = template.revision + (sequence - template.sequence);
    documents.push({
      ...template.event, eventId, sequence, aggregateRevision, cause: { type: 'command', id: command.document.actionId },
      correlationId: command.document.correlationId, commandHash, occurredAt: now,
      payload: { ...template.event.payload, message: { ...template.event.payload.message, messageId, committedAt: now } },
    });
    events.push({ groupId, sequence, eventId, kind: template.row.kind, aggregateType: template.row.aggregate_type, aggregateId: template.row.aggregate_id, aggregateRevision, document: '', signingHash: '', admissionRecordId: newUrn(), trustedAcceptedAt: now, keyId: keys.authority.keyId });
    aggregates.push({ groupId, type: 'message', id: messageId, revision: 1, document: { ...template.message, message: { ...template.message.message, messageId, committedAt: now } } as JsonObject, sequence });
    receipts.push({ actorType: actor.type, actorId: actor.id, actionId: command.document.actionId, signingHash: commandHash, kind: 'message.post', groupId, command: command.text, eventIds: [eventId], keyId: keys.owner.keyId, admissionRecordId: newUrn(), trustedAcceptedAt: now });
  }
  const { texts, hashes } = signEventDocuments(documents, keys.authority);
  return { events: events.map((row, i) => ({ ...row, document: texts[i] as string, signingHash: hashes[i] as string })), aggregates, receipts };
}
