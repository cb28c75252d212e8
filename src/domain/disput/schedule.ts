/**
 * Who plays next (seed §7), a pure function of the config, the recorded turns and the backlog:
 *
 * 1. the last turn has status USER: stop, the decider plays;
 * 2. the oldest unresolved item gives the hand to whoever must act on it;
 * 3. the roles the last code change triggered (`code_changed`, `paths:`), in `disput.toml` order,
 *    each once on that diff, held by someone other than the code's author (rule 7); closed early
 *    by the anti ping-pong rule;
 * 4. the backlog's highest open non-[USER] task goes to the implementer who implemented least
 *    recently;
 * 5. DONE.
 *
 * Within one role, the eligible participant who played least recently goes first (§7), never
 * played before played long ago, ties in config order.
 */

import { actorOf, foldItems, isResolved, type ItemState } from './items.js';
import { isReviewRole } from './triggers.js';
import { DECIDER_ROLE, holdersOf, participantOf, type BacklogSummary, type DisputConfig, type RecordedTurn } from './disputTypes.js';

export type NextStep = 'status_user' | 'item_pending' | 'triggered' | 'backlog' | 'done';

export interface Next {
  readonly step: NextStep;
  /** Absent when the dialogue is DONE. */
  readonly participant?: string;
  /** The roles it may play this turn: one, or any it holds when an item names it by name. */
  readonly roles: readonly string[];
  /** The item that gave the hand (step 2), or the backlog task (step 4). */
  readonly item?: string;
  readonly task?: string;
  readonly why: string;
}

export interface DialogueView {
  readonly config: DisputConfig;
  readonly turns: readonly RecordedTurn[];
  readonly backlog: BacklogSummary | null;
}

function lastIndex(turns: readonly RecordedTurn[], participant: string, role?: string): number {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i] as RecordedTurn;
    if (turn.participant === participant && (role === undefined || turn.role === role)) return i;
  }
  return -1;
}

/** The candidate who played least recently (in `role` when given), ties in config order. */
export function leastRecent(turns: readonly RecordedTurn[], candidates: readonly string[], role?: string): string | undefined {
  let best: string | undefined;
  let bestIndex = Infinity;
  for (const name of candidates) {
    const index = lastIndex(turns, name, role);
    if (index < bestIndex) [best, bestIndex] = [name, index];
  }
  return best;
}

/** The last turn that changed code: the diff §7.3 and rule 7 talk about. */
export function currentDiff(turns: readonly RecordedTurn[]): { readonly index: number; readonly turn: RecordedTurn } | undefined {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i] as RecordedTurn;
    if (turn.codeChanged) return { index: i, turn };
  }
  return undefined;
}

/**
 * §7 anti ping-pong: « si deux tours de review successifs sur le même diff n'ouvrent aucun item
 * et ne posent aucun REJETÉ, le dialogue sur ce diff est clos ».
 */
export function reviewClosed(config: DisputConfig, turns: readonly RecordedTurn[]): boolean {
  const diff = currentDiff(turns);
  if (diff === undefined) return false;
  const reviews = turns.slice(diff.index + 1).filter((t) => isReviewRole(config, t.role));
  const lastTwo = reviews.slice(-2);
  return lastTwo.length === 2 && lastTwo.every((t) => t.items.length === 0 && !t.answers.some((a) => a.verdict === 'REJETÉ'));
}

function forItem(view: DialogueView, item: ItemState): Next | undefined {
  const actor = actorOf(item);
  if (actor === undefined) return undefined;
  const why = `${item.id} is ${item.status}`;
  if (actor.kind === 'participant') {
    const who = participantOf(view.config, actor.name);
    if (who === undefined) return undefined;
    return { step: 'item_pending', participant: who.name, roles: who.roles, item: item.id, why: `${why}: @${who.name} acts on it` };
  }
  const candidates = holdersOf(view.config, actor.name).map((p) => p.name).filter((name) => name !== item.author);
  const participant = leastRecent(view.turns, candidates);
  if (participant === undefined) return undefined;
  return { step: 'item_pending', participant, roles: [actor.name], item: item.id, why: `${why}: role:${actor.name} acts on it` };
}

function forDiff(view: DialogueView): Next | undefined {
  const diff = currentDiff(view.turns);
  if (diff === undefined || reviewClosed(view.config, view.turns)) return undefined;
  const since = view.turns.slice(diff.index + 1);
  for (const role of diff.turn.triggered) {
    if (since.some((t) => t.role === role)) continue;
    // Rule 7: the reviewer of a diff is not its author.
    const candidates = holdersOf(view.config, role).map((p) => p.name).filter((name) => name !== diff.turn.participant);
    const participant = leastRecent(view.turns, candidates);
    if (participant !== undefined) return { step: 'triggered', participant, roles: [role], why: `turn ${diff.turn.number} changed code that ${role} reviews` };
  }
  return undefined;
}

/** §7.4: the role that takes backlog tasks: the first with a `backlog` trigger, else `implementer`. */
export function backlogRole(config: DisputConfig): string | undefined {
  return config.roles.find((r) => r.triggers.some((t) => t.kind === 'backlog'))?.name ?? config.roles.find((r) => r.name === 'implementer')?.name;
}

function forBacklog(view: DialogueView): Next | undefined {
  const task = view.backlog?.next;
  const role = backlogRole(view.config);
  if (task === undefined || task === null || role === undefined) return undefined;
  const participant = leastRecent(view.turns, holdersOf(view.config, role).map((p) => p.name), role);
  if (participant === undefined) return undefined;
  return { step: 'backlog', participant, roles: [role], task, why: `the backlog's top task: ${task}` };
}

export function nextTurn(view: DialogueView): Next {
  const last = view.turns.at(-1);
  if (last?.status === 'USER') {
    const decider = leastRecent(view.turns, holdersOf(view.config, DECIDER_ROLE).map((p) => p.name));
    return { step: 'status_user', ...(decider === undefined ? {} : { participant: decider }), roles: [DECIDER_ROLE], why: `turn ${last.number} asks for a decision` };
  }
  for (const item of foldItems(view.turns)) {
    if (isResolved(item)) continue;
    const next = forItem(view, item);
    if (next !== undefined) return next;
  }
  return forDiff(view) ?? forBacklog(view) ?? { step: 'done', roles: [], why: 'no pending item, no review due, no open backlog task' };
}
