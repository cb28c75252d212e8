/**
 * The refusal reasons of the group module, by name: a decider refuses with
 * `refuse(code, GROUP_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const GROUP_REASONS = {
  contextPackagePending: 'context-package-pending',
  coordinatorEpochStale: 'coordinator-epoch-stale',
  envelopeTargetMismatch: 'envelope-target-mismatch',
  groupArchived: 'group-archived',
  groupHistoryMoved: 'group-history-moved',
  groupNotFound: 'group-not-found',
  membershipEpochStale: 'membership-epoch-stale',
  missionState: 'mission-state',
  missionTerminal: 'mission-terminal',
  notAuthorized: 'not-authorized',
  profileAlreadyPinned: 'profile-already-pinned',
  profileNotPinned: 'profile-not-pinned',
  profileNotRegistered: 'profile-not-registered',
  revisionConflict: 'revision-conflict',
  serviceNotAuthorized: 'service-not-authorized',
  snapshotEventIdsMismatch: 'snapshot-event-ids-mismatch',
  snapshotNotAtHead: 'snapshot-not-at-head',
  snapshotNotByAuthority: 'snapshot-not-by-authority',
  snapshotOtherGroup: 'snapshot-other-group',
  snapshotPolicyLogUnlinked: 'snapshot-policy-log-unlinked',
  snapshotStateHashMismatch: 'snapshot-state-hash-mismatch',
  snapshotTime: 'snapshot-time',
  tooManyPins: 'too-many-pins',
} as const;

export type GroupReason = (typeof GROUP_REASONS)[keyof typeof GROUP_REASONS];
