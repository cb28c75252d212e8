/**
 * Setting up the worlds of the scaling curves quickly enough to reach their sizes on two cores:
 * many Groups through the real Command path, many at once; a long Group history written through
 * the store layer with real signatures, then verified as an operator's `replay --verify` would.
 */

import { randomUUID } from 'node:crypto';
import { newUrn } from '../app/eventFactory.js';
import { signEventDocuments } from '../app/eventFactory.js';
import { timestampOf } from '../app/issueDocuments.js';
import { verifyGroupHistory } from '../app/verifyGroupHistory.js';
import { sha256ContentHash } from '../protocol/contentHash.js';
import { signDocumentWithBytes } from '../protocol/signing/signDocument.js';
import type { JsonObject } from '../protocol/strictJson.js';
import { appendBatch, type AggregateWrite } from '../store/sql/appendBatch.js';
import type { EventRow } from '../store/sql/events.js';
import type { ReceiptRow } from '../store/sql/receipts.js';
import type { BenchAgent, BenchMission, BenchWorld } from './benchWorld.js';
import { CURVE_LIMITS } from './curvesPlan.js';

/**
 * Grows `groups` to `size` Missions through the in-process Authority's real Command path
 * (`mission.create`, and `membership.change` for the first `writers.length` Groups, which every
 * writer joins), `CURVE_LIMITS.setupWindow` at a time so the Authority commits them in batches.
 */
export async function createGroups(world: BenchWorld, writers: readonly BenchAgent[], groups: BenchMission[], size: number): Promise<void> {
  let next = groups.length;
  const worker = async (): Promise<void> => {
    while (next < size) {
      const j = next++;
      groups[j] = await world.mission(writers[j % writers.length] as BenchAgent, j < writers.length ? writers : []);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CURVE_LIMITS.setupWindow, size - next) }, worker));
}

interface Template {
  readonly sequence: number;
  readonly revision: number;
  readonly row: { kind: string; aggregate_type: string; aggregate_id: string };
  readonly event: Record<string, unknown> & { payload: { message: Record<string, unknown> } };
  readonly message: Record<string, unknown> & { message: Record<string, unknown> };
  readonly conversation: JsonObject;
}

/** The last Event of the Group (a real `message.posted`) and the aggregates it wrote. */
async function readTemplate(world: BenchWorld, groupId: string): Promise<Template> {
  const pool = world.running.pool;
  const last = (await pool.query<{ sequence: string; kind: string; aggregate_type: string; aggregate_id: string; aggregate_revision: string; document: string }>(
    'select sequence, kind, aggregate_type, aggregate_id, aggregate_revision, document from events where group_id = $1 order by sequence desc limit 1', [groupId])).rows[0];
  if (last?.kind !== 'message.posted') throw new Error(`seed: the template Event of ${groupId} is not a message.posted`);
  const event = JSON.parse(last.document) as Template['event'];
  delete event['signature'];
  const aggregate = async (type: string, id: string) => (await pool.query<{ document: JsonObject }>(
    'select document from aggregates where group_id = $1 and aggregate_type = $2 and aggregate_id = $3', [groupId, type, id])).rows[0]?.document;
  const message = await aggregate('message', String(event.payload.message['messageId']));
  const conversation = await aggregate(last.aggregate_type, last.aggregate_id);
  if (message === undefined || conversation === undefined) throw new Error(`seed: the template's aggregates of ${groupId} are missing`);
  return { sequence: Number(last.sequence), revision: Number(last.aggregate_revision), row: last, event, message: message as Template['message'], conversation };
}

/**
 * Brings `mission`'s Group to `total` Events of `message.post` by its human owner. One Message
 * goes through the real Command path; the rest repeat it through the store layer's own batch
 * write (`appendBatch`): each a fresh Command signed by the owner and its Event signed by the
 * Authority's key — exactly the rows the Authority writes (Event, Message and Conversation
 * aggregates, receipt, counter), without the verification and decision a live Command costs.
 * Signing one batch overlaps writing the previous one. The Group must not be used by this
 * in-process Authority afterwards (its cached state would be stale); a `serve` node reads it
 * from the database.
 */
