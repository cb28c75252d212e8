/**
 * The refusal reasons of the organization module, by name: a decider refuses with
 * `refuse(code, ORGANIZATION_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const ORGANIZATION_REASONS = {
  agentCardInactive: 'agent-card-inactive',
  cardIssuerNotAuthorized: 'card-issuer-not-authorized',
  cardKeysConflict: 'card-keys-conflict',
  cardOtherOrganization: 'card-other-organization',
  cardVersionNotNewer: 'card-version-not-newer',
  kindNotSupported: 'kind-not-supported',
  notGroupAuthority: 'not-group-authority',
  notRegistryService: 'not-registry-service',
} as const;

export type OrganizationReason = (typeof ORGANIZATION_REASONS)[keyof typeof ORGANIZATION_REASONS];
