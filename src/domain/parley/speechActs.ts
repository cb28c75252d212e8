/**
 * The nine speech acts of Parley v1 (seed « Les neuf actes de langage »: exactly nine, none other
 * in the core). The seed's own list is lost; these nine are rebuilt from its state machine and
 * text (docs/parley.md gives the reasons). `ask`, `answer` and `decide` are the seed's; each
 * transition of its diagram has one act (`answer`, `decide`, `close`, `shelve`, `reopen`), the
 * proposal rule needs `confirm`, and a conversation that cannot loop backwards needs a way to ask
 * back (`clarify`) and to contest (`object`) without moving the state.
 */

import type { ThreadState } from './parleyTypes.js';

export const SPEECH_ACTS = ['ask', 'answer', 'clarify', 'object', 'decide', 'close', 'shelve', 'reopen', 'confirm'] as const;
export type SpeechAct = (typeof SPEECH_ACTS)[number];

export function isSpeechAct(value: unknown): value is SpeechAct {
  return typeof value === 'string' && (SPEECH_ACTS as readonly string[]).includes(value);
}

export interface ActRule {
  /** What the act does, as the manifest publishes it. */
  readonly says: string;
  /** A reply must name the message it answers (`parent`); any act may name one, and the loop guard covers them all. */
  readonly reply: boolean;
  /** The act expects a reply: it sets `awaiting` (seed: the last message names who must answer). */
  readonly expectsReply: boolean;
  /** The state the act marks, when it is a mark (seed: « answer et decide sont aussi des marques »). */
  readonly marks?: ThreadState | 'side-end';
  /** Seed « Autorité »: only the thread's authority (creator, lock holder, human) may make it. */
  readonly needsThreadAuthority: boolean;
}

export const ACT_RULES: Readonly<Record<SpeechAct, ActRule>> = {
  ask: { says: 'opens a thread (or asks again inside one); awaits the named party or anyone', reply: false, expectsReply: true, needsThreadAuthority: false },
  answer: { says: 'answers a message; marks open → answered; awaits the asker', reply: true, expectsReply: true, marks: 'answered', needsThreadAuthority: false },
  clarify: { says: 'asks the author of a message to clarify it; no state change; awaits that author', reply: true, expectsReply: true, needsThreadAuthority: false },
  object: { says: 'contests a message without moving the state backwards; awaits its author', reply: true, expectsReply: true, needsThreadAuthority: false },
  decide: { says: 'marks the thread decided (from open too, carrying its answer); awaits the creator, or the authority for a proposal', reply: false, expectsReply: true, marks: 'decided', needsThreadAuthority: true },
  close: { says: 'marks the thread closed (from answered too, carrying its decision); confirmed, it locks', reply: false, expectsReply: false, marks: 'closed', needsThreadAuthority: true },
  shelve: { says: 'ends the thread aside as deferred, obsolete or rejected (member `end`)', reply: false, expectsReply: false, marks: 'side-end', needsThreadAuthority: true },
  reopen: { says: 'reopens a closed thread (creator, lock holder, human) or a side end (lock holder, human)', reply: false, expectsReply: true, marks: 'open', needsThreadAuthority: true },
  confirm: { says: 'confirms the thread\'s proposed state (lock holder or human only)', reply: false, expectsReply: false, needsThreadAuthority: true },
};

/** The forward order (seed: « Vers l'avant seulement »). */
export const FORWARD_RANK: Readonly<Partial<Record<ThreadState, number>>> = { open: 0, answered: 1, decided: 2, closed: 3 };

/** The largest jump a mark may make: « deux étapes d'un coup » when the act justifies it. */
export const MAX_FORWARD_STEPS = 2;
