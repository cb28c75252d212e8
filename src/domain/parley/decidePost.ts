/**
 * The decision of one Parley message (seed « Conformité »: an envelope per § enveloppe, a kind
 * per § actes, transitions per § états, authorized per § autorité). Pure: the speaker's rights,
 * the time and the slice are given; the result is the `posted` Event's payload or a refusal.
 */

import type { Refusal } from '../model.js';
import { parleyRefusal } from './parleyRefusals.js';
import { authorOf, confirms, hasThreadAuthority, mayReopen, originOf, threadAuthorityMissing, tokenRightMissing } from './authority.js';
import { invalidBody, type Envelope } from './envelope.js';
import { parleyLimits } from './parleyLimits.js';
import type { Author, ParleyMessage, ParleyState, ParleyThread, Speaker, StateChange, ThreadState, Turn } from './parleyTypes.js';
import { ACT_RULES } from './speechActs.js';
import { lockRefusal, markedState } from './transitions.js';

/** The `posted` Event: the message, and the thread as it stands after it. */
export interface PostedPayload {
  readonly message: ParleyMessage;
  readonly thread: {
    readonly number: number;
    /** Present when the message opened the thread. */
    readonly creator?: Author;
    readonly state: ThreadState;
    readonly stateOrigin: ParleyThread['stateOrigin'];
    readonly stateConfirmedAt: string | null;
    readonly turn?: Turn;
    readonly change?: StateChange;
  };
}

export type PostDecision = { readonly ok: true; readonly payload: PostedPayload } | Refusal;

function limit(message: string): Refusal {
  return parleyRefusal('parley_limit', message);
}

function party(author: { identity: string; extension?: string }): Turn {
  return author.extension === undefined ? { to: 'party', identity: author.identity } : { to: 'party', identity: author.identity, extension: author.extension };
}

function message(state: ParleyState, thread: number, envelope: Envelope, speaker: Speaker, now: string, depth: number, awaiting: Turn | undefined): ParleyMessage {
  return {
    number: state.nextMessage,
    thread,
    ...(envelope.parent === undefined ? {} : { parent: envelope.parent }),
    kind: envelope.kind,
    from: authorOf(speaker),
    body: envelope.body,
    ...(envelope.provenance === undefined ? {} : { provenance: envelope.provenance }),
    createdAt: now,
    ...(awaiting === undefined ? {} : { awaiting }),
    depth,
  };
}

function openThread(state: ParleyState, envelope: Envelope, speaker: Speaker, now: string): PostDecision {
  if (envelope.parent !== undefined) return invalidBody('an ask that opens a thread has no parent');
  if (Object.keys(state.threads).length >= parleyLimits.maxThreads) return limit(`a Group keeps at most ${parleyLimits.maxThreads} threads`);
  const turn = envelope.to === undefined ? ({ to: 'anyone' } as const) : party(envelope.to);
  const origin = originOf(speaker);
  return {
    ok: true,
    payload: {
      message: message(state, state.nextThread, envelope, speaker, now, 0, turn),
      thread: { number: state.nextThread, creator: authorOf(speaker), state: 'open', stateOrigin: origin, stateConfirmedAt: confirms(speaker) ? now : null, turn },
    },
  };
}

/** Seed « Autorité »: the right of the token first, then authority over this thread. */
function authorize(thread: ParleyThread, envelope: Envelope, speaker: Speaker): Refusal | undefined {
  if (envelope.kind === 'confirm') return confirms(speaker) ? undefined : tokenRightMissing('only a lock holder or the human confirms a state');
  if (envelope.kind === 'reopen') return mayReopen(thread, speaker);
  if (ACT_RULES[envelope.kind].needsThreadAuthority && !hasThreadAuthority(thread, speaker)) {
    return threadAuthorityMissing(`${envelope.kind} needs the creator, the lock right or the human`);
  }
  return undefined;
}

