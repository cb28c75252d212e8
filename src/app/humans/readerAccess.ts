/**
 * What a reader — a human with a session, or an Agent with its HELLO session — may read over
 * HTTPS (docs/human-api.md), all through the one read rule (`authorizeRead`, §8, §16): the
 * Groups it holds Memberships in, a Group's Events, its current state, its Mission tree. A
 * Group the reader has no Membership in answers exactly as a missing one (GROUP_NOT_FOUND), so
 * no human sees more than an Agent with the same Membership would — except below a Mission the
 * human owns, which it reads as a member with complete visibility (`readerStanding.ts`, §14).
 */

import type { KindRegistry } from '../../domain/kinds/kindRegistry.js';
import { rowsVisibleTo } from '../../domain/group/snapshotView.js';
import { membershipOf } from '../../domain/stateQueries.js';
import { decideRead, type ReadRequest } from '../../domain/readAccess.js';
import type { Principal } from '../../protocol/principal.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { inTransaction, type Pool } from '../../store/pool.js';
import { readGroupAggregates } from '../../store/sql/aggregates.js';
import { readServedEventsAfter } from '../../store/sql/eventRedactions.js';
import type { StoredEventText } from '../../store/sql/events.js';
import { readLastSequence } from '../../store/sql/groups.js';
import { readReaderGroups, type ReaderGroupRow } from '../../store/sql/readerGroups.js';
import { authorizeRead, type ReadAccess } from '../authorizeRead.js';
import { readReaderStanding } from '../readerStanding.js';
import { readMissionTree, type TreeRead } from '../policy/readMissionTree.js';
import { MAX_READER_GROUPS } from '../limits.js';
import { wireError, type WireError } from '../wireError.js';
import { ANCESTOR_OWNER_ROLE, groupViewOf, type PresenceOf } from './groupView.js';

export type Refused = { readonly ok: false; readonly error: WireError };
export type EventsRead = { readonly ok: true; readonly events: readonly StoredEventText[]; readonly lastSequence: number } | Refused;
export type ViewRead = { readonly ok: true; readonly view: JsonObject } | Refused;

export interface ReaderGroups {
  readonly groups: readonly ReaderGroupRow[];
  readonly truncated: boolean;
}

export class ReaderAccess {
  constructor(
    private readonly pool: Pool,
    private readonly kinds: KindRegistry,
  ) {}

  /** Whether `reader` may read the Group for `request`, and from which sequence. */
  authorize(groupId: string, reader: Principal, request: ReadRequest): Promise<ReadAccess> {
    return authorizeRead(this.pool, groupId, reader, request);
  }

  /** Every Group `reader` holds a Membership in, active first. */
  async groups(reader: Principal): Promise<ReaderGroups> {
    const rows = await readReaderGroups(this.pool, reader.type, reader.id, MAX_READER_GROUPS + 1);
    return { groups: rows.slice(0, MAX_READER_GROUPS), truncated: rows.length > MAX_READER_GROUPS };
  }

  /** Up to `limit` Events after `max(after, hidden)`, redacted Messages as their rendering (§7.4). */
  async events(groupId: string, reader: Principal, after: number, limit: number): Promise<EventsRead> {
    const access = await this.authorize(groupId, reader, { purpose: 'subscribe', afterSequence: after });
    if (!access.ok) return access;
    const events = await readServedEventsAfter(this.pool, groupId, access.afterSequence, limit);
    const lastSequence = (await readLastSequence(this.pool, groupId)) ?? 0;
    return { ok: true, events, lastSequence: Math.max(lastSequence, events.at(-1)?.sequence ?? 0) };
  }

  /**
   * The Group's current state (docs/human-api.md "View shape"), read in one snapshot of the
   * database; a Membership with limited visibility gets the late joiner's view (§8).
   */
  view(groupId: string, reader: Principal, presenceOf: PresenceOf): Promise<ViewRead> {
    return inTransaction(this.pool, async (client): Promise<ViewRead> => {
      await client.query('set transaction isolation level repeatable read, read only');
      const membership = await readReaderStanding(client, groupId, reader);
      const decision = decideRead(membership, { purpose: 'recheck' });
      if (!decision.allowed) return { ok: false, error: wireError(decision.code, decision.message, { groupId }) };
      // The read rule allows no one without a standing.
      if (membership === undefined) throw new Error(`the read rule let a reader without a Membership read ${groupId}`);
      const lastSequence = (await readLastSequence(client, groupId)) ?? 0;
      const rows = await readGroupAggregates(client, groupId);
      const full = this.kinds.decodeState(groupId, lastSequence, rows);
      const limited = membership.visibilityStartSequence > 1;
      const viewer = { principal: reader, membershipId: membership.membershipId, visibilityStartSequence: membership.visibilityStartSequence };
      // Message rows are not read here, so the sequence that last wrote a row is never consulted.
      const visible = limited ? this.kinds.decodeState(groupId, lastSequence, rowsVisibleTo(rows.map((row) => ({ ...row, updatedSequence: 0 })), viewer)) : full;
      const { via } = membership;
      // A reader through an ancestor it owns holds no role here (§14); it is told which Membership it reads with.
      const role = via === undefined ? (membershipOf(full, reader)?.role ?? '') : ANCESTOR_OWNER_ROLE;
      const through = via === undefined ? null : { groupId: via.groupId, missionId: via.missionId, membershipEpoch: via.membershipEpoch };
      return { ok: true, view: groupViewOf(full, visible, { ...viewer, role, limited, via: through }, presenceOf) };
    });
  }

  /** The Mission tree below the Group's Mission, by the rule Agents read it by (§14). */
  missionTree(groupId: string, reader: Principal): Promise<TreeRead> {
    return readMissionTree(this.pool, this.kinds, groupId, { kind: 'principal', principal: reader });
  }
}
