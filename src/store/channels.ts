/**
 * The PostgreSQL NOTIFY channels nodes wake each other with. Writers (app) notify and every
 * node's listener (delivery) listens, so the names live here, below both. A notification is a
 * hint only: the tables stay the truth.
 */

/** Groups that advanced; the payload maps each Group ID to its new last sequence. */
export const EVENTS_CHANNEL = 'mw_events';

/** Session Epochs issued (`{agentId, sessionEpoch}`) and Registry changes (`{registryRevision}`). */
export const SESSIONS_CHANNEL = 'mw_sessions';

/**
 * PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more. A batch that advances Groups with
 * long IDs (up to 512 characters each) could name more than fit, so the hint names Groups only
 * while it stays under this size.
 */
export const MAX_HINT_BYTES = 7_900;

/** The hint that names no Group: each listener re-reads the counters of every Group it watches. */
export const WAKE_ALL = '*';

/** The `mw_events` payload for Groups that advanced: their new last sequences, or `WAKE_ALL`. */
export function eventsHint(advanced: ReadonlyMap<string, number>): string {
  const named = JSON.stringify(Object.fromEntries(advanced));
  return Buffer.byteLength(named, 'utf8') <= MAX_HINT_BYTES ? named : JSON.stringify(WAKE_ALL);
}
