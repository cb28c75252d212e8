/**
 * What Sessions and delivery reach of the database, as one service the composition root builds
 * around the Pool: the read rule (`authorizeRead`), the Group reads that serve an authorized
 * Session, Agent Cursors, the Group Snapshots CURSOR_TOO_OLD names, and the Artifact store
 * (`artifacts/artifactAccess.ts`). Transport calls this and never names the store.
 */

import { UNDISCLOSED, type ReadRequest } from '../domain/readAccess.js';
import type { Pool } from '../store/pool.js';
import { advanceCursors } from '../store/sql/cursors.js';
import { readEventsAfter, type StoredEventText } from '../store/sql/events.js';
import { readLastSequence, readLastSequences } from '../store/sql/groups.js';
import { readSnapshot } from '../store/sql/snapshots.js';
import { ArtifactAccess } from './artifacts/artifactAccess.js';
import type { ArtifactLimits } from './artifacts/artifactLimits.js';
import { readWorkItem } from '../store/sql/readWorkItem.js';
import type { JsonValue } from '../protocol/strictJson.js';
import { authorizeRead, type ReadAccess } from './authorizeRead.js';
import { listContextPackagesFor, readContextPackageFor, type ContextPackageRead } from './context/contextPackageAccess.js';
import { snapshotReference, type SnapshotReference } from './groupSnapshots.js';
import type { AuthoritySettings } from './settings.js';
import { wireError, type WireError } from './wireError.js';

export type SnapshotRead = { readonly ok: true; readonly body: string } | { readonly ok: false; readonly error: WireError };

export class GroupAccess {
  /** Artifact uploads, downloads and provenance of the Organization (§13.1). */
  readonly artifacts: ArtifactAccess;

  constructor(
    private readonly pool: Pool,
    private readonly settings: AuthoritySettings,
    artifactLimits: Partial<ArtifactLimits> = {},
  ) {
    this.artifacts = new ArtifactAccess(pool, settings.services.organizationId, artifactLimits);
  }

  /** Whether the Agent may read the Group for `request`, and from which sequence. */
  authorizeRead(groupId: string, agentId: string, request: ReadRequest): Promise<ReadAccess> {
    return authorizeRead(this.pool, groupId, agentId, request);
  }

  /** One WorkItem's current document: the Authorization Service's online token check (§12). */
  workItem(groupId: string, workItemId: string): Promise<JsonValue | undefined> {
    return readWorkItem(this.pool, groupId, workItemId);
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

  /** A Context Package, for its recipient only (§13.3). */
  contextPackage(groupId: string, agentId: string, contextPackageId: string): Promise<ContextPackageRead> {
    return readContextPackageFor(this.pool, groupId, agentId, contextPackageId);
  }

  /** The Agent's newest Context Packages in the Group. */
  contextPackages(groupId: string, agentId: string): Promise<ContextPackageRead> {
    return listContextPackagesFor(this.pool, groupId, agentId);
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
