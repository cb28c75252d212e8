/** The work module: WorkItems, Work Proposals and Delegation Grants, from proposal to accepted result (§9.1, §10, §11). */

import { membershipGrantDelegation } from './grantDelegation.js';
import { workPropose } from './workPropose.js';
import { workAuthorize } from './workAuthorize.js';
import { workOffer } from './workOffer.js';
import { workAcceptOffer } from './workAcceptOffer.js';
import { approvalGrantExecution } from './approvalGrantExecution.js';
import { workStart } from './workStart.js';
import { workExecutionLeaseRenew } from './workExecutionLeaseRenew.js';
import { workCheckpoint } from './workCheckpoint.js';
import { workBlock } from './workBlock.js';
import { workUnblock } from './workUnblock.js';
import { workSubmit } from './workSubmit.js';
import { workAcceptResult } from './workAcceptResult.js';
import { workFail } from './workFail.js';
import { workCancel } from './workCancel.js';
import { workDependencyAdd } from './workDependencyAdd.js';
import { workLeaseClose } from './workLeaseClose.js';
import { WORK_SLICE } from './workSlice.js';
import { defineModule } from '../kinds/domainModule.js';

export const WORK_MODULE = defineModule({
  key: 'work',
  slice: WORK_SLICE,
  kinds: [
    membershipGrantDelegation,
    workPropose,
    workAuthorize,
    workOffer,
    workAcceptOffer,
    approvalGrantExecution,
    workStart,
    workExecutionLeaseRenew,
    workCheckpoint,
    workBlock,
    workUnblock,
    workSubmit,
    workAcceptResult,
    workFail,
    workCancel,
    workDependencyAdd,
    workLeaseClose,
  ],
});
