/**
 * Every refusal Parley gives, by its stable reason (seed « Transport et découverte »: a refusal
 * is `isError` with a stable, machine-readable `reason`), with the §19 code it travels under.
 * The manifest publishes these two tables as they are, and `parleyRefusal` takes only a reason
 * listed here: a refusal the manifest does not name does not compile.
 */

import type { ErrorCode } from '../../protocol/errorCodes.js';
import { refuse, type Refusal } from '../model.js';

/** The core profile: the envelope, authority, the state machine, the references and the reads. */
export const PARLEY_REFUSALS = {
  // The seed's « 400 invalid_body »: the §19 code of a body that does not conform.
  invalid_body: 'SCHEMA_VALIDATION_FAILED',
  // The seed's « 403 … thread_authority_missing ou token_right_missing ».
  thread_authority_missing: 'AUTH_FORBIDDEN',
  token_right_missing: 'AUTH_FORBIDDEN',
  thread_closed: 'INVALID_STATE_TRANSITION',
  thread_ended: 'INVALID_STATE_TRANSITION',
  not_forward: 'INVALID_STATE_TRANSITION',
  too_many_steps: 'INVALID_STATE_TRANSITION',
  not_ended: 'INVALID_STATE_TRANSITION',
  nothing_to_confirm: 'INVALID_STATE_TRANSITION',
  self_reply: 'INVALID_COMMAND',
  unknown_thread: 'INVALID_COMMAND',
  unknown_parent: 'INVALID_COMMAND',
  parley_limit: 'INVALID_COMMAND',
  invalid_cursor: 'INVALID_COMMAND',
  invalid_since: 'INVALID_COMMAND',
} as const satisfies Readonly<Record<string, ErrorCode>>;

/** The dialectic profile's own; it also gives the core's envelope, authority and limit refusals. */
export const DIALECTIC_REFUSALS = {
  claim_settled: 'INVALID_STATE_TRANSITION',
  claim_expired: 'INVALID_STATE_TRANSITION',
  claim_unsupported: 'INVALID_STATE_TRANSITION',
  self_attest: 'INVALID_COMMAND',
  already_attested: 'INVALID_COMMAND',
  self_verify: 'INVALID_COMMAND',
  unknown_claim: 'INVALID_COMMAND',
} as const satisfies Readonly<Record<string, ErrorCode>>;

export type ParleyReason = keyof typeof PARLEY_REFUSALS | keyof typeof DIALECTIC_REFUSALS;

const CODES: Readonly<Record<ParleyReason, ErrorCode>> = { ...PARLEY_REFUSALS, ...DIALECTIC_REFUSALS };

export function parleyRefusal(reason: ParleyReason, message: string): Refusal {
  return refuse(CODES[reason], reason, message);
}