/** Who must answer after this message (seed: the last message names who must answer). */
function turnAfter(thread: ParleyThread, envelope: Envelope, parent: ParleyMessage | undefined, state: ThreadState, confirmed: boolean): Turn | undefined {
  const creator = party(thread.creator);
  switch (envelope.kind) {
    case 'ask':
    case 'reopen':
      return envelope.to === undefined ? { to: 'anyone' } : party(envelope.to);
    case 'answer':
    case 'clarify':
    case 'object':
      return parent === undefined ? { to: 'anyone' } : party(parent.from);
    default:
      // A mark: a proposal awaits its confirmation; a confirmed end awaits no one.
      if (!confirmed) return { to: 'authority' };
      if (state === 'open') return { to: 'anyone' };
      return state === 'answered' || state === 'decided' ? creator : undefined;
  }
}

export function decidePost(state: ParleyState, speaker: Speaker, envelope: Envelope, now: string): PostDecision {
  if (!speaker.rights.write) return tokenRightMissing('this Membership may read Parley, not write');
  if (envelope.kind === 'ask' && envelope.thread === undefined) return openThread(state, envelope, speaker, now);
  const parent = envelope.parent === undefined ? undefined : state.messages[envelope.parent];
  if (envelope.parent !== undefined && parent === undefined) return parleyRefusal('unknown_parent', `msg_${envelope.parent} does not exist`);
  const threadNumber = envelope.thread ?? parent?.thread;
  if (threadNumber === undefined) return invalidBody(`${envelope.kind} names its thread or its parent`);
  const thread = state.threads[threadNumber];
  if (thread === undefined) return parleyRefusal('unknown_thread', `th_${threadNumber} does not exist`);
  if (parent !== undefined && parent.thread !== thread.number) return parleyRefusal('unknown_parent', `msg_${parent.number} is not in th_${thread.number}`);
  if (ACT_RULES[envelope.kind].reply && parent === undefined) return invalidBody(`${envelope.kind} names the message it answers (parent)`);
  const locked = lockRefusal(thread, envelope.kind);
  if (locked !== undefined) return locked;
  // What the thread's state forbids to everyone is said before what this speaker may not do:
  // the same situation gets the same answer (a reopen of an open thread is not_ended for all).
  const marked = markedState(thread, envelope);
  if (typeof marked === 'object') return marked;
  const unauthorized = authorize(thread, envelope, speaker);
  if (unauthorized !== undefined) return unauthorized;
  // Seed « Identité et extensions »: the loop guard is per (identity, extension), and a message
  // with a parent replies to it, whatever its act (an ask, a mark): none may reply to its own.
  if (parent !== undefined && parent.from.identity === speaker.identity && parent.from.extension === speaker.extension) {
    return parleyRefusal('self_reply', 'the same (identity, extension) cannot answer its own message');
  }
  if (thread.messages.length >= parleyLimits.maxMessagesPerThread) return limit(`a thread holds at most ${parleyLimits.maxMessagesPerThread} messages`);
  const depth = parent === undefined ? 1 : parent.depth + 1;
  if (depth > parleyLimits.maxDepth) return limit(`replies nest at most ${parleyLimits.maxDepth} deep`);
  return { ok: true, payload: afterMark(state, thread, envelope, speaker, now, parent, depth, marked) };
}

function afterMark(state: ParleyState, thread: ParleyThread, envelope: Envelope, speaker: Speaker, now: string, parent: ParleyMessage | undefined, depth: number, marked: ThreadState | undefined): PostedPayload {
  const confirming = confirms(speaker);
  // A new state, or a confirmer re-marking (or confirming) a proposed one, is a state change.
  const changes = marked !== undefined && (marked !== thread.state || (confirming && thread.stateConfirmedAt === null));
  const next = changes ? marked : thread.state;
  const origin = envelope.kind === 'confirm' ? thread.stateOrigin : changes ? originOf(speaker) : thread.stateOrigin;
  const confirmedAt = changes ? (confirming ? now : null) : thread.stateConfirmedAt;
  const turn = turnAfter(thread, envelope, parent, next, confirmedAt !== null);
  const msg = message(state, thread.number, envelope, speaker, now, depth, turn);
  const change: StateChange | undefined = changes
    ? { message: msg.number, from: thread.state, to: next, origin: originOf(speaker), label: msg.from.label, at: now, confirmedAt }
    : undefined;
  return {
    message: msg,
    thread: {
      number: thread.number,
      state: next,
      stateOrigin: origin,
      stateConfirmedAt: confirmedAt,
      ...(turn === undefined ? {} : { turn }),
      ...(change === undefined ? {} : { change }),
    },
  };
}
