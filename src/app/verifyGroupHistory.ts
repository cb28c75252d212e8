/**
 * Operator verification of one Group's history: every Event passes the six cryptographic
 * stages under the Registry and was accepted by the Group Authority service, is anchored by its
 * stored First-Admission Record, found by signing hash and validated against what the six stages
 * established (historical replay, §6.4), sequences run 1..N without a gap,
 * and folding the Events from nothing reproduces exactly the stored aggregate state.
 */

import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import type { GroupState } from '../domain/kinds/groupState.js';
import type { MessageFacts } from '../domain/conversation/conversationSlice.js';
import type { RecordedEvent } from '../domain/model.js';
import { canonicalize } from '../protocol/jcs.js';
import { samePrincipal, type Principal } from '../protocol/principal.js';
import type { SchemaRegistry } from '../protocol/schemas/registry.js';
import { replayHistorical, type AdmissionLog } from '../protocol/signing/admission.js';
import type { KeyRegistry } from '../protocol/signing/keyRegistry.js';
import { verifySignedDocument } from '../protocol/signing/verifySignedDocument.js';
import type { JsonObject, JsonValue } from '../protocol/strictJson.js';
import type { Queryable } from '../store/pool.js';
import { readAllGroupAggregates } from '../store/sql/aggregates.js';
import { readEventAdmissions, type StoredEventAdmission } from '../store/sql/eventAdmissions.js';
import { readEventAuditRows } from '../store/sql/events.js';
import { VERIFY_PAGE_EVENTS } from './limits.js';

export interface HistoryReport {
  readonly groupId: string;
  readonly events: number;
  readonly problems: string[];
}

export interface HistoryVerifier {
  readonly registry: KeyRegistry;
  readonly schemas: SchemaRegistry;
  readonly authority: Principal;
  /** The kinds whose Events the Group may hold: the core ones unless profiles were registered. */
  readonly kinds: KindRegistry;
}

/**
 * The Admission Log over the stored records of one page of Events (`eventAdmissions.ts`): a
 * lookup answers with the record stored under the signing hash — every member as stored (its
 * kind is the Event log's), none taken from the Event it is then compared with — authenticated as
 * written by the Group Authority, the Event log's only writer. A member missing from the store is
 * missing from the record, which then fails its schema; a hash with no record is an authoritative
 * absence.
 */
function storedLog(records: ReadonlyMap<string, StoredEventAdmission>, authority: Principal): AdmissionLog {
  return {
    lookup: (_organizationId, signingHash) => {
      const row = records.get(signingHash);
      if (row === undefined) return Promise.resolve({ status: 'authoritative-absence' });
      const principal = (type: string | null, id: string | null) => (type === null || id === null ? {} : { type, id });
      const record = {
        protocolVersion: '0.1',
        admissionRecordId: row.admissionRecordId,
        ...(row.organizationId === null ? {} : { organizationId: row.organizationId }),
        documentKind: 'event',
        signingHash: row.signingHash,
        keyId: row.keyId,
        principal: principal(row.principalType, row.principalId),
        trustedAcceptedAt: row.trustedAcceptedAt,
        acceptedBy: principal(row.acceptedByType, row.acceptedById),
      };
      return Promise.resolve({ status: 'found', recordBytes: Buffer.from(JSON.stringify(record)), authenticatedService: authority });
    },
    appendOrReturnExisting: () => Promise.reject(new Error('historical replay never appends')),
  };
}

/**
 * The Messages of `all` whose IDs appear anywhere in `value` (an Event's payload): all that
 * folding that Event can read (a posted Message's amendment target, a redaction's target).
 */
function namedMessages(value: JsonValue, all: ReadonlyMap<string, MessageFacts>, into: Map<string, MessageFacts>): void {
  if (typeof value === 'string') {
    const facts = all.get(value);
    if (facts !== undefined) into.set(value, facts);
  } else if (Array.isArray(value)) {
    for (const item of value) namedMessages(item, all, into);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) namedMessages(item, all, into);
  }
}

