/**
 * What Sessions and delivery reach of the database, as one service the composition root builds
 * around the Pool: the read rule (`authorizeRead`), the Group reads that serve an authorized
 * Session, Agent Cursors, the Group Snapshots CURSOR_TOO_OLD names, the Artifact store
 * (`artifacts/artifactAccess.ts`) and an Extension Profile's slice of a Group
 * (`profileSlices.ts`), which a profile's read side reads through. Transport calls this and never names the store.
 */

import { decideRead, UNDISCLOSED, type ReadRequest } from '../domain/readAccess.js';
import type { Pool } from '../store/pool.js';
import { advanceCursors } from '../store/sql/cursors.js';
import { readServedEventsAfter } from '../store/sql/eventRedactions.js';
import type { StoredEventText } from '../store/sql/events.js';
import { readServedEventBytesAfter, type StoredEventBytes } from '../store/sql/replayRows.js';
import { readLastSequence, readLastSequences } from '../store/sql/groups.js';
import { readMembership } from '../store/sql/memberships.js';
import { readArchiveSnapshot, readSnapshot } from '../store/sql/snapshots.js';
import { ArtifactAccess } from './artifacts/artifactAccess.js';
import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import { ReaderAccess } from './humans/readerAccess.js';
import type { ArtifactLimits } from './artifacts/artifactLimits.js';
import { readProfileSlice, type ProfileSliceRead, type ProfileSlices } from './profileSlices.js';
import { findReceipts } from '../store/sql/receipts.js';
import { readWorkItem } from '../store/sql/readWorkItem.js';
import type { Principal } from '../protocol/principal.js';
import type { JsonValue } from '../protocol/strictJson.js';
import { authorizeRead, type ReadAccess } from './authorizeRead.js';
import { listContextPackagesFor, readContextPackageFor, type ContextPackageRead } from './context/contextPackageAccess.js';
import { snapshotReference, viewSnapshotReference, type SnapshotReference } from './groupSnapshots.js';
import type { AuthoritySettings } from './settings.js';
import { wireError, type WireError } from './wireError.js';

export type SnapshotRead = { readonly ok: true; readonly body: string } | { readonly ok: false; readonly error: WireError };

/** A snapshot read, or the refusal a stranger gets, word for word, so neither tells which snapshots exist. */
function found(groupId: string, body: string | undefined): SnapshotRead {
  return body === undefined ? { ok: false, error: wireError('GROUP_NOT_FOUND', UNDISCLOSED.snapshot, { groupId }) } : { ok: true, body };
}

export class GroupAccess implements ProfileSlices {
  /** Artifact uploads, downloads and provenance of the Organization (§13.1). */
  readonly artifacts: ArtifactAccess;
  /** The read API of humans and Agents over HTTPS (docs/human-api.md). */
  readonly readers: ReaderAccess;

  constructor(
    private readonly pool: Pool,
    private readonly settings: AuthoritySettings,
    /** The Authority's kinds: the Group states it reads are rebuilt through them. */
    private readonly kinds: KindRegistry,
    artifactLimits: Partial<ArtifactLimits> = {},
  ) {
    this.artifacts = new ArtifactAccess(pool, settings.services.organizationId, artifactLimits);
    this.readers = new ReaderAccess(pool, kinds);
  }

  /**
   * An Extension Profile's slice of a Group for `reader`, by the read rule: what a profile's own
   * reads (its read side, composed at the composition root) are computed over.
   */
  profileSlice(groupId: string, reader: Principal, profileUri: string): Promise<ProfileSliceRead> {
    return readProfileSlice(this.pool, this.kinds, groupId, reader, profileUri);
  }

  /** Whether the Agent may read the Group for `request`, and from which sequence. */
  authorizeRead(groupId: string, agentId: string, request: ReadRequest): Promise<ReadAccess> {
    return authorizeRead(this.pool, groupId, { type: 'agent', id: agentId }, request);
  }

  /** One WorkItem's current document: the Authorization Service's online token check (§12). */
  workItem(groupId: string, workItemId: string): Promise<JsonValue | undefined> {
    return readWorkItem(this.pool, groupId, workItemId);
  }

