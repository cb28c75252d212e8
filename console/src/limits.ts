/** The console's limits and timings, each with its reason (the server's are in src/transport/limits.ts). */

/** Renew a human session this long before it expires, so that a read never meets an expired token. */
export const SESSION_RENEW_BEFORE_MS = 60_000;

/** Waits between stream reconnections: short first, capped so a restarted node is found quickly. */
export const RECONNECT_DELAYS_MS: readonly number[] = [500, 1000, 2000, 5000];

/** Events per history read: the human API's own maximum (docs/human-api.md). */
export const EVENTS_PAGE = 500;

/** Events kept on the timeline; older ones stay a reload away. Bounds the DOM of a long Mission. */
export const MAX_TIMELINE_EVENTS = 2_000;

/**
 * Artifacts up to this size are downloaded and hashed as soon as the Approval Panel opens; a
 * larger one waits for the human's click, since the page holds a content whole in memory to hash it.
 */
export const AUTO_CHECK_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The Agent directory (`GET /v1/agents`) is read again after this long: names change rarely, and
 * an Agent the operator just added shows in a picker within seconds (a Panel re-read always asks).
 */
export const DIRECTORY_FRESH_MS = 10_000;

/**
 * Characters of a text, Markdown or JSON Artifact the Approval Panel previews: a long report's
 * worth (some 60 pages). The DOM of a bigger one would slow the page; the download has it all.
 */
export const PREVIEW_MAX_CHARS = 200_000;
