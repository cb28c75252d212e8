/**
 * Seed §5: item state is derived from the turns only. Every edge of the lifecycle, who may set
 * each verdict, and a rebuild from scratch that agrees with the state turn by turn.
 */

import { describe, expect, it } from 'vitest';
import { applyTurn, foldItems, maySet, setterOf, TRANSITIONS, type ItemState } from '../../../src/domain/disput/items.js';
import type { DisputConfig, DisputState } from '../../../src/domain/disput/disputTypes.js';
import { dialogue, continueDialogue, expectRefused, T1, T2, T3, T4, T5, T6, type Play } from './disputFixtures.js';

function statusOf(state: DisputState, id: string): string | undefined {
  return foldItems(state.turns).find((item) => item.id === id)?.status;
}

const OPENED = dialogue(T1, T2);

describe('item state is folded from the turns (§5)', () => {
  it('is stored nowhere: the slice holds turns and config, no item state', () => {
    const state = dialogue(T1, T2, T3, T4, T5, T6);
    expect(Object.keys(state).sort()).toEqual(['backlog', 'config', 'configTurn', 'turns']);
    expect(JSON.stringify(state)).not.toContain('"status":"CLOS"');
  });

  it('a rebuild from scratch agrees with the state after every turn', () => {
    const plays = [T1, T2, T3, T4, T5, T6];
    let incremental = new Map<string, ItemState>();
    for (let i = 1; i <= plays.length; i++) {
      const state = dialogue(...plays.slice(0, i));
      incremental = applyTurn(incremental, state.turns.at(-1) as DisputState['turns'][number]);
      expect(foldItems(state.turns)).toEqual([...incremental.values()]);
    }
    const final = foldItems(dialogue(...plays).turns);
    expect(final.map((item) => [item.id, item.status, item.author, item.history.map((h) => `${h.turn}:${h.participant}:${h.verdict}`)])).toEqual([
      ['I-0002-1', 'CLOS', 'vibe', ['3:claude:ACCEPTÉ', '4:claude:CORRIGÉ', '5:vibe:CLOS']],
      ['I-0002-2', 'CLOS', 'vibe', ['3:claude:REJETÉ', '5:vibe:ESCALADÉ', '6:user:CLOS']],
    ]);
    expect(final[0]?.fixedBy).toBe('0003ccc');
  });

  it('OUVERT when opened, by its author, to its addressee', () => {
    expect(foldItems(OPENED.turns)[0]).toMatchObject({ id: 'I-0002-1', status: 'OUVERT', author: 'vibe', to: { kind: 'participant', name: 'claude' }, openedIn: 2 });
  });
});

const answer = (n: number, who: string, role: string, answers: string[], extra: Partial<Play> = {}): Play => ({ n, who, role, answers, ...extra });

