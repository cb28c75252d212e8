/**
 * The core kinds this Group Authority decides (§15.1), one module each. A new core kind is its
 * module plus one line here; an Extension Profile registers its kinds without touching this list
 * (`KindRegistry.withProfiles`).
 */

import { capabilityGrant } from '../authorization/capabilityGrant.js';
import { artifactPublish } from '../artifact/artifactPublish.js';
import { messageCorrect } from '../conversation/messageCorrect.js';
import { messagePost } from '../conversation/messagePost.js';
import { messageRedact } from '../conversation/messageRedact.js';
import { messageRetract } from '../conversation/messageRetract.js';
import { membershipChange } from '../membership/membershipChange.js';
import { membershipEnd } from '../membership/membershipEnd.js';
import { missionApprove } from '../mission/missionApprove.js';
import { missionAssignCoordinator } from '../mission/missionAssignCoordinator.js';
import { missionCancel } from '../mission/missionCancel.js';
import { missionCreate } from '../mission/missionCreate.js';
import { missionCreateChild } from '../mission/missionCreateChild.js';
import { missionCreateFollowUp } from '../mission/missionCreateFollowUp.js';
import { missionRenewCoordinator } from '../mission/missionRenewCoordinator.js';
import { missionRequestChanges } from '../mission/missionRequestChanges.js';
import { missionSubmitForApproval } from '../mission/missionSubmitForApproval.js';
import { missionTerminate } from '../mission/missionTerminate.js';
import { groupArchive } from '../group/groupArchive.js';
import { profilePin } from '../group/profilePins.js';
import { ORGANIZATION_KINDS } from '../organization/organization.js';
import { approvalGrantExecution } from '../workItem/approvalGrantExecution.js';
import { workAcceptOffer } from '../workItem/workAcceptOffer.js';
import { childMissionSettle } from '../workItem/childMissionSettle.js';
import { workAuthorize } from '../workItem/workAuthorize.js';
import { workExecutionLeaseRenew } from '../workItem/workExecutionLeaseRenew.js';
import { workLeaseClose } from '../workItem/workLeaseClose.js';
import { workOffer } from '../workItem/workOffer.js';
import { workStart } from '../workItem/workStart.js';
import { workAcceptResult } from '../workItem/workAcceptResult.js';
import { workBlock } from '../workItem/workBlock.js';
import { workCancel } from '../workItem/workCancel.js';
import { workCheckpoint } from '../workItem/workCheckpoint.js';
import { workFail } from '../workItem/workFail.js';
import { workSubmit } from '../workItem/workSubmit.js';
import { workUnblock } from '../workItem/workUnblock.js';
import { membershipGrantDelegation } from '../workItem/grantDelegation.js';
import { workDependencyAdd } from '../workItem/workDependencyAdd.js';
import { workPropose } from '../workItem/workPropose.js';
import { resourceUsageRecord } from '../budget/resourceUsageRecord.js';
import { budgetRevise } from '../budget/budgetRevise.js';
import { policyGrantCooperationOverride } from '../policy/policyGrantCooperationOverride.js';
import { KindRegistry } from './kindRegistry.js';
import type { AnyGroupKind } from './kindTypes.js';

export const CORE_GROUP_KINDS: readonly AnyGroupKind[] = [
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
  membershipChange,
  membershipEnd,
  messagePost,
  messageCorrect,
  messageRetract,
  messageRedact,
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
  artifactPublish,
  workSubmit,
  workAcceptResult,
  workFail,
  workCancel,
  workDependencyAdd,
  workLeaseClose,
  childMissionSettle,
  capabilityGrant,
  groupArchive,
  profilePin,
  resourceUsageRecord,
  budgetRevise,
  policyGrantCooperationOverride,
];

/** The registry of the core kinds alone; a Group Authority adds its profiles to it. */
export const coreKinds = new KindRegistry(CORE_GROUP_KINDS, ORGANIZATION_KINDS);
