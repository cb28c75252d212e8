/**
 * Every limit of the command pipeline, in one place, with why it has its value (the binding's
 * own are in `transport/limits.ts`, the SDK's in `client/limits.ts`).
 */

import { MAX_LEDGER_ANCESTRY } from '../domain/workItem/budgetLimits.js';
import type { FreshnessWindow } from './settings.js';

/**
 * Five minutes back covers queued and retried Commands; thirty seconds ahead covers ordinary
 * clock skew between an Agent and the Group Authority.
 */
export const DEFAULT_FRESHNESS: FreshnessWindow = { maxAgeSeconds: 300, maxFutureSkewSeconds: 30 };

/**
 * Most Commands drained into one write transaction: it bounds how long a batch holds its
 * Groups' row locks and how much one failed transaction re-runs when it is split. Under full
 * load the queue lets batches grow toward it (BENCHMARKS.md).
 */
export const DEFAULT_MAX_BATCH = 256;
/**
 * Write transactions one node runs at once, each on its own connection: enough to overlap one
 * transaction's round trips with another's on disjoint Groups, and few enough to leave most of
 * `serve`'s 16 connections to replay and reads.
 */
export const DEFAULT_WRITER_CONCURRENCY = 4;
/**
 * Commands waiting before a second write transaction starts beside a running one: fewer wait
 * for it (a few ms) and join the next batch. Measured on the 2-core machine with
 * `npm run bench:batch-cost` (BENCHMARKS.md): four Commands to four Groups at once cost
 * ~1.4 ms of server CPU each as four transactions, about as much as one alone; sixteen in one
 * batch ~0.8 ms each. Sixteen is a batch whose fixed cost is already shared thinly.
 */
export const PARALLEL_BATCH_MIN = 16;
/** Re-runs after lost races are cheap but not free; past this many attempts a Command fails closed. */
export const MAX_COMMIT_ATTEMPTS = 8;

/** Enough Group states for every active Mission of a busy node; older entries are dropped first. */
export const GROUP_STATE_CACHE_CAPACITY = 10_000;
/**
 * How many of a Group's latest Events a state load scans to rebuild its §20 rate windows
 * (`groupStates.ts`): a one-minute window at the default Message limit holds 600 per Agent, so
 * 10,000 Events cover sixteen Agents posting at their limit at once, and a reload reads at most
 * this many index entries. A Group busier than that within one minute gets a window that counts
 * only the latest 10,000 Events, never more than were accepted.
 */
export const RATE_WINDOW_REBUILD_SCAN = 10_000;
/** Events read per page when a history is verified: large pages, bounded memory for any Group. */
export const VERIFY_PAGE_EVENTS = 2_000;

/** `error.schema.json` caps an error's message at 2,000 characters. */
export const MAX_ERROR_MESSAGE_CHARS = 2_000;
// The wake-up hint's size limit is PostgreSQL's, beside the channel: store/channels.ts MAX_HINT_BYTES.

// Each outsider's share of verification work, beside the gate that applies it: verificationLimits.ts.

/**
 * Groups one `GET /v1/me` lists (`humans/readerAccess.ts`): far more than a person follows at
 * once, few enough to answer in one small indexed read; beyond it the answer says `truncated`
 * (the oldest ended Memberships are left off).
 */
export const MAX_READER_GROUPS = 1_000;

/**
 * Ancestor Groups one read walks looking for a Mission the reader owns (`readerStanding.ts`, §14):
 * the budget ledger's bound (MAX_LEDGER_ANCESTRY), since a Group deeper than that can charge no
 * budget and so run no work; a walk of the directory of Groups, then one keyed read in the
 * Group's tree, run only for a human who holds no full Membership of the Group.
 */
export const MAX_OWNER_ANCESTRY = MAX_LEDGER_ANCESTRY;
