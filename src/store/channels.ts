/**
 * The PostgreSQL NOTIFY channels nodes wake each other with. Writers (app) notify and every
 * node's listener (delivery) listens, so the names live here, below both. A notification is a
 * hint only: the tables stay the truth.
 */

/** Groups that advanced; the payload maps each Group ID to its new last sequence. */
export const EVENTS_CHANNEL = 'mw_events';

/** Session Epochs issued (`{agentId, sessionEpoch}`) and Registry changes (`{registryRevision}`). */
export const SESSIONS_CHANNEL = 'mw_sessions';
