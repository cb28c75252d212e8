/**
 * Results of Signed Document verification: the evidence a success retains (§6.4: Organization,
 * document kind, signing hash, resolved key, bound Principal, key-validity interval) and the
 * protected diagnostic a failure records (first failing semantic stage and a stable reason),
 * of which only the non-oracular wire code may reach the caller.
 */

import type { ErrorCode } from '../errorCodes.js';
import type { ContentHash } from '../contentHash.js';
import type { Principal } from '../principal.js';
import type { JsonObject } from '../strictJson.js';
import type { Instant } from '../timestamp.js';
import type { ResolvedKey } from './keyRegistry.js';
import type { DocumentKind } from './profiles.js';

export type CryptographicStage =
  | 'parse'
  | 'schema'
  | 'signature-envelope'
  | 'key-resolution'
  | 'canonicalization'
  | 'signature';

export type SemanticStage = CryptographicStage | 'admission';

export interface VerifiedDocument {
  readonly kind: DocumentKind;
  readonly document: JsonObject;
  readonly organizationId: string;
  /** The exact stage-5 JCS bytes: the document without its top-level `signature`. */
  readonly signingBytes: Buffer;
  /** The whole document's canonical text, `signature` included. */
  readonly canonicalText: string;
  readonly signingHash: ContentHash;
  readonly keyId: string;
  readonly principal: Principal;
  /** The protected signed time exactly as received. */
  readonly protectedTime: string;
  readonly protectedInstant: Instant;
  readonly signatureValue: string;
  readonly key: ResolvedKey;
}

export interface VerificationFailure {
  readonly stage: SemanticStage;
  /** Stable protected diagnostic, e.g. `signature-r-small-order`; never sent on the wire. */
  readonly reason: string;
  /** The only part a caller may see. */
  readonly code: ErrorCode;
  /** Protected human-readable detail. */
  readonly detail: string;
}

export type VerificationResult =
  | { readonly ok: true; readonly verified: VerifiedDocument }
  | { readonly ok: false; readonly failure: VerificationFailure };

/** §6.4: the wire code of each semantic stage. */
export const STAGE_CODES: Readonly<Record<SemanticStage, ErrorCode>> = {
  parse: 'PROTOCOL_VIOLATION',
  schema: 'SCHEMA_VALIDATION_FAILED',
  'signature-envelope': 'AUTH_INVALID_SIGNATURE',
  'key-resolution': 'AUTH_INVALID_SIGNATURE',
  canonicalization: 'PROTOCOL_VIOLATION',
  signature: 'AUTH_INVALID_SIGNATURE',
  admission: 'AUTH_INVALID_SIGNATURE',
};

export function failure(stage: SemanticStage, reason: string, detail: string): VerificationResult {
  return { ok: false, failure: { stage, reason, code: STAGE_CODES[stage], detail } };
}
