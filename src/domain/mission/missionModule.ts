/** The mission module: a Mission's lifecycle (§7), its Coordinator and its child and follow-up Missions. */

import { missionCreate } from './missionCreate.js';
import { missionCreateFollowUp } from './missionCreateFollowUp.js';
import { missionCreateChild } from './missionCreateChild.js';
import { missionAssignCoordinator } from './missionAssignCoordinator.js';
import { missionRenewCoordinator } from './missionRenewCoordinator.js';
import { missionSubmitForApproval } from './missionSubmitForApproval.js';
import { missionRequestChanges } from './missionRequestChanges.js';
import { missionApprove } from './missionApprove.js';
import { missionCancel } from './missionCancel.js';
import { missionTerminate } from './missionTerminate.js';
import { childMissionSettle } from './childMissionSettle.js';
import { MISSION_SLICE } from './missionSlice.js';
import { defineModule } from '../kinds/domainModule.js';

export const MISSION_MODULE = defineModule({
  key: 'mission',
  slice: MISSION_SLICE,
  kinds: [
    missionCreate,
    missionCreateFollowUp,
    missionCreateChild,
    missionAssignCoordinator,
    missionRenewCoordinator,
    missionSubmitForApproval,
    missionRequestChanges,
    missionApprove,
    missionCancel,
    missionTerminate,
    childMissionSettle,
  ],
});
