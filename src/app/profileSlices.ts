/**
 * A profile's slice of a Group's state as one reader may read it: the generic half of every
 * Extension Profile's reads (§18). The reader passes the one read rule first (`decideRead`, §8),
 * as every Group read does — a reader without a Membership gets GROUP_NOT_FOUND exactly as for a
 * missing Group — then the stored Group state is read in one snapshot of the database and the
 * profile's slice handed over with the reader's Membership, so the profile's own reads (an
 * `app/<profile>/` module) decide what that Membership may see of it. Reads never change state.
 */

import type { GroupState } from '../domain/kinds/groupState.js';
import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import { membershipOf } from '../domain/stateQueries.js';
import type { Membership } from '../domain/documents.js';
import { decideRead } from '../domain/readAccess.js';
import type { Principal } from '../protocol/principal.js';
import { inTransaction, type Pool } from '../store/pool.js';
import { readGroupAggregates } from '../store/sql/aggregates.js';
import { readLastSequence } from '../store/sql/groups.js';
import { readMembership } from '../store/sql/memberships.js';
import { wireError, type WireError } from './wireError.js';

export interface ProfileSlice {
  readonly group: GroupState;
  /** The reader's Membership in the Group. */
  readonly membership: Membership;
  /** The profile's stored slice, undefined while the Group has none (the profile's initial state applies). */
  readonly state: unknown;
}

export type ProfileSliceRead = { readonly ok: true; readonly value: ProfileSlice } | { readonly ok: false; readonly error: WireError };

/** What a profile's reads need of the node: its slice of a Group, by the read rule. */
export interface ProfileSlices {
  profileSlice(groupId: string, reader: Principal, profileUri: string): Promise<ProfileSliceRead>;
}

export function readProfileSlice(pool: Pool, kinds: KindRegistry, groupId: string, reader: Principal, profileUri: string): Promise<ProfileSliceRead> {
  return inTransaction(pool, async (client) => {
    await client.query('set transaction isolation level repeatable read, read only');
    const decision = decideRead(await readMembership(client, groupId, reader.type, reader.id), { purpose: 'recheck' });
    if (!decision.allowed) return { ok: false as const, error: wireError(decision.code, decision.message, { groupId }) };
    const group = kinds.decodeState(groupId, (await readLastSequence(client, groupId)) ?? 0, await readGroupAggregates(client, groupId));
    const membership = membershipOf(group, reader);
    if (membership === undefined) throw new Error(`the read rule let a reader without a Membership read ${groupId}`);
    return { ok: true as const, value: { group, membership, state: group.extensions.get(profileUri)?.state } };
  });
}
