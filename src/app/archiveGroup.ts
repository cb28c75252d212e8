/**
 * Archival as the operator runs it (§7.4): the Group Authority signs the Group's final snapshot
 * at its head — decisions, WorkItems, approvals and Artifact references are its stored state, the
 * Event IDs its history, the Policy Log its audit linkage — stores it where CURSOR_TOO_OLD
 * snapshots are served (`GET /v1/groups/{groupId}/snapshots/{hash}`), and submits
 * `ext.missionweaveprotocol.core.group_archive` carrying it, as itself, through the ordinary
 * pipeline. The decider judges the snapshot against the store again under the Group's lock, so
 * a Command committed in between makes the archival fail (`REVISION_CONFLICT`) rather than
 * archive a stale snapshot; the operator runs it again.
 */

import { randomUUID } from 'node:crypto';
import { GROUP_ARCHIVE } from '../domain/group/archiveSnapshot.js';
import type { JsonObject } from '../protocol/strictJson.js';
import type { Pool } from '../store/pool.js';
import type { GroupAuthority, Submission } from './groupAuthority.js';
import { issueSnapshot } from './groupSnapshots.js';
import { signCommand, timestampOf } from './issueDocuments.js';

export interface Archival {
  readonly submission: Submission;
  /** The hash the stored `{snapshot, state}` is fetched by. */
  readonly snapshotHash: string;
}

export async function archiveGroup(authority: GroupAuthority, pool: Pool, groupId: string): Promise<Archival> {
  const { settings, clock } = authority;
  const built = await issueSnapshot(pool, groupId, settings, clock.nowMillis(), 'archival');
  const command = signCommand(
    {
      actor: settings.services.authority,
      kind: GROUP_ARCHIVE,
      payload: { snapshot: built.snapshot as JsonObject },
      issuedAt: timestampOf(clock.nowMillis()),
      groupId,
      actionId: `urn:uuid:${randomUUID()}`,
    },
    settings.authorityKey,
  );
  return { submission: await authority.submit(command), snapshotHash: built.hash };
}
