/**
 * The Parley slice's evolve: each Event carries what the decision settled (numbers, authors,
 * times, the thread's new state and turn), so folding it is bookkeeping, never judgement.
 */

import type { PostedPayload } from './decidePost.js';
import type { ParleyState, ParleyThread } from './parleyTypes.js';

export function evolvePosted(state: ParleyState, payload: PostedPayload): ParleyState {
  const { message, thread: t } = payload;
  const before = state.threads[t.number];
  const base: ParleyThread = before ?? {
    number: t.number,
    // A thread's first Event always names its creator (decidePost.openThread).
    creator: t.creator ?? message.from,
    createdAt: message.createdAt,
    state: t.state,
    stateOrigin: t.stateOrigin,
    stateConfirmedAt: t.stateConfirmedAt,
    lastMessageAt: message.createdAt,
    lastMessage: message.number,
    messages: [],
    log: [],
  };
  const { turn: _previous, ...rest } = base;
  const thread: ParleyThread = {
    ...rest,
    state: t.state,
    stateOrigin: t.stateOrigin,
    stateConfirmedAt: t.stateConfirmedAt,
    ...(t.turn === undefined ? {} : { turn: t.turn }),
    lastMessageAt: message.createdAt,
    lastMessage: message.number,
    messages: [...base.messages, message.number],
    log: t.change === undefined ? base.log : [...base.log, t.change],
  };
  return {
    ...state,
    threads: { ...state.threads, [thread.number]: thread },
    messages: { ...state.messages, [message.number]: message },
    nextMessage: Math.max(state.nextMessage, message.number + 1),
    nextThread: Math.max(state.nextThread, t.number + 1),
  };
}
