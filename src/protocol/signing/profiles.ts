/**
 * The Signed Document Verification Profile table (§6.4): for each of the nine signed document
 * kinds, its schema, its protected signed time and the rule naming its expected signer.
 */

export const DOCUMENT_KINDS = [
  'agent-card',
  'approval',
  'artifact',
  'command',
  'context-package',
  'event',
  'evidence',
  'extension-profile',
  'group-snapshot',
] as const;

export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** How the expected signer is named by the document. */
export type SignerRule =
  /** Any Organization service Principal; issuing authority is checked after verification. */
  | { readonly rule: 'service-principal' }
  /** The exact Principal object at this member. */
  | { readonly rule: 'principal-object'; readonly member: string }
  /** The Agent whose ID is at this member path. */
  | { readonly rule: 'agent-id'; readonly path: readonly string[] };

export interface SignedDocumentProfile {
  readonly kind: DocumentKind;
  /** Name of our schema for the document (`schemas/<name>.schema.json`). */
  readonly schema: string;
  /** Top-level member holding the protected signed time. */
  readonly protectedTime: string;
  readonly signer: SignerRule;
}

function profile(
  kind: DocumentKind,
  protectedTime: string,
  signer: SignerRule,
): SignedDocumentProfile {
  // Each kind's schema file carries the kind's own name.
  return { kind, schema: kind, protectedTime, signer };
}

export const PROFILES: Readonly<Record<DocumentKind, SignedDocumentProfile>> = {
  'agent-card': profile('agent-card', 'issuedAt', { rule: 'service-principal' }),
  approval: profile('approval', 'occurredAt', { rule: 'principal-object', member: 'approver' }),
  artifact: profile('artifact', 'createdAt', { rule: 'agent-id', path: ['producer', 'agentId'] }),
  command: profile('command', 'issuedAt', { rule: 'principal-object', member: 'actor' }),
  'context-package': profile('context-package', 'generatedAt', {
    rule: 'principal-object',
    member: 'generatedBy',
  }),
  event: profile('event', 'occurredAt', { rule: 'principal-object', member: 'acceptedBy' }),
  evidence: profile('evidence', 'createdAt', { rule: 'principal-object', member: 'generatedBy' }),
  'extension-profile': profile('extension-profile', 'approvedAt', {
    rule: 'principal-object',
    member: 'approvedBy',
  }),
  'group-snapshot': profile('group-snapshot', 'createdAt', {
    rule: 'principal-object',
    member: 'createdBy',
  }),
};

export function isDocumentKind(value: unknown): value is DocumentKind {
  return typeof value === 'string' && (DOCUMENT_KINDS as readonly string[]).includes(value);
}
