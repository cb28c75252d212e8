/**
 * Redaction on the read path (§7.4): "Legal deletion or security redaction MUST append an
 * auditable tombstone; it MUST NOT silently rewrite prior Event IDs or sequence numbers", and the
 * redacted content must no longer reach readers. In the transaction that appends a
 * `message.redacted` tombstone, the Group Authority renders the Event that carries the redacted
 * Message (its `message.posted`, or the `message.corrected` of a redacted correction): the same
 * document — Event ID, sequence, revision, actor, cause, signed time — with the Message's content
 * replaced by the tombstone's, signed again with the Authority's key. Readers (replay through
 * `GroupAccess`) are served the rendering; the stored `events` row, its signing hash and its
 * First-Admission anchor are untouched, so the operator's `replay --verify` still verifies the
 * accepted chain, and an Agent's verifier accepts the rendering as an Authority-signed Event
 * (§6.4) whose content is the tombstone — never the redacted words.
 */

import type { JsonObject } from '../protocol/strictJson.js';
import type { SigningKey } from '../protocol/signing/signDocument.js';
import type { PoolClient } from '../store/pool.js';
import { insertEventRedaction, readMessageEvent } from '../store/sql/eventRedactions.js';
import type { EventRow } from '../store/sql/events.js';
import { messageCorrected } from '../domain/conversation/messageCorrect.js';
import { messagePosted } from '../domain/conversation/messagePost.js';
import { messageRedacted } from '../domain/conversation/messageRedact.js';
import { signEventDocuments } from './eventFactory.js';

/** The Event kinds that carry a Message, one of which a redaction renders: the domain's own. */
const CARRYING_KINDS: readonly string[] = [messagePosted.kind, messageCorrected.kind];

/** The carried Message of an Event payload: `message` (posted) or `amendment` (corrected). */
function carriedMember(payload: JsonObject): 'message' | 'amendment' {
  return typeof payload['message'] === 'object' ? 'message' : 'amendment';
}

/** Whether any of these Events is a redaction `renderRedactions` must render. */
export function rendersRedactions(events: readonly EventRow[]): boolean {
  return events.some(isRedaction);
}

function isRedaction(row: EventRow): boolean {
  return row.kind === messageRedacted.kind;
}

/** Renders the Events whose Messages the batch's `message.redacted` Events redact. */
export async function renderRedactions(client: PoolClient, events: readonly EventRow[], key: SigningKey): Promise<void> {
  for (const row of events) {
    if (!isRedaction(row)) continue;
    const tombstone = (JSON.parse(row.document) as { payload: { amendment: { targetMessageId: string; content: JsonObject[] } } }).payload.amendment;
    const original = await readMessageEvent(client, row.groupId, CARRYING_KINDS, tombstone.targetMessageId);
    if (original === undefined) continue;
    const { signature: _signature, ...unsigned } = JSON.parse(original.document) as JsonObject & { payload: JsonObject };
    const member = carriedMember(unsigned.payload);
    const carried = unsigned.payload[member] as JsonObject;
    const rendering = { ...unsigned, payload: { ...unsigned.payload, [member]: { ...carried, content: tombstone.content } } };
    const { texts } = signEventDocuments([rendering], key);
    await insertEventRedaction(client, { groupId: row.groupId, sequence: original.sequence, eventId: original.eventId, redactedBy: row.eventId, document: texts[0] as string });
  }
}
