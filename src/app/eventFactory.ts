/**
 * Turning a decider's Event drafts into signed Events (§15.2): identity, Group order, cause,
 * correlation, accepting authority and the Group Authority's signature. Each Event is
 * serialized once, as JCS text, and those exact bytes are stored and delivered.
 */

import { TRACE_CONTEXT_EXTENSION, traceExtension } from './tracing/tracing.js';
import { randomUUID } from 'node:crypto';
import type { EventDraft, RecordedEvent } from '../domain/model.js';
import { sha256ContentHash } from '../protocol/contentHash.js';
import type { Principal } from '../protocol/principal.js';
import { signDocumentWithBytes, type SigningKey } from '../protocol/signing/signDocument.js';
import type { JsonObject } from '../protocol/strictJson.js';
import type { VerifiedCommand } from './verifyCommand.js';

export interface SignedEvent {
  readonly eventId: string;
  readonly kind: string;
  readonly groupId: string | undefined;
  readonly sequence: number | undefined;
  readonly draft: EventDraft;
  /** The signed Event's JCS text. */
  readonly text: string;
  readonly signingHash: string;
  readonly admissionRecordId: string;
  readonly trustedAcceptedAt: string;
  readonly recorded: RecordedEvent;
}

export interface EventOrigin {
  readonly command: VerifiedCommand;
  readonly now: string;
  readonly authority: Principal;
  readonly key: SigningKey;
  /** Noncritical Command extensions are relayed unchanged on the primary Event (§17.4). */
  readonly primary: boolean;
}

export function newUrn(): string {
  return `urn:uuid:${randomUUID()}`;
}

/** An Event document complete but for its signature, with what evolve needs of it. */
export interface UnsignedEvent {
  readonly eventId: string;
  readonly document: Record<string, unknown>;
  readonly recorded: RecordedEvent;
}

export function eventDocument(draft: EventDraft, origin: EventOrigin, order?: { groupId: string; sequence: number }): UnsignedEvent {
  const { envelope } = origin.command;
  const eventId = draft.eventId ?? newUrn();
  const document: Record<string, unknown> = {
    protocolVersion: '0.1',
    eventId,
    ...(order === undefined ? {} : { groupId: order.groupId, sequence: order.sequence, aggregateRevision: draft.aggregate.revision }),
    kind: draft.kind,
    actor: envelope.actor,
    cause: { type: 'command', id: envelope.actionId },
    correlationId: envelope.correlationId,
    ...(draft.conversationId === undefined ? {} : { conversationId: draft.conversationId }),
    ...(draft.workItemId === undefined ? {} : { workItemId: draft.workItemId }),
    occurredAt: origin.now,
    payload: draft.payload,
    acceptedBy: origin.authority,
    commandHash: origin.command.verified.signingHash,
  };
  const extensions = origin.command.document['extensions'] as Record<string, unknown> | undefined;
  const trace = origin.command.traceContext;
  // The Command's own trace-context extension, if it brought one, is relayed as it came.
  if (origin.primary && trace !== undefined && extensions?.[TRACE_CONTEXT_EXTENSION] === undefined) {
    document['extensions'] = { ...extensions, ...traceExtension(trace.traceparent, trace.tracestate) };
  } else if (origin.primary && extensions !== undefined) document['extensions'] = extensions;
  return {
    eventId,
    document,
    recorded: {
      kind: draft.kind,
      payload: draft.payload as JsonObject,
      actor: envelope.actor,
      occurredAt: origin.now,
      eventId,
      ...(order === undefined ? {} : { sequence: order.sequence }),
    },
  };
}

/** Signs Event documents in this thread: their JCS texts and signing hashes, in order. */
export function signEventDocuments(documents: readonly Record<string, unknown>[], key: SigningKey): { texts: string[]; hashes: string[] } {
  const texts: string[] = [];
  const hashes: string[] = [];
  for (const document of documents) {
    const { text, signingBytes } = signDocumentWithBytes('event', document, key);
    texts.push(text);
    hashes.push(sha256ContentHash(signingBytes));
  }
  return { texts, hashes };
}

export function signEvent(draft: EventDraft, origin: EventOrigin, order?: { groupId: string; sequence: number }): SignedEvent {
  const unsigned = eventDocument(draft, origin, order);
  const { texts, hashes } = signEventDocuments([unsigned.document], origin.key);
  return {
    eventId: unsigned.eventId,
    kind: draft.kind,
    groupId: order?.groupId,
    sequence: order?.sequence,
    draft,
    text: texts[0] as string,
    signingHash: hashes[0] as string,
    admissionRecordId: newUrn(),
    trustedAcceptedAt: origin.now,
    recorded: unsigned.recorded,
  };
}
