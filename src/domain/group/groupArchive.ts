/**
 * `ext.missionweaveprotocol.core.group_archive` (§7.4, §15.2): the Group Authority archives the
 * Group of a terminal Mission with a signed final snapshot, emitting `group.snapshot.created` and
 * `group.archived` atomically. Organization-owned: only the Authority sends it (the operator's
 * `missionweave archive`, src/cli/archiveCommand.ts). The snapshot's rules are in
 * `archiveSnapshot.ts`.
 *
 * Only a terminal Mission's Group is archived: a live Mission still changes, and §8 ends
 * Memberships "when the Mission is archived", so archiving earlier would end live work. Once
 * archived, the Group refuses every Command (`INVALID_STATE_TRANSITION`, `group-archived`,
 * commonChecks.ts) yet stays readable and replayable: its Events are never touched.
 */

import type { Group } from '../documents.js';
import { TERMINAL_MISSION_STATES } from '../documents.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { accept } from '../model.js';
import { checkArchiveSnapshot, GROUP_ARCHIVE } from './archiveSnapshot.js';
import { groupRevision } from './groupSlice.js';
import { GROUP_EXAMPLES } from './groupExamples.js';

export interface GroupSnapshotCreatedPayload {
  readonly snapshotId: string;
  readonly throughSequence: number;
  readonly stateHash: string;
}

export interface GroupArchivedPayload {
  readonly snapshotId: string;
  readonly archivedAt: string;
  /** The Group document as archived. */
  readonly group: Group;
}

/** The snapshot's own fact; the Group changes with `group.archived`, in the same transaction. */
export const groupSnapshotCreated = defineEvent<GroupSnapshotCreatedPayload>()({
  kind: 'group.snapshot.created',
  evolve: (state) => state,
});

export const groupArchived = defineEvent<GroupArchivedPayload>()({
  kind: 'group.archived',
  evolve: (state, payload) => ({ ...state, group: payload.group }),
});

export const groupArchive = defineKind({
  kind: GROUP_ARCHIVE,
  examples: GROUP_EXAMPLES['ext.missionweaveprotocol.core.group_archive'],
  scope: 'group',
  authority: ['organization-authority'],
  missionStates: TERMINAL_MISSION_STATES,
  events: [groupSnapshotCreated, groupArchived],
  // The snapshot is the Authority's own Signed Document (createdBy, §6.4 profile).
  embedded: { member: 'snapshot', document: 'group-snapshot' },
  preload: {
    history: (command) => ({ groupId: command.groupId as string, policyLogEntryIds: command.payload.snapshot.policyLog.map((e) => e.entryId) }),
  },
  target: (state) => groupRevision(state.group),
  decide: (state, command, ctx) => {
    const { snapshot } = command.payload;
    const refused = checkArchiveSnapshot(state, snapshot, ctx);
    if (refused !== null) return refused;
    const group: Group = { ...state.group, state: 'archived', archivedAt: ctx.now, archiveSnapshotId: snapshot.snapshotId };
    const aggregate = (revision: number) => ({ type: 'group' as const, id: state.groupId, revision });
    return accept(
      {
        kind: 'group.snapshot.created',
        payload: { snapshotId: snapshot.snapshotId, throughSequence: snapshot.throughSequence, stateHash: snapshot.stateHash },
        aggregate: aggregate(groupRevision(state.group) + 1),
      },
      { kind: 'group.archived', payload: { snapshotId: snapshot.snapshotId, archivedAt: ctx.now, group }, aggregate: aggregate(groupRevision(group)) },
    );
  },
});
