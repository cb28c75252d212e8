/** `work.start` (§10.2, §11.3): a queued WorkItem starts under a fresh Execution Lease. */

import { defineKind } from '../kinds/kindTypes.js';
import { decideWorkStart } from './startWork.js';
import { workItemEvent, type WorkStartedPayload } from './workEvents.js';

export const workStarted = workItemEvent<WorkStartedPayload>()('work.started');

export const workStart = defineKind({
  kind: 'work.start',
  scope: 'group',
  authority: ['member'],
  missionStates: ['active'],
  events: [workStarted],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideWorkStart,
});
