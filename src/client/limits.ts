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
/** The published Registry snapshot is a JSON document of Organization size; far below this. */
export const MAX_REGISTRY_BYTES = 16 * 1024 * 1024;
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

/** Groups whose epochs the work helpers remember (oldest forgotten first): more than one Agent joins. */
export const MAX_TRACKED_GROUPS = 10_000;
/**
 * An Execution Lease is renewed once this fraction of it has run (§11.3): at a third, two more
 * renewals fit before expiry, so one lost to a reconnect or a slow answer still leaves time for
 * another. Option `renewAtFraction`.
 */
export const LEASE_RENEW_FRACTION = 1 / 3;
/** A renewal that failed for a reason other than the lease (a dropped connection) is tried again after this, or sooner near expiry. */
export const LEASE_RENEW_RETRY_MS = 1_000;
/** Offers a Worker holds, awaiting its decision, before the oldest is forgotten: each is one Event of a Group it belongs to. */
export const MAX_OPEN_OFFERS = 1_000;

/**
 * One Artifact a model gives inline as text to `missionweave mcp`'s `work_submit`, in UTF-8
 * bytes: 512 KiB is some 128k tokens, more than a model writes in one tool call. A larger
 * result is produced by a program, not typed, and belongs in a file the Worker publishes with
 * `WorkExecution.publishArtifact`. Checked before anything is uploaded, so an oversized call
 * costs nothing on the wire.
 */
export const MAX_INLINE_ARTIFACT_BYTES = 512 * 1024;
/** Inline Artifacts in one `work_submit`: a Work Contract names a handful of deliverables, rarely more. */
export const MAX_INLINE_ARTIFACTS = 16;
/** All inline Artifacts of one `work_submit` together: one call's uploads stay bounded even at the count limit. */
export const MAX_INLINE_ARTIFACTS_TOTAL_BYTES = 2 * 1024 * 1024;
/** Evidence drafts one `work_submit` signs: one or two per acceptance criterion of a contract a model can read. */
export const MAX_INLINE_EVIDENCE = 32;
/**
 * WorkItems the MCP work tools hold for this Agent — accepted, running or lately ended — before
 * the oldest ended one is forgotten (then the oldest at all: its renewal stops and the Authority's
 * clock ends its lease). One model works a few at a time; 64 is room for a queue of them.
 */
export const MAX_HELD_WORK = 64;

/**
 * Commands one `OfflineBuffer` holds while the Group service is unreachable (§11.5): the grace
 * period bounds them in time, this in memory; a Worker that reaches it reports its progress
 * again, under a current lease, after it reconnects.
 */
export const MAX_OFFLINE_COMMANDS = 1_000;

/**
 * The lease-grace period (§11.5) of a `work.checkpoint` the runtime keeps while the Authority
 * cannot be reached (runtime/outboxOffline.ts): buffered no later than this after the
 * disconnection, and never after the historical lease's expiry; past it nothing is kept.
 */
export const OUTBOX_OFFLINE_GRACE_SECONDS = 300;

/** Execution Leases the outbox remembers from Events, to bind an offline checkpoint to its historical lease. */
export const MAX_OUTBOX_KNOWN_LEASES = 256;

/**
 * The runtime's local projection (runtime/projection.ts): one SQLite file per Agent home. Each
 * bound refuses with a ProjectionError naming it, so a runaway Group or handler cannot fill the
 * disk of the Agent's host; an Agent may lower or raise them (`ProjectionOptions.limits`).
 *
 * Signed Commands waiting to be sent or answered: ten times an OfflineBuffer, since the outbox
 * also holds what waits on a reconnect while several Missions' work goes on.
 */
export const MAX_OUTBOX_COMMANDS = 10_000;
/**
 * Events kept per Group in the inbox. Applied ones beyond it are pruned oldest first (the Cursor
 * still recognises their duplicates); unapplied ones beyond it are refused, and the Authority
 * delivers them again from the Cursor.
 */
export const MAX_INBOX_EVENTS_PER_GROUP = 10_000;
/** One WorkItem's checkpoint data: a safe resumption point, not the work's output (that is an Artifact). */
export const MAX_CHECKPOINT_BYTES = 1024 * 1024;
/** One Group's context as the runtime keeps it for its jobs, and the scheduler's snapshot: documents, not payloads. */
export const MAX_CONTEXT_BYTES = 4 * 1024 * 1024;
/** WorkItems the projection tracks (owned, running, paused or blocked): far more than any slot count queues. */
export const MAX_PROJECTED_WORK = 10_000;
/**
 * Artifact content the projection keeps, all WorkItems together, for `work_submit`s signed while
 * the Authority could not be reached (uploaded and published on reconnect): four calls at
 * MAX_INLINE_ARTIFACTS_TOTAL_BYTES. Past it such a submission is refused, not kept.
 */
export const MAX_KEPT_ARTIFACT_BYTES = 4 * MAX_INLINE_ARTIFACTS_TOTAL_BYTES;
/** The projection file itself (SQLite's max_page_count): beyond it every write refuses as a full disk would. */
export const MAX_PROJECTION_BYTES = 1024 * 1024 * 1024;
