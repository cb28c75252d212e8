/**
 * Item state (seed §5), folded from the recorded turns and from nothing else: « L'état d'un item
 * n'est stocké nulle part : il se déduit de la suite des fichiers de tour ». The lifecycle:
 *
 *   OUVERT ─ ACCEPTÉ ─ CORRIGÉ ─┬─ CLOS            ACCEPTÉ, REJETÉ, CORRIGÉ: the addressee
 *          │                    └─ ROUVERT → OUVERT   CLOS, ROUVERT, ESCALADÉ: the author
 *          └ REJETÉ ───────────┬─ CLOS
 *                              └─ ESCALADÉ → role:decider, role:arbiter or @user
 *
 * CORRIGÉ follows ACCEPTÉ only, as the seed draws it: a fix made in the turn that accepts the item
 * is told under ACCEPTÉ (§4's example: « ACCEPTÉ : <ce qui est fait, ou va l'être> »), one line per
 * item (§4), and CORRIGÉ (<sha>) names the fixing commit in the addressee's next turn, which §7.2
 * gives it (« le destinataire pour répondre ou corriger »).
 *
 * Where the seed is silent: the escalation's target settles an ESCALADÉ item with CLOS (the
 * rejection stands) or ROUVERT (it goes back to the addressee).
 */

import type { Addressee, DisputConfig, RecordedTurn, Verdict } from './disputTypes.js';

export type ItemStatus = 'OUVERT' | 'ACCEPTÉ' | 'REJETÉ' | 'CORRIGÉ' | 'CLOS' | 'ESCALADÉ';

export interface ItemState {
  readonly id: string;
  readonly openedIn: number;
  readonly author: string;
  readonly to: Addressee;
  readonly status: ItemStatus;
  readonly escalatedTo?: Addressee;
  /** CORRIGÉ (<sha>): the last fix named. */
  readonly fixedBy?: string;
  /** Every verdict, with the turn and the participant that set it. */
  readonly history: readonly { readonly turn: number; readonly participant: string; readonly verdict: Verdict }[];
}

/** Who may set a verdict: the item's addressee, its author, or on an ESCALADÉ item its target. */
export type Setter = 'addressee' | 'author' | 'escalation';

interface Transition {
  readonly from: readonly ItemStatus[];
  readonly to: ItemStatus;
}

export const TRANSITIONS: Readonly<Record<Verdict, Transition>> = {
  ACCEPTÉ: { from: ['OUVERT'], to: 'ACCEPTÉ' },
  REJETÉ: { from: ['OUVERT'], to: 'REJETÉ' },
  CORRIGÉ: { from: ['ACCEPTÉ'], to: 'CORRIGÉ' },
  CLOS: { from: ['REJETÉ', 'CORRIGÉ', 'ESCALADÉ'], to: 'CLOS' },
  ROUVERT: { from: ['CORRIGÉ', 'ESCALADÉ'], to: 'OUVERT' },
  ESCALADÉ: { from: ['REJETÉ'], to: 'ESCALADÉ' },
};

/** §5: who sets `verdict` on an item in `status`. */
export function setterOf(verdict: Verdict, status: ItemStatus): Setter {
  if (verdict === 'ACCEPTÉ' || verdict === 'REJETÉ' || verdict === 'CORRIGÉ') return 'addressee';
  return status === 'ESCALADÉ' ? 'escalation' : 'author';
}

/**
 * Whether `participant`, playing `role`, is `to`: the participant itself, or a holder of the role
 * playing it who is not the item's author (an author does not answer its own item).
 */
export function isAddressee(config: DisputConfig, to: Addressee, participant: string, role: string, author: string): boolean {
  if (to.kind === 'participant') return to.name === participant;
  return to.name === role && participant !== author && config.participants.some((p) => p.name === participant && p.roles.includes(role));
}

export function maySet(config: DisputConfig, item: ItemState, verdict: Verdict, participant: string, role: string): boolean {
  switch (setterOf(verdict, item.status)) {
    case 'addressee':
      return isAddressee(config, item.to, participant, role, item.author);
    case 'author':
      return participant === item.author;
    case 'escalation':
      return item.escalatedTo !== undefined && isAddressee(config, item.escalatedTo, participant, role, item.author);
  }
}

export function isResolved(item: ItemState): boolean {
  return item.status === 'CLOS';
}

/** Who acts next on an unresolved item (§7.2): the addressee to answer or fix, the author to close, reopen or escalate. */
export function actorOf(item: ItemState): Addressee | undefined {
  switch (item.status) {
    case 'OUVERT':
    case 'ACCEPTÉ':
      return item.to;
    case 'REJETÉ':
    case 'CORRIGÉ':
      return { kind: 'participant', name: item.author };
    case 'ESCALADÉ':
      return item.escalatedTo;
    case 'CLOS':
      return undefined;
  }
}

/**
 * Rule 3 and §8.6: the items that wait for an explicit answer from `participant` playing `role`.
 * An ACCEPTÉ item is not among them: it was answered, and waits for its fix (CORRIGÉ) instead.
 */
export function awaitingAnswer(config: DisputConfig, items: readonly ItemState[], participant: string, role: string): ItemState[] {
  return items.filter((item) => {
    if (item.status === 'ACCEPTÉ' || item.status === 'CLOS') return false;
    const actor = actorOf(item);
    return actor !== undefined && isAddressee(config, actor, participant, role, item.author);
  });
}

/** One turn's effect on the items; answers were checked when the turn was recorded. */
export function applyTurn(items: ReadonlyMap<string, ItemState>, turn: Pick<RecordedTurn, 'number' | 'participant' | 'answers' | 'items'>): Map<string, ItemState> {
  const next = new Map(items);
  for (const answer of turn.answers) {
    const item = next.get(answer.item);
    if (item === undefined) continue;
    const entry = { turn: turn.number, participant: turn.participant, verdict: answer.verdict };
    const { escalatedTo: _was, ...rest } = item;
    const base = { ...rest, status: TRANSITIONS[answer.verdict].to, history: [...item.history, entry] };
    const escalated = answer.verdict === 'ESCALADÉ' ? answer.escalatedTo : answer.verdict === 'ROUVERT' ? undefined : item.escalatedTo;
    const fixed = answer.sha ?? item.fixedBy;
    next.set(answer.item, { ...base, ...(escalated === undefined ? {} : { escalatedTo: escalated }), ...(fixed === undefined ? {} : { fixedBy: fixed }) });
  }
  for (const opened of turn.items) {
    next.set(opened.id, { id: opened.id, openedIn: turn.number, author: turn.participant, to: opened.to, status: 'OUVERT', history: [] });
  }
  return next;
}

/** Every item, folded from scratch over `turns`, oldest first. */
export function foldItems(turns: readonly Pick<RecordedTurn, 'number' | 'participant' | 'answers' | 'items'>[]): ItemState[] {
  let items = new Map<string, ItemState>();
  for (const turn of turns) items = applyTurn(items, turn);
  return [...items.values()];
}
