/**
 * `ext.missionweave.core.child_mission_settle` (our extension, §10.2, §14): the Group Authority
 * records a terminal child Mission's outcome on the parent WorkItem, in the parent Group. A sweep
 * (`src/app/reactor/childSweeps.ts`) finds the unsettled links; the decider reads the child from
 * the store and refuses anything already settled, so every node may issue it at once.
 *
 * The Events are the core WorkItem facts a parent Coordinator already follows (§15.2).
 */

import { defineKind } from '../kinds/kindTypes.js';
import { missionTerminated } from './missionTerminate.js';
import { decideChildSettle } from './settleChild.js';
// The Event types of the kinds that own them: one definition per Event kind.
import { workResultAccepted } from '../workItem/workAcceptResult.js';
import { workBlocked } from '../workItem/workBlock.js';
import { workFailed } from '../workItem/workFail.js';

export const childMissionSettle = defineKind({
  kind: 'ext.missionweave.core.child_mission_settle',
  scope: 'group',
  authority: ['organization-authority'],
  events: [workResultAccepted, workBlocked, workFailed, missionTerminated],
  preload: { missions: (command) => [command.payload.childMissionId] },
  target: (state, command) => state.workItems.get(command.payload.parentWorkItemId)?.revision,
  workItemOf: (_state, command) => command.payload.parentWorkItemId,
  decide: decideChildSettle,
});
