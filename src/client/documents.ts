/**
 * The protocol documents the SDK hands to Agent code, typed as the v0.1 schemas define them
 * (event.schema.json, the SUBSCRIBE frame's attention filter), plus the one structural check
 * a received Event must pass before it is routed: without an Event ID, or for a Group Event a
 * Group ID and a positive safe-integer sequence, nothing can be deduplicated or ordered.
 */

import type { Principal } from '../protocol/principal.js';
import type { SignatureEnvelope } from '../protocol/signing/signDocument.js';
import type { JsonObject } from '../protocol/strictJson.js';

export type { Principal, SignatureEnvelope, JsonObject };

/** An Event as signed by the Group Authority (§15.2). */
export interface ProtocolEvent {
  readonly protocolVersion: '0.1';
  readonly eventId: string;
  readonly groupId?: string;
  readonly sequence?: number;
  readonly aggregateRevision?: number;
  readonly kind: string;
  readonly actor: Principal;
  /** For an Event caused by a Command: `{type: 'command', id: <the Command's Action ID>}`. */
  readonly cause: { readonly type: 'command' | 'event' | 'timer' | 'policy'; readonly id: string };
  readonly correlationId: string;
  readonly conversationId?: string;
  readonly workItemId?: string;
  readonly occurredAt: string;
  readonly payload: JsonObject;
  readonly acceptedBy: Principal;
  /** `sha256:<hex>` of the signing bytes of the Command that caused the Event. */
  readonly commandHash?: string;
  readonly extensions?: JsonObject;
  readonly signature: SignatureEnvelope;
}

/** A Group Event: one with its Group and its place in the Group's order. */
export type GroupEvent = ProtocolEvent & { readonly groupId: string; readonly sequence: number };

/** A SUBSCRIBE attention filter (§8): it narrows live delivery only, never replay. */
export interface Attention {
  readonly eventKinds?: readonly string[];
  readonly conversationIds?: readonly string[];
  readonly workItemIds?: readonly string[];
  readonly mentionsOnly?: boolean;
  readonly announcements?: boolean;
}

/** Why a received `event` member cannot be used, or `null` when it can. */
export function eventProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the event is not an object';
  const event = value as Record<string, unknown>;
  if (typeof event['eventId'] !== 'string') return 'the event has no eventId';
  if (typeof event['kind'] !== 'string') return 'the event has no kind';
  const cause = event['cause'] as Record<string, unknown> | undefined;
  if (typeof cause !== 'object' || cause === null || typeof cause['id'] !== 'string') return 'the event has no cause';
  if (event['groupId'] === undefined && event['sequence'] === undefined) return null;
  if (typeof event['groupId'] !== 'string') return 'the event has a sequence but no groupId';
  const sequence = event['sequence'];
  if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 1) return 'the event has no positive integer sequence';
  return null;
}

export function isGroupEvent(event: ProtocolEvent): event is GroupEvent {
  return typeof event.groupId === 'string' && typeof event.sequence === 'number';
}
