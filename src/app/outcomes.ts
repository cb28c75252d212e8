/**
 * What submitting a Command yields: the Events it appended (or, for an idempotent retry, the
 * original ones), or the error that rejected it; and the signal that a batch must be re-run.
 */

import type { WireError } from './wireError.js';

/** An Event as delivered: its exact signed text plus the routing facts subscribers need. */
export interface DeliveredEvent {
  readonly eventId: string;
  readonly groupId: string | undefined;
  readonly sequence: number | undefined;
  readonly text: string;
}

export type CommandOutcome =
  | { readonly ok: true; readonly events: readonly DeliveredEvent[]; readonly duplicate: boolean }
  | { readonly ok: false; readonly error: WireError };

/**
 * A concurrent transaction claimed a receipt or Group ID this batch relied on being free.
 * Nothing was written; re-running the batch sees the winner and answers accordingly.
 */
export class BatchConflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BatchConflict';
  }
}

/** Rebuilds delivery facts from stored Event text (for idempotent retries). */
export function deliveredFromText(text: string): DeliveredEvent {
  const document = JSON.parse(text) as { eventId: string; groupId?: string; sequence?: number };
  return { eventId: document.eventId, groupId: document.groupId, sequence: document.sequence, text };
}
