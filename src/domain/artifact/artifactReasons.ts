/**
 * The refusal reasons of the artifact module, by name: a decider refuses with
 * `refuse(code, ARTIFACT_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const ARTIFACT_REASONS = {
  artifactAlreadyPublished: 'artifact-already-published',
  artifactCardVersion: 'artifact-card-version',
  artifactClassificationDowngrade: 'artifact-classification-downgrade',
  artifactContentNotStored: 'artifact-content-not-stored',
  artifactIdTaken: 'artifact-id-taken',
  artifactOtherMission: 'artifact-other-mission',
  artifactProducerNotOwner: 'artifact-producer-not-owner',
  artifactReuseClassificationDowngrade: 'artifact-reuse-classification-downgrade',
  artifactSizeMismatch: 'artifact-size-mismatch',
  artifactSourceUnpublished: 'artifact-source-unpublished',
  artifactsPerWorkItem: 'artifacts-per-work-item',
} as const;

export type ArtifactReason = (typeof ARTIFACT_REASONS)[keyof typeof ARTIFACT_REASONS];
