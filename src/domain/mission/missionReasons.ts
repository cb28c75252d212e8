/**
 * The refusal reasons of the mission module, by name: a decider refuses with
 * `refuse(code, MISSION_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const MISSION_REASONS = {
  approvalDisagrees: 'approval-disagrees',
  approvalDocumentRequired: 'approval-document-required',
  artifactNotAccepted: 'artifact-not-accepted',
  artifactNotPublished: 'artifact-not-published',
  artifactSetInvalid: 'artifact-set-invalid',
  artifactSetMismatch: 'artifact-set-mismatch',
  budgetExceedsParent: 'budget-exceeds-parent',
  childApprovalMissing: 'child-approval-missing',
  childCoordinatorIsOwner: 'child-coordinator-is-owner',
  childMissionNotLinked: 'child-mission-not-linked',
  childMissionReleased: 'child-mission-released',
  childMissionRunning: 'child-mission-running',
  childMissionSettled: 'child-mission-settled',
  coordinatorCardInactive: 'coordinator-card-inactive',
  coordinatorIsOwner: 'coordinator-is-owner',
  coordinatorUnchanged: 'coordinator-unchanged',
  deadlineAfterParent: 'deadline-after-parent',
  deadlinePassed: 'deadline-passed',
  followUpSourceNotApproved: 'follow-up-source-not-approved',
  followUpSourceUnknown: 'follow-up-source-unknown',
  groupIdMismatch: 'group-id-mismatch',
  groupIdTaken: 'group-id-taken',
  missionIdTaken: 'mission-id-taken',
  notSourceMissionOwner: 'not-source-mission-owner',
  notTheParentMission: 'not-the-parent-mission',
  notTheParentWorkItem: 'not-the-parent-work-item',
  parentMissionNotEnded: 'parent-mission-not-ended',
  parentWorkItemNotEnded: 'parent-work-item-not-ended',
  parentWorkItemUnknown: 'parent-work-item-unknown',
  permissionExceedsParent: 'permission-exceeds-parent',
  propagationByAuthorityOnly: 'propagation-by-authority-only',
  requiredWorkUnaccepted: 'required-work-unaccepted',
  submittedRevisionMismatch: 'submitted-revision-mismatch',
  workItemHasChild: 'work-item-has-child',
  workItemNotPromotable: 'work-item-not-promotable',
  workItemUnknown: 'work-item-unknown',
} as const;

export type MissionReason = (typeof MISSION_REASONS)[keyof typeof MISSION_REASONS];