  /** The signed Command text a service principal's accepted Command under `actionId` carried, if any. */
  async serviceCommand(serviceId: string, actionId: string): Promise<string | undefined> {
    const key = { actorType: 'service', actorId: serviceId, actionId };
    return (await findReceipts(this.pool, [key])).values().next().value?.command;
  }

  /** A Group's last sequence, or undefined when it does not exist. */
  lastSequence(groupId: string): Promise<number | undefined> {
    return readLastSequence(this.pool, groupId);
  }

  /** The last sequences of these Groups, for the poll behind cross-node wake-ups. */
  lastSequences(groupIds: readonly string[]): Promise<Map<string, number>> {
    return readLastSequences(this.pool, groupIds);
  }

  /**
   * Up to `limit` of a Group's Events after `afterSequence`, in order, a redacted Message's Event
   * as its rendering (`redactEvents.ts`, §7.4); delivery authorizes.
   */
  eventsAfter(groupId: string, afterSequence: number, limit: number): Promise<StoredEventText[]> {
    return readServedEventsAfter(this.pool, groupId, afterSequence, limit);
  }

  /**
   * The same Events as `eventsAfter`, as bytes for replay: `onEvent` sees each in order, its
   * bytes valid only during the call (`store/sql/replayRows.ts`); resolves to how many.
   */
  replayEventsAfter(groupId: string, afterSequence: number, limit: number, onEvent: (event: StoredEventBytes) => void): Promise<number> {
    return readServedEventBytesAfter(this.pool, groupId, afterSequence, limit, onEvent);
  }

  /**
   * A stored snapshot: a whole-Group one for a reader (an Agent or a human) the read rule lets
   * read whole snapshots; for an active Membership with limited visibility, only a snapshot
   * limited to that Membership (§8) — any other hash gets the read rule's own refusal.
   */
  async snapshot(groupId: string, reader: Principal, hash: string): Promise<SnapshotRead> {
    const membership = await readMembership(this.pool, groupId, reader.type, reader.id);
    const decision = decideRead(membership, { purpose: 'snapshot' });
    if (!decision.allowed) {
      const limited = decision.code === 'AUTH_FORBIDDEN' && membership !== undefined ? await readSnapshot(this.pool, groupId, hash, membership.membershipId) : undefined;
      return limited === undefined ? { ok: false, error: wireError(decision.code, decision.message, { groupId }) } : { ok: true, body: limited };
    }
    return found(groupId, await readSnapshot(this.pool, groupId, hash));
  }

  /**
   * An archived Group's signed final snapshot (§7.4), for a reader the read rule lets read whole
   * snapshots; a Group not archived answers as a missing snapshot.
   */
  async archiveSnapshot(groupId: string, reader: Principal): Promise<SnapshotRead> {
    const decision = decideRead(await readMembership(this.pool, groupId, reader.type, reader.id), { purpose: 'snapshot' });
    if (!decision.allowed) return { ok: false, error: wireError(decision.code, decision.message, { groupId }) };
    return found(groupId, await readArchiveSnapshot(this.pool, groupId));
  }

  /** A Context Package, for its recipient only (§13.3). */
  contextPackage(groupId: string, agentId: string, contextPackageId: string): Promise<ContextPackageRead> {
    return readContextPackageFor(this.pool, groupId, agentId, contextPackageId);
  }

  /** The Agent's newest Context Packages in the Group. */
  contextPackages(groupId: string, agentId: string): Promise<ContextPackageRead> {
    return listContextPackagesFor(this.pool, groupId, agentId);
  }

  /**
   * The snapshot CURSOR_TOO_OLD names for this Agent: the Group's newest whole one if it lags the
   * head by at most `maxLag`, else a new one — or, for a Membership with limited visibility, one
   * limited to it (§8), so a late joiner recovers too.
   */
  async snapshotReference(groupId: string, agentId: string, nowMillis: number, maxLag: number): Promise<SnapshotReference> {
    const membership = await readMembership(this.pool, groupId, 'agent', agentId);
    if (membership !== undefined && membership.visibilityStartSequence > 1) {
      const viewer = { principal: { type: 'agent' as const, id: agentId }, membershipId: membership.membershipId, visibilityStartSequence: membership.visibilityStartSequence };
      return viewSnapshotReference(this.pool, groupId, viewer, this.settings, nowMillis, maxLag);
    }
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
