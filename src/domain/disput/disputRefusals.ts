/**
 * Every refusal of disput v0 in one table: a stable reason, carried in `details.reason` as
 * Parley does, and the §19 code it maps to. Format errors are the schema's (400), rights the
 * actor's (403), order and lifecycle the state's (409), the rest a semantically invalid turn (422).
 */

import type { ErrorCode } from '../../protocol/errorCodes.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { refuse, type Refusal } from '../model.js';

export const DISPUT_REASONS = {
  /** The Command payload is not {fileName, text, commit, config?, backlog?, changedPaths?}. */
  invalid_payload: 'SCHEMA_VALIDATION_FAILED',
  /** `disput.toml` does not parse or breaks its format (§6, [guards], [[checks]]). */
  config_invalid: 'SCHEMA_VALIDATION_FAILED',
  /** §4: the `+++` TOML header is missing, does not parse, or a field is wrong. */
  turn_header_invalid: 'SCHEMA_VALIDATION_FAILED',
  /** §4: an unknown or repeated `##` section, or no `# Tour N` title. */
  turn_section_invalid: 'SCHEMA_VALIDATION_FAILED',
  /** §4: a line of Réponses or Items that is not « - [I-NNNN-n] … » to the letter. */
  turn_line_invalid: 'SCHEMA_VALIDATION_FAILED',
  /** Rule 3: « les réponses groupées sont interdites ». */
  answer_grouped: 'SCHEMA_VALIDATION_FAILED',
  /** Rule 3: one answer per item in a turn. */
  answer_duplicate: 'SCHEMA_VALIDATION_FAILED',
  /** §4: an item id is I-<this turn>-<n>, each once. */
  item_id_invalid: 'SCHEMA_VALIDATION_FAILED',
  /** §4: the file name is `NNNN-<participant>-<role>.md` and agrees with the header. */
  file_name_mismatch: 'SCHEMA_VALIDATION_FAILED',
  /** The first turn pins `disput.toml`; none is pinned yet. */
  config_missing: 'INVALID_COMMAND',
  /** The pinned config changes only by a human decision (a `decider` turn). */
  config_pinned: 'AUTH_FORBIDDEN',
  /** The participant is not in the pinned config, or is not the Command's actor. */
  participant_unknown: 'AUTH_FORBIDDEN',
  participant_not_actor: 'AUTH_FORBIDDEN',
  /** §6: the participant does not hold the role. */
  role_not_held: 'AUTH_FORBIDDEN',
  /** §5: ACCEPTÉ, REJETÉ, CORRIGÉ are the addressee's. */
  answer_not_addressee: 'AUTH_FORBIDDEN',
  /** §5: CLOS, ROUVERT, ESCALADÉ are the author's (or the escalation's target on an ESCALADÉ item). */
  answer_not_author: 'AUTH_FORBIDDEN',
  /** Rule 7: the reviewer of a diff is not its author. */
  reviewer_is_author: 'AUTH_FORBIDDEN',
  /** §6, §8.5: a `writes_code = false` role changes only `.disput/`. */
  role_writes_no_code: 'AUTH_FORBIDDEN',
  /** Rule 2: a recorded turn is never modified; a correction is a new turn. */
  turn_recorded: 'INVALID_STATE_TRANSITION',
  /** §4: turn numbers are strictly increasing, with no unrecorded turn between. */
  turn_number_not_next: 'INVALID_STATE_TRANSITION',
  /** §4: `base` is HEAD at the turn's start, the previous turn's commit. */
  base_not_previous: 'INVALID_STATE_TRANSITION',
  /** Rule 1: each turn has its own commit. */
  commit_reused: 'INVALID_STATE_TRANSITION',
  /** §7: another (participant, role) plays next. */
  not_your_turn: 'INVALID_STATE_TRANSITION',
  /** §7.5: nothing is left; only the human decider may play. */
  dialogue_done: 'INVALID_STATE_TRANSITION',
  /** §7 anti ping-pong: the review of this diff is closed. */
  review_closed: 'INVALID_STATE_TRANSITION',
  /** §5: the verdict does not follow from the item's state. */
  item_transition_invalid: 'INVALID_STATE_TRANSITION',
  /** An answer names an item no earlier turn opened. */
  item_unknown: 'INVALID_COMMAND',
  /** Rule 3, §8.6: an item waiting for this participant has no answer in this turn. */
  answer_missing: 'INVALID_COMMAND',
  /** §4: the addressee is neither a participant nor a role of the config, or only the author could answer. */
  addressee_unknown: 'INVALID_COMMAND',
  /** An item addressed to its own author waits for no one. */
  item_self_addressed: 'INVALID_COMMAND',
  /** §4: `Décision requise` goes with status USER, and only with it. */
  decision_missing: 'INVALID_COMMAND',
  decision_unexpected: 'INVALID_COMMAND',
  /** Status DONE while items stay unresolved. */
  done_with_pending_items: 'INVALID_COMMAND',
  /** Status DONE while §7 still names a player after the turn: a review due (§7.3), an open backlog task (§7.4). */
  done_with_pending_work: 'INVALID_COMMAND',
  /** disputLimits.ts. */
  disput_limit: 'INVALID_COMMAND',
} as const satisfies Record<string, ErrorCode>;

export type DisputReason = keyof typeof DISPUT_REASONS;

/** A disput refusal: its §19 code from the table, its reason in `details.reason` too. */
export function disputRefusal(reason: DisputReason, message: string, details: JsonObject = {}): Refusal {
  return refuse(DISPUT_REASONS[reason], reason, message, { ...details, reason });
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}