describe('the lifecycle (§5), edge by edge', () => {
  it('OUVERT → ACCEPTÉ → CORRIGÉ → CLOS', () => {
    const accepted = continueDialogue(OPENED, answer(3, 'claude', 'implementer', ['- [I-0002-1] ACCEPTÉ : je corrige', '- [I-0002-2] ACCEPTÉ : aussi']));
    expect(statusOf(accepted, 'I-0002-1')).toBe('ACCEPTÉ');
    // An ACCEPTÉ item waits for its fix: the addressee keeps the hand.
    const fixed = continueDialogue(accepted, answer(4, 'claude', 'implementer', ['- [I-0002-1] CORRIGE (abcdef1) : fait', '- [I-0002-2] CORRIGÉ (abcdef1) : fait'], { paths: ['src/login.ts'] }));
    expect(statusOf(fixed, 'I-0002-1')).toBe('CORRIGÉ');
    const closed = continueDialogue(fixed, answer(5, 'vibe', 'reviewer', ['- [I-0002-1] CLOS : vu', '- [I-0002-2] CLOS : vu']));
    expect(statusOf(closed, 'I-0002-1')).toBe('CLOS');
  });

  it('CORRIGÉ → ROUVERT goes back to OUVERT, and the addressee must answer again', () => {
    const fixed = dialogue(T1, T2, T3, T4);
    const reopened = continueDialogue(fixed, answer(5, 'vibe', 'reviewer', ['- [I-0002-1] ROUVERT : le test échoue encore', '- [I-0002-2] CLOS : soit']));
    expect(statusOf(reopened, 'I-0002-1')).toBe('OUVERT');
    expectRefused(reopened, answer(6, 'claude', 'implementer', []), 'answer_missing', 'INVALID_COMMAND');
    expectRefused(reopened, answer(6, 'claude', 'implementer', ['- [I-0002-1] CORRIGÉ (abcdef2) : vraiment'], { paths: ['src/login.ts'] }), 'item_transition_invalid');
    expect(statusOf(continueDialogue(reopened, answer(6, 'claude', 'implementer', ['- [I-0002-1] ACCEPTÉ : vraiment, cette fois'], { paths: ['src/login.ts'] })), 'I-0002-1')).toBe('ACCEPTÉ');
  });

  it('REJETÉ → CLOS by the author', () => {
    const rejected = continueDialogue(OPENED, answer(3, 'claude', 'implementer', ['- [I-0002-1] REJETÉ : non', '- [I-0002-2] REJETÉ : non']));
    expect(statusOf(rejected, 'I-0002-2')).toBe('REJETÉ');
    expect(statusOf(continueDialogue(rejected, answer(4, 'vibe', 'reviewer', ['- [I-0002-1] CLOS : soit', '- [I-0002-2] CLOS : soit'])), 'I-0002-2')).toBe('CLOS');
  });

  it('REJETÉ → ESCALADÉ → settled by its target: CLOS, or ROUVERT back to the addressee', () => {
    const escalated = dialogue(T1, T2, T3, T4, T5);
    expect(statusOf(escalated, 'I-0002-2')).toBe('ESCALADÉ');
    expect(statusOf(continueDialogue(escalated, T6), 'I-0002-2')).toBe('CLOS');
    expect(statusOf(continueDialogue(escalated, { ...T6, answers: ['- [I-0002-2] ROUVERT : ajoutez la limite'] }), 'I-0002-2')).toBe('OUVERT');
  });

  it('refuses ESCALADÉ on a CORRIGÉ item (item_transition_invalid)', () => {
    // After T4, I-0002-1 is CORRIGÉ and I-0002-2 REJETÉ; their author plays turn 5.
    expectRefused(dialogue(T1, T2, T3, T4), answer(5, 'vibe', 'reviewer', ['- [I-0002-1] ESCALADÉ : non', '- [I-0002-2] CLOS : soit']), 'item_transition_invalid', 'INVALID_STATE_TRANSITION');
  });

  it('CORRIGÉ follows ACCEPTÉ, never OUVERT: an item is accepted first, fixed after (§5, « ACCEPTÉ ── CORRIGÉ »)', () => {
    expectRefused(OPENED, answer(3, 'claude', 'implementer', ['- [I-0002-1] CORRIGÉ (abcdef1) : fait', '- [I-0002-2] REJETÉ : non'], { paths: ['src/login.ts'] }), 'item_transition_invalid', 'INVALID_STATE_TRANSITION');
  });

  it('the table has exactly the seed\'s edges', () => {
    const edges = Object.entries(TRANSITIONS).flatMap(([verdict, t]) => t.from.map((from) => `${from} -${verdict}-> ${t.to}`));
    expect(edges.sort()).toEqual([
      'ACCEPTÉ -CORRIGÉ-> CORRIGÉ',
      'CORRIGÉ -CLOS-> CLOS',
      'CORRIGÉ -ROUVERT-> OUVERT',
      'ESCALADÉ -CLOS-> CLOS',
      'ESCALADÉ -ROUVERT-> OUVERT',
      'OUVERT -ACCEPTÉ-> ACCEPTÉ',
      'OUVERT -REJETÉ-> REJETÉ',
      'REJETÉ -CLOS-> CLOS',
      'REJETÉ -ESCALADÉ-> ESCALADÉ',
    ]);
  });

  it('refuses a second ACCEPTÉ and a REJETÉ after ACCEPTÉ', () => {
    const accepted = continueDialogue(OPENED, answer(3, 'claude', 'implementer', ['- [I-0002-1] ACCEPTÉ : je corrige', '- [I-0002-2] ACCEPTÉ : aussi']));
    expectRefused(accepted, answer(4, 'claude', 'implementer', ['- [I-0002-1] ACCEPTÉ : encore']), 'item_transition_invalid');
    expectRefused(accepted, answer(4, 'claude', 'implementer', ['- [I-0002-1] REJETÉ : finalement non']), 'item_transition_invalid');
  });
});

describe('who sets a verdict (§5)', () => {
  it('ACCEPTÉ, REJETÉ and CORRIGÉ are the addressee\'s: the author may not accept its own item', () => {
    // The human may play at any time (§10): a convenient non-addressee.
    expectRefused(OPENED, answer(3, 'user', 'decider', ['- [I-0002-1] ACCEPTÉ : oui']), 'answer_not_addressee', 'AUTH_FORBIDDEN');
  });

  it('CLOS, ROUVERT and ESCALADÉ are the author\'s: the addressee may not close', () => {
    expectRefused(dialogue(T1, T2, T3, T4), answer(5, 'user', 'decider', ['- [I-0002-1] CLOS : je ferme']), 'answer_not_author', 'AUTH_FORBIDDEN');
  });

  it('an ESCALADÉ item is settled by its target, not by its author', () => {
    const escalated = dialogue(T1, T2, T3, T4, T5);
    const item = foldItems(escalated.turns).find((i) => i.id === 'I-0002-2') as ItemState;
    const config = escalated.config as DisputConfig;
    expect(setterOf('CLOS', item.status)).toBe('escalation');
    expect(maySet(config, item, 'CLOS', 'user', 'decider')).toBe(true);
    expect(maySet(config, item, 'CLOS', 'vibe', 'reviewer')).toBe(false);
    // In a turn, the author is told it is not its turn first: the hand is the human's (§7.2).
    expectRefused(escalated, answer(6, 'vibe', 'reviewer', ['- [I-0002-2] CLOS : tant pis']), 'not_your_turn');
  });

  it('an answer names an item some earlier turn opened', () => {
    expectRefused(OPENED, answer(3, 'claude', 'implementer', ['- [I-0002-1] ACCEPTÉ : oui', '- [I-0002-2] ACCEPTÉ : oui', '- [I-0002-9] ACCEPTÉ : ?']), 'item_unknown', 'INVALID_COMMAND');
  });
});
