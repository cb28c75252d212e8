/**
 * The thread state machine (seed « La machine à états »): forward only, open → answered →
 * decided → closed, two steps at once when the act carries them (`decide` on an open thread
 * carries its answer, `close` on an answered one its decision); deferred · obsolete · rejected
 * are side ends; a confirmed end accepts nothing but `reopen`.
 */

import type { Refusal } from '../model.js';
import { parleyRefusal } from './parleyRefusals.js';
import { invalidBody, type Envelope } from './envelope.js';
import { FORWARD_RANK, MAX_FORWARD_STEPS } from './speechActs.js';
import { SIDE_ENDS, type ParleyThread, type ThreadState } from './parleyTypes.js';

export function isEnd(state: ThreadState): boolean {
  return state === 'closed' || SIDE_ENDS.includes(state);
}

/** Seed: « Un closed confirmé n'accepte plus aucun message — pour personne. » Side ends too. */
export function lockRefusal(thread: ParleyThread, kind: Envelope['kind']): Refusal | undefined {
  if (kind === 'reopen' || !isEnd(thread.state) || thread.stateConfirmedAt === null) return undefined;
  return thread.state === 'closed'
    ? parleyRefusal('thread_closed', 'a confirmed closed thread accepts no message until it is reopened')
    : parleyRefusal('thread_ended', `a confirmed ${thread.state} thread accepts no message until moderation reopens it`);
}

function notForward(from: ThreadState, to: ThreadState): Refusal {
  return parleyRefusal('not_forward', `a ${from} thread cannot be marked ${to}`);
}

function forward(from: ThreadState, to: ThreadState): ThreadState | Refusal {
  const a = FORWARD_RANK[from];
  const b = FORWARD_RANK[to];
  if (a === undefined || b === undefined || b < a) return notForward(from, to);
  if (b - a > MAX_FORWARD_STEPS) {
    return parleyRefusal('too_many_steps', `${from} → ${to} skips more than the act carries`);
  }
  return to;
}

/**
 * The state `envelope` marks on `thread`, `undefined` when it marks none (a plain message, or an
 * `answer` once the thread is past open), or why it may not.
 */
export function markedState(thread: ParleyThread, envelope: Envelope): ThreadState | undefined | Refusal {
  const from = thread.state;
  switch (envelope.kind) {
    case 'ask':
    case 'clarify':
    case 'object':
      return undefined;
    case 'answer':
      // An answer is a mark only on an open thread; later it is a message (never backwards).
      return from === 'open' ? 'answered' : undefined;
    case 'decide':
      return from === 'open' || from === 'answered' || from === 'decided' ? 'decided' : notForward(from, 'decided');
    case 'close':
      return forward(from, 'closed');
    case 'shelve':
      if (envelope.end === undefined) return invalidBody('shelve names its end: deferred, obsolete or rejected');
      return envelope.end;
    case 'reopen':
      return isEnd(from) ? 'open' : parleyRefusal('not_ended', `a ${from} thread is not closed nor ended`);
    case 'confirm':
      return thread.stateConfirmedAt === null ? from : parleyRefusal('nothing_to_confirm', 'the thread\'s state is already confirmed');
  }
}
