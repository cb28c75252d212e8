/**
 * The protocol documents the SDK hands to Agent code, typed as the v0.1 schemas define them
 * (event.schema.json, the SUBSCRIBE frame's attention filter; generated into
 * protocol/schemas/wireTypes.ts, shared with the server), plus the one structural check
 * a received Event must pass before it is routed: without an Event ID, or for a Group Event a
 * Group ID and a positive safe-integer sequence, nothing can be deduplicated or ordered.
 */

import type { Principal } from '../protocol/principal.js';
import type { MissionWeaveEvent, SubscribeFrame } from '../protocol/schemas/wireTypes.js';
import type { SignatureEnvelope } from '../protocol/signing/signDocument.js';
import type { JsonObject } from '../protocol/strictJson.js';

export type { Principal, SignatureEnvelope, JsonObject };

/** An Event as signed by the Group Authority (§15.2): event.schema.json's generated type. */
export type ProtocolEvent = Readonly<MissionWeaveEvent>;

/** A Group Event: one with its Group and its place in the Group's order. */
export type GroupEvent = ProtocolEvent & { readonly groupId: string; readonly sequence: number };

/** Members and their lists read-only: what the SDK takes from Agent code, it does not change. */
type ReadonlyMembers<T> = { readonly [K in keyof T]: ReadonlyList<T[K]> };
type ReadonlyList<V> = V extends readonly (infer E)[] ? readonly E[] : V;

/** A SUBSCRIBE attention filter (§8): it narrows live delivery only, never replay. */
export type Attention = ReadonlyMembers<NonNullable<SubscribeFrame['groups'][number]['attention']>>;

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
