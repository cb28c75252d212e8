/**
 * Every bound the operation Panels apply, named once with its reason (as src/transport/limits.ts
 * does for the server). The schema-given ones repeat the payload schemas' bounds so the page
 * refuses a value before signing it, rather than after a round trip.
 */

/** Rebuild delay after an Event: one Command can emit several Events; a burst costs one view read. */
export const REFRESH_DELAY_MS = 250;

/**
 * How many of the latest Events the redaction chooser reads for Messages: one page of
 * `GET /v1/groups/{g}/events` (its documented maximum is 500), enough for the recent
 * conversation without reading a long history into the page; an older Message is redacted by ID.
 */
export const RECENT_EVENTS = 200;

/** Characters of a Message's text shown in the chooser: enough to recognise it on one line. */
export const EXCERPT_LENGTH = 160;

/** A budget dimension at or past this share of its limit shows as nearly spent, before exhaustion. */
export const WARN_SHARE = 0.8;

/** mission.assign_coordinator `leaseSeconds`: the schema's default and bounds (one year at most). */
export const LEASE_SECONDS = { default: 300, min: 1, max: 31_536_000 } as const;

/** The `reason` bound of the mission.cancel and message.redact payload schemas. */
export const REASON_MAX_LENGTH = 4000;
