/**
 * An Event as delivery handles it: routing facts read once from its signed text (who it is
 * addressed to, whom it mentions and whether it is an announcement, as its Event type declares
 * them: `DeliveryFacts`; nothing is guessed from the payload's shape), and the EVENT
 * frame built and encoded once for all subscribers (each socket sends the same bytes). Replay
 * frames stored Events from their bytes instead (`replayPage.ts`).
 */

import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import { eventFrame } from '../protocol/frames.js';
import { payloadOf, wireFrameOf } from './wireFrame.js';

export interface DeliveryEvent {
  readonly groupId: string;
  readonly sequence: number;
  readonly eventId: string;
  readonly kind: string;
  readonly conversationId: string | undefined;
  readonly workItemId: string | undefined;
  /** IDs of the Principals the Event's Message mentions. */
  readonly mentions: readonly string[];
  /** Agents whose own work the Event is about (its Event type's `addressees`): it reaches them through any filter. */
  readonly addressees: readonly string[];
  /** Whether the Event is an announcement for attention filters, as its Event type declares (`announces`). */
  readonly announcement: boolean;
  /** The Event may have changed someone's Membership: subscribers re-check theirs. */
  readonly changesMembership: boolean;
  /** The UTF-8 bytes of the EVENT frame, sent as a text frame (a view of `wire`). */
  readonly frame: Buffer;
  /** The text frame on the wire, WebSocket header included (`wireFrame.ts`). */
  readonly wire: Buffer;
}

/**
 * Whether an Event kind may change a Membership, as its Event type declares. Only core kinds do:
 * an Extension Profile's Events fold into its own slice and never touch Memberships (§18).
 */
export function changesMembership(kinds: KindRegistry, kind: string): boolean {
  return kinds.event(kind)?.changesMembership === true;
}

interface EventShape {
  eventId: string;
  groupId: string;
  sequence: number;
  kind: string;
  conversationId?: string;
  workItemId?: string;
  payload?: unknown;
}

/** Reads the routing facts of a stored, trusted Event text. */
export function deliveryEventOf(kinds: KindRegistry, text: string): DeliveryEvent {
  const event = JSON.parse(text) as EventShape;
  const wire = wireFrameOf(eventFrame(event.eventId, text));
  const type = kinds.event(event.kind);
  const payload = event.payload ?? {};
  return {
    groupId: event.groupId,
    sequence: event.sequence,
    eventId: event.eventId,
    kind: event.kind,
    conversationId: event.conversationId,
    workItemId: event.workItemId,
    mentions: type?.mentions?.(payload) ?? [],
    addressees: type?.addressees?.(payload) ?? [],
    announcement: type?.announces?.(payload) === true,
    changesMembership: changesMembership(kinds, event.kind),
    frame: payloadOf(wire),
    wire,
  };
}

/** A subscription's attention filter (§8): it narrows live delivery, never replay. */
export interface Attention {
  readonly eventKinds?: readonly string[];
  readonly conversationIds?: readonly string[];
  readonly workItemIds?: readonly string[];
  readonly mentionsOnly?: boolean;
  readonly announcements?: boolean;
}

/**
 * Whether a live Event passes `attention` for the subscribing Agent. An Event about the Agent's
 * own work (an offer naming it, its WorkItem, a lease of its that closed) passes every filter: a
 * Worker cannot name in advance the WorkItem it will be offered (§8 steps 2–3), and one that
 * never hears its lease was closed keeps working for nothing (§11.3).
 */
export function attends(attention: Attention | undefined, event: DeliveryEvent, agentId: string): boolean {
  if (attention === undefined) return true;
  if (event.addressees.includes(agentId)) return true;
  if (attention.announcements === true && event.announcement) return true;
  if (attention.eventKinds !== undefined && !attention.eventKinds.includes(event.kind)) return false;
  if (attention.conversationIds !== undefined && (event.conversationId === undefined || !attention.conversationIds.includes(event.conversationId))) return false;
  if (attention.workItemIds !== undefined && (event.workItemId === undefined || !attention.workItemIds.includes(event.workItemId))) return false;
  if (attention.mentionsOnly === true && !event.mentions.includes(agentId)) return false;
  return true;
}
