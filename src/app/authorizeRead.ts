/**
 * The read rule (`decideRead`, §8, §16) applied to the standing of a reader — an Agent or a
 * human, the same rule for both, over its stored Membership (or, for a human, its ownership of an
 * ancestor Mission: `readerStanding.ts`, §14): the one check behind SUBSCRIBE, the Membership
 * re-check of live subscriptions, snapshot reads, and the human read API (`humans/readerAccess.ts`).
 */

import { decideRead, type ReadRequest } from '../domain/readAccess.js';
import type { Principal } from '../protocol/principal.js';
import type { Queryable } from '../store/pool.js';
import { readReaderStanding } from './readerStanding.js';
import { wireError, type WireError } from './wireError.js';

export type ReadAccess =
  /** Events after `afterSequence` may be read. */
  | { readonly ok: true; readonly afterSequence: number }
  /** The §19 refusal, naming the Group the caller asked about. */
  | { readonly ok: false; readonly error: WireError };

export async function authorizeRead(db: Queryable, groupId: string, reader: Principal, request: ReadRequest): Promise<ReadAccess> {
  const decision = decideRead(await readReaderStanding(db, groupId, reader), request);
  if (decision.allowed) return { ok: true, afterSequence: decision.afterSequence };
  return { ok: false, error: wireError(decision.code, decision.message, { groupId }) };
}
