/**
 * What the Authority reactor runs (issue 11): each sweep finds, in the store, work the Group
 * Authority itself must do through the ordinary Command pipeline (an expired lease to close, a
 * child Mission's outcome to settle in its parent), and returns the Commands to issue. The reactor
 * signs them with the Authority's key and submits them like any other; a sweep's Commands must be
 * safe to issue on every node at once and twice over: a deterministic Action ID per fact, and a
 * decider that refuses what no longer applies.
 */

import { sha256ContentHash } from '../../protocol/contentHash.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import type { Pool } from '../../store/pool.js';

/** A Command the Group Authority will sign and submit as `services.authority`. */
export interface AuthorityCommandDraft {
  readonly kind: string;
  readonly groupId: string;
  /** Deterministic per fact (e.g. `urn:missionweave:lease-expiry:<leaseId>`), so that nodes agree. */
  readonly actionId: string;
  readonly payload: JsonObject;
  readonly workItemId?: string;
  readonly correlationId?: string;
}

export interface Sweep {
  readonly name: string;
  /**
   * The Organization Event kinds that, committed on this node, make this sweep due at once (a
   * Session opened: its Agent's older Execution Leases); the others wait for the timer's round.
   */
  readonly hintedBy?: readonly string[];
  /** At most `limit` Commands due at `nowMillis` (the Authority's clock). */
  find(pool: Pool, nowMillis: number, limit: number): Promise<readonly AuthorityCommandDraft[]>;
}

/**
 * The Action ID of one fact (`fact`: what the Authority does; `parts`: the identifiers that name
 * it): the same on every node, different for every fact. Hashing the parts keeps any
 * identifier's characters out of the URN.
 */
export function factActionId(fact: string, ...parts: readonly string[]): string {
  return `urn:missionweave:${fact}:${sha256ContentHash(JSON.stringify(parts)).slice('sha256:'.length)}`;
}
