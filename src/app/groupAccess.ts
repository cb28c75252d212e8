/**
 * What Sessions and delivery reach of the database, as one service the composition root builds
 * around the Pool: the read rule (`authorizeRead`), the Group reads that serve an authorized
 * Session, Agent Cursors, and the Group Snapshots CURSOR_TOO_OLD names. Transport calls this and
 * never names the store.
 */

import { UNDISCLOSED, type ReadRequest } from '../domain/readAccess.js';
import type { Pool } from '../store/pool.js';
import { advanceCursors } from '../store/sql/cursors.js';
import { readEventsAfter, type StoredEventText } from '../store/sql/events.js';
import { readLastSequence, readLastSequences } from '../store/sql/groups.js';
import { readSnapshot } from '../store/sql/snapshots.js';
import { authorizeRead, type ReadAccess } from './authorizeRead.js';
import { readMissionTree, type TreeRead } from './policy/readMissionTree.js';
import { snapshotReference, type SnapshotReference } from './groupSnapshots.js';
import type { AuthoritySettings } from './settings.js';
import { wireError, type WireError } from './wireError.js';

export type SnapshotRead = { readonly ok: true; readonly body: string } | { readonly ok: false; readonly error: WireError };

export class GroupAccess {
  constructor(
    private readonly pool: Pool,
    private readonly settings: AuthoritySettings,
  ) {}

  /** Whether the Agent may read the Group for `request`, and from which sequence. */
  authorizeRead(groupId: string, agentId: string, request: ReadRequest): Promise<ReadAccess> {
    return authorizeRead(this.pool, groupId, agentId, request);
  }

  /** A Group's last sequence, or undefined when it does not exist. */
  lastSequence(groupId: string): Promise<number | undefined> {
    return readLastSequence(this.pool, groupId);
  }

  /** The last sequences of these Groups, for the poll behind cross-node wake-ups. */
  lastSequences(groupIds: readonly string[]): Promise<Map<string, number>> {
    return readLastSequences(this.pool, groupIds);
  }

  /** Up to `limit` of a Group's Events after `afterSequence`, in order; delivery authorizes. */
  eventsAfter(groupId: string, afterSequence: number, limit: number): Promise<StoredEventText[]> {
    return readEventsAfter(this.pool, groupId, afterSequence, limit);
  }

  /** A stored snapshot, for an Agent the read rule lets read whole snapshots. */
  async snapshot(groupId: string, agentId: string, hash: string): Promise<SnapshotRead> {
    const access = await this.authorizeRead(groupId, agentId, { purpose: 'snapshot' });
    if (!access.ok) return access;
    const body = await readSnapshot(this.pool, groupId, hash);
    // Worded as the refusal of a stranger, so neither tells which snapshots exist.
    return body === undefined ? { ok: false, error: wireError('GROUP_NOT_FOUND', UNDISCLOSED.snapshot, { groupId }) } : { ok: true, body };
  }

  /** The Mission tree below the Mission of `groupId`, as an Agent may read it (§14). */
  missionTree(groupId: string, agentId: string): Promise<TreeRead> {
    return readMissionTree(this.pool, groupId, { kind: 'principal', principal: { type: 'agent', id: agentId } });
  }

  /** The Group's newest snapshot if it lags its head by at most `maxLag`, else a new one. */
  snapshotReference(groupId: string, nowMillis: number, maxLag: number): Promise<SnapshotReference> {
    return snapshotReference(this.pool, groupId, this.settings, nowMillis, maxLag);
  }

  /** Moves the Agent's Cursors forward (never back). */
  advanceCursors(agentId: string, cursors: readonly { groupId: string; sequence: number }[], at: string): Promise<void> {
    return advanceCursors(this.pool, agentId, cursors, at);
  }

  /** Resolves when the database answers (readiness). */
  async ready(): Promise<void> {
    await this.pool.query('select 1');
  }
}
