/** The accepted `ext.missionweave.core.child_mission_settle`, its Events stated whole (`kindCase.ts`). */

import { expectedChildApproved } from '../expectedEvents.js';
import { AUTHORITY, SETTLED_CHILD, COORD, WORK, history, command } from '../fixtures.js';
import { CHILD_PAYLOAD } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('ext.missionweave.core.child_mission_settle', {
  actor: AUTHORITY,
  // w1 promoted to the approved child the world's store knows (created when none existed).
  given: (busy) =>
    history([(s) => command(s!, COORD, 'mission.create_child', { ...CHILD_PAYLOAD, missionId: SETTLED_CHILD.missionId, groupId: SETTLED_CHILD.groupId })], busy, { missions: [] }),
  payload: () => ({ parentWorkItemId: WORK, childMissionId: SETTLED_CHILD.missionId }),
  events: (s) => [expectedChildApproved(s, WORK, { missionId: SETTLED_CHILD.missionId, groupId: SETTLED_CHILD.groupId, ...SETTLED_CHILD.approval! })],
});