/**
 * Folds one Event with the Group's Messages kept beside the state rather than in it. `evolve`
 * never mutates the state it is given, so it copies a map to change it: with every Message in
 * `state.messages`, each `message.posted` copied all the earlier ones and the fold grew with the
 * square of the history (20,000 Events took 385 s). As in the live Authority's partial view
 * (groupState.ts), the Event is folded with only the Messages it names, and what it added,
 * changed or dropped is carried back into `messages`: linear, and the same result.
 */
function foldEvent(kinds: KindRegistry, state: GroupState | null, event: RecordedEvent, messages: Map<string, MessageFacts>): GroupState {
  const view = new Map<string, MessageFacts>();
  namedMessages(event.payload, messages, view);
  const next = kinds.evolve(state === null ? null : { ...state, messages: view }, event);
  for (const id of view.keys()) if (!next.messages.has(id)) messages.delete(id);
  for (const [id, facts] of next.messages) messages.set(id, facts);
  return next;
}

export async function verifyGroupHistory(db: Queryable, groupId: string, verifier: HistoryVerifier): Promise<HistoryReport> {
  const problems: string[] = [];
  let state: GroupState | null = null;
  const messages = new Map<string, MessageFacts>();
  const kinds = verifier.kinds;
  let expected = 1;
  for (;;) {
    const rows = await readEventAuditRows(db, groupId, expected - 1, VERIFY_PAGE_EVENTS);
    if (rows.length === 0) break;
    const log = storedLog(await readEventAdmissions(db, rows.map((row) => row.signingHash)), verifier.authority);
    for (const row of rows) {
      const at = `sequence ${row.sequence}`;
      if (row.sequence !== expected) problems.push(`${at}: expected sequence ${expected}`);
      expected = row.sequence + 1;
      const result = verifySignedDocument('event', Buffer.from(row.document, 'utf8'), verifier.registry, verifier.schemas);
      if (!result.ok) {
        problems.push(`${at}: signature verification failed at ${result.failure.stage} (${result.failure.reason})`);
        continue;
      }
      const { verified } = result;
      const document = verified.document as JsonObject & { groupId?: string; sequence?: number; eventId: string };
      if (!samePrincipal(verified.principal, verifier.authority)) problems.push(`${at}: not accepted by the Group Authority`);
      if (document.groupId !== groupId || document.sequence !== row.sequence) problems.push(`${at}: Group or sequence differs from its row`);
      if (document.eventId !== row.eventId || verified.signingHash !== row.signingHash) problems.push(`${at}: stored identity differs`);
      const anchored = await replayHistorical(verified, log, verifier.schemas);
      if (!anchored.ok) problems.push(`${at}: admission ${anchored.reason}`);
      const recorded: RecordedEvent = {
        kind: String(document['kind']),
        payload: document['payload'] as JsonObject,
        actor: document['actor'] as Principal,
        occurredAt: String(document['occurredAt']),
        sequence: row.sequence,
        eventId: document.eventId,
      };
      state = foldEvent(kinds, state, recorded, messages);
    }
  }
  const events = expected - 1;
  const stored = new Map((await readAllGroupAggregates(db, groupId)).map((r) => [`${r.type} ${r.id}`, r]));
  const rebuilt = state === null ? [] : kinds.encodeState({ ...state, messages });
  for (const row of rebuilt) {
    const key = `${row.type} ${row.id}`;
    const other = stored.get(key);
    if (other === undefined) problems.push(`state: ${key} missing from the store`);
    else if (other.revision !== row.revision || canonicalize(other.document) !== canonicalize(row.document)) problems.push(`state: ${key} differs from the replay`);
    stored.delete(key);
  }
  for (const key of stored.keys()) problems.push(`state: ${key} stored but not produced by any Event`);
  return { groupId, events, problems };
}
