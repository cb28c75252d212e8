/** The accepted `ext.missionweaveprotocol.core.group_archive`, its Events stated whole (`kindCase.ts`). */

import { archiveSnapshot, historyOf, SNAPSHOT_ID, STATE_HASH } from '../archiveFixtures.js';
import { AUTHORITY, T0, history, steps } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('ext.missionweaveprotocol.core.group_archive', {
  actor: AUTHORITY,
  terminal: true,
  given: (busy) => history([steps.cancel()], busy),
  payload: (_s, events = []) => ({ snapshot: archiveSnapshot(events) }),
  world: (events) => ({ histories: [historyOf(events)] }),
  events: (s) => [
    { kind: 'group.snapshot.created', payload: { snapshotId: SNAPSHOT_ID, throughSequence: s.lastSequence, stateHash: STATE_HASH } },
    { kind: 'group.archived', payload: { snapshotId: SNAPSHOT_ID, archivedAt: T0, group: { ...s.group, state: 'archived', archivedAt: T0, archiveSnapshotId: SNAPSHOT_ID } } },
  ],
});
