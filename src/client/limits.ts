/**
 * Every limit and default timing of the agent SDK, in one place, with why it has its value.
 * Those an Agent may set (`MissionWeaveAgentOptions`) say so; the rest bound what a server,
 * or a peer posting through it, could otherwise make this process hold.
 */

/** First reconnect delay: long enough not to hammer a restarting node, short enough to feel live. */
export const RECONNECT_INITIAL_DELAY_MS = 250;
/** Reconnect delays double up to this (plus jitter), so a long outage costs one try a half-minute. */
export const RECONNECT_MAX_DELAY_MS = 30_000;

/** A HELLO that has not finished by then will not: give up and reconnect. Option `handshakeTimeoutMs`. */
export const HANDSHAKE_TIMEOUT_MS = 10_000;
/** The server closes a connection silent for two minutes; PINGing every 25 s stays far inside. Option `pingIntervalMs`. */
export const PING_INTERVAL_MS = 25_000;
/**
 * Largest frame accepted from the server: its own limit is 256 KiB per frame, and an Event can
 * only be smaller than the frame that carried it; room to spare for a deployment that raises it.
 */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Deepest JSON nesting parsed, as the server enforces: no protocol object comes close. */
export const MAX_JSON_DEPTH = 64;

/** Unchanged resends of a Command refused with a `retryable` code. Option `commandRetries`. */
export const COMMAND_RETRIES = 3;
/** Re-signings of a Command refused for a Session Epoch that a reconnect has since replaced. */
export const COMMAND_RESIGNS = 3;
/** A pre-signed Command's text: the Group Authority's default frame limit, which refuses more anyway. */
export const MAX_COMMAND_TEXT_BYTES = 256 * 1024;

/** Action IDs of this runtime remembered to recognise their Events (older ones are dropped first). */
export const RECENT_ACTION_IDS = 4_096;

/** How long Cursors gather before one ACK frame carries them. Option `ackDelayMs`. */
export const ACK_DELAY_MS = 100;
/** How long a gap may stay open before the Group is subscribed again. Option `gapGraceMs`. */
export const GAP_GRACE_MS = 250;
/** The gap grace doubles while a gap persists, up to this, so a broken Group is not re-asked in a loop. */
export const MAX_GAP_DELAY_MS = 10_000;
/** Events held past a gap per Group; beyond it they are dropped and come again on the resubscribe. */
export const AHEAD_LIMIT = 10_000;
/** Event IDs per Group remembered to drop a duplicate delivery (a replay racing the live stream). */
export const SEEN_EVENT_IDS = 4_096;
/** An Event handler or Cursor store that throws is retried after this, doubling each time… */
export const HANDLER_RETRY_INITIAL_DELAY_MS = 500;
/** …up to this: a handler broken for long is not retried in a tight loop. */
export const HANDLER_RETRY_MAX_DELAY_MS = 30_000;
/** Groups per SUBSCRIBE frame, well inside the server's frame size limit. */
export const GROUPS_PER_SUBSCRIBE = 100;

/** Snapshots are bigger than frames: the whole projection of a Group. */
export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;
/** A snapshot download that stalls this long is abandoned and retried. */
export const SNAPSHOT_TIMEOUT_MS = 30_000;

/**
 * Commands one `OfflineBuffer` holds while the Group service is unreachable (§11.5): the grace
 * period bounds them in time, this in memory; a Worker that reaches it reports its progress
 * again, under a current lease, after it reconnects.
 */
export const MAX_OFFLINE_COMMANDS = 1_000;
