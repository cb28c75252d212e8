/**
 * The limits of `missionweave disput`, each with its reason, in one place.
 */

/** `GET /v1/groups/{g}/events` serves at most 500 Events a page (docs/human-api.md). */
export const EVENTS_PAGE = 500;
/** One HTTPS request to the node: a local node answers in milliseconds; a stuck one must not hang an agent's turn. */
export const DISPUT_HTTP_TIMEOUT_MS = 30_000;
/** `status` shows this many of the last turns: enough to see the exchange, short enough to read. */
export const LAST_TURNS_SHOWN = 5;