export async function seedHistory(world: BenchWorld, mission: BenchMission, total: number, content: string): Promise<void> {
  await world.fill(mission, 1, content);
  const template = await readTemplate(world, mission.groupId);
  const config = world.home.config();
  const authorityKey = { keyId: config.services.authority.keyId, privateKey: world.home.privateKey(config.services.authority.privateKeyFile) };
  const { principal: actor, key: ownerKey } = world.owner;
  let pending: Promise<number> | undefined;
  for (let first = template.sequence + 1; first <= total; first += CURVE_LIMITS.seedBatch) {
    const last = Math.min(total, first + CURVE_LIMITS.seedBatch - 1);
    const events: EventRow[] = [];
    const aggregates: AggregateWrite[] = [];
    const receipts: ReceiptRow[] = [];
    const documents: Record<string, unknown>[] = [];
    for (let sequence = first; sequence <= last; sequence++) {
      const now = timestampOf(Date.now());
      const messageId = `urn:uuid:${randomUUID()}`;
      const command = signDocumentWithBytes('command', {
        protocolVersion: '0.1', actionId: newUrn(), actor, kind: 'message.post', correlationId: newUrn(), issuedAt: now,
        payload: { messageId, conversationId: mission.conversationId, content }, groupId: mission.groupId, membershipEpoch: 1,
      }, ownerKey);
      const commandHash = sha256ContentHash(command.signingBytes);
      const eventId = newUrn();
      const aggregateRevision = template.revision + (sequence - template.sequence);
      documents.push({
        ...template.event, eventId, sequence, aggregateRevision, cause: { type: 'command', id: command.document.actionId },
        correlationId: command.document.correlationId, commandHash, occurredAt: now,
        payload: { ...template.event.payload, message: { ...template.event.payload.message, messageId, committedAt: now } },
      });
      events.push({ groupId: mission.groupId, sequence, eventId, kind: template.row.kind, aggregateType: template.row.aggregate_type, aggregateId: template.row.aggregate_id, aggregateRevision, document: '', signingHash: '', admissionRecordId: newUrn(), trustedAcceptedAt: now });
      aggregates.push({ groupId: mission.groupId, type: 'message', id: messageId, revision: 1, document: { ...template.message, message: { ...template.message.message, messageId, committedAt: now } } as JsonObject, sequence });
      receipts.push({ actorType: actor.type, actorId: actor.id, actionId: command.document.actionId, signingHash: commandHash, kind: 'message.post', groupId: mission.groupId, command: command.text, eventIds: [eventId], keyId: ownerKey.keyId, admissionRecordId: newUrn(), trustedAcceptedAt: now });
    }
    const { texts, hashes } = signEventDocuments(documents, authorityKey);
    const signed = events.map((row, i) => ({ ...row, document: texts[i] as string, signingHash: hashes[i] as string }));
    const revision = template.revision + (last - template.sequence);
    aggregates.push({ groupId: mission.groupId, type: template.row.aggregate_type, id: template.row.aggregate_id, revision, document: { ...template.conversation, revision }, sequence: last });
    await pending;
    pending = appendBatch(world.running.pool, { events: signed, aggregates, receipts, sequences: new Map([[mission.groupId, last]]), notify: undefined });
  }
  await pending;
}

/**
 * The operator's check of a Group's whole history (`replay --verify`): every Event passes the six
 * stages and was accepted by this Authority, sequences run without a gap, and folding the Events
 * reproduces the stored aggregates. Returns its problems (none for a sound seed).
 */
export async function verifySeeded(world: BenchWorld, groupId: string): Promise<string[]> {
  const { authority } = world.running;
  const report = await verifyGroupHistory(world.running.pool, groupId, { registry: authority.registry.current.registry, schemas: authority.schemas, authority: world.home.settings().services.authority, kinds: authority.kinds });
  return report.problems;
}
