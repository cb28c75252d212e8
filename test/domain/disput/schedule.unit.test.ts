/**
 * Seed §7, who plays next, step by step: USER stops everything until the decider; the oldest
 * pending item first; then the roles the diff triggered, in config order, never its author (rule
 * 7), closed early by anti ping-pong; then the backlog's top non-[USER] task for the implementer,
 * rotating; else DONE. Each step is checked as `nextTurn` says it and as the Authority enforces it.
 */

import { describe, expect, it } from 'vitest';
import { nextTurn, leastRecent } from '../../../src/domain/disput/schedule.js';
import type { DisputConfig, DisputState } from '../../../src/domain/disput/disputTypes.js';
import { summarizeBacklog } from '../../../src/domain/disput/backlog.js';
import { BACKLOG, BACKLOG_EMPTY, CONFIG, continueDialogue, dialogue, expectAccepted, expectRefused, T1, T2, T3, T4, T5, T6, type Play } from './disputFixtures.js';

function next(state: DisputState) {
  return nextTurn({ config: state.config as DisputConfig, turns: state.turns, backlog: state.backlog });
}

describe('§7.1 a USER status stops everything until the decider', () => {
  const asking: Play = { n: 2, who: 'vibe', role: 'reviewer', status: 'USER', decision: '1. garder 2. retirer — recommandation : 1' };
  const state = dialogue(T1, asking);

  it('hands the turn to the decider only', () => {
    expect(next(state)).toMatchObject({ step: 'status_user', participant: 'user', roles: ['decider'] });
    expectRefused(state, { n: 3, who: 'codex', role: 'reviewer' }, 'not_your_turn', 'INVALID_STATE_TRANSITION');
    expectRefused(state, { n: 3, who: 'claude', role: 'implementer', paths: ['src/a.ts'] }, 'not_your_turn');
    expectAccepted(state, { n: 3, who: 'user', role: 'decider' });
  });

  it('USER asks its question under « Décision requise », and only USER has one', () => {
    expectRefused(dialogue(T1), { ...asking, decision: undefined }, 'decision_missing', 'INVALID_COMMAND');
    expectRefused(dialogue(T1), { ...asking, status: 'CONTINUE' }, 'decision_unexpected', 'INVALID_COMMAND');
  });
});

describe('§7.2 the oldest pending item gives the hand', () => {
  it('to its addressee, to answer, in any role it holds when named @participant', () => {
    expect(next(dialogue(T1, T2))).toMatchObject({ step: 'item_pending', participant: 'claude', roles: ['implementer', 'reviewer'], item: 'I-0002-1' });
  });

  it('to its addressee again once ACCEPTÉ, to fix it (« le destinataire pour répondre ou corriger »)', () => {
    expect(next(dialogue(T1, T2, T3))).toMatchObject({ step: 'item_pending', participant: 'claude', item: 'I-0002-1' });
  });

  it('to its author, to close, reopen or escalate', () => {
    expect(next(dialogue(T1, T2, T3, T4))).toMatchObject({ step: 'item_pending', participant: 'vibe', item: 'I-0002-1' });
  });

  it('to the escalation\'s target', () => {
    expect(next(dialogue(T1, T2, T3, T4, T5))).toMatchObject({ step: 'item_pending', participant: 'user', roles: ['decider'], item: 'I-0002-2' });
  });

  it('to a holder of the role other than the item\'s author, in that role, for role:<rôle>', () => {
    const state = dialogue(T1, { n: 2, who: 'vibe', role: 'reviewer', items: ['- [I-0002-1] → role:security : audit du hachage'] });
    expect(next(state)).toMatchObject({ participant: 'codex', roles: ['security'] });
    expectRefused(state, { n: 3, who: 'codex', role: 'reviewer', answers: ['- [I-0002-1] ACCEPTÉ : je regarde'] }, 'not_your_turn');
    expectAccepted(state, { n: 3, who: 'codex', role: 'security', answers: ['- [I-0002-1] ACCEPTÉ : je regarde'] });
  });

  it('the oldest first: a newer item waits', () => {
    const state = dialogue(T1, { ...T2, items: ['- [I-0002-1] → @claude : premier'] }, { n: 3, who: 'claude', role: 'implementer', answers: ['- [I-0002-1] REJETÉ : non'], items: ['- [I-0003-1] → @vibe : et toi ?'] });
    expect(next(state)).toMatchObject({ participant: 'vibe', item: 'I-0002-1' });
  });
});

describe('§7.3 triggered roles review the diff', () => {
  it('each triggered role once, in config order, by someone other than the code\'s author (rule 7)', () => {
    const state = dialogue({ ...T1, paths: ['src/auth/login.ts'] });
    expect(next(state)).toMatchObject({ step: 'triggered', participant: 'vibe', roles: ['reviewer'] });
    expectRefused(state, { n: 2, who: 'claude', role: 'reviewer' }, 'reviewer_is_author', 'AUTH_FORBIDDEN');
    const reviewed = continueDialogue(state, { n: 2, who: 'vibe', role: 'reviewer', items: ['- [I-0002-1] → @claude : un point'] });
    const answered = continueDialogue(reviewed, { n: 3, who: 'claude', role: 'implementer', answers: ['- [I-0002-1] REJETÉ : non'] });
    const closed = continueDialogue(answered, { n: 4, who: 'vibe', role: 'reviewer', answers: ['- [I-0002-1] CLOS : soit'] });
    // reviewer has played on this diff: security is next.
    expect(next(closed)).toMatchObject({ step: 'triggered', participant: 'codex', roles: ['security'] });
  });

  it('the least recent eligible holder plays', () => {
    expect(leastRecent(dialogue(T1, T2).turns, ['vibe', 'codex'])).toBe('codex');
    expect(leastRecent(dialogue(T1).turns, ['vibe', 'codex'])).toBe('vibe');
  });

  it('a writes_code = false role changes only .disput/ (§8.5)', () => {
    expectRefused(dialogue(T1), { ...T2, paths: ['src/login.ts'] }, 'role_writes_no_code', 'AUTH_FORBIDDEN');
  });

  describe('anti ping-pong', () => {
    const withPerf = `${CONFIG}\n[[roles]]\nname = "perf"\nwrites_code = false\ntriggers = ["code_changed"]\n\n[[assignments]]\nrole = "perf"\nparticipants = ["codex"]\n`;
    const start: Play = { ...T1, config: withPerf, paths: ['src/auth/login.ts'] };

    it('two review turns on one diff with no item and no REJETÉ close it', () => {
      const state = dialogue(start, { n: 2, who: 'vibe', role: 'reviewer' }, { n: 3, who: 'codex', role: 'security' });
      // perf has not played, but the review of this diff is closed: the backlog goes on.
      expect(next(state)).toMatchObject({ step: 'backlog', participant: 'vibe', roles: ['implementer'] });
      expectRefused(state, { n: 4, who: 'codex', role: 'perf' }, 'review_closed', 'INVALID_STATE_TRANSITION');
    });

    it('a review turn that opened an item keeps it open', () => {
      const state = dialogue(
        start,
        { n: 2, who: 'vibe', role: 'reviewer' },
        { n: 3, who: 'codex', role: 'security', items: ['- [I-0003-1] → @claude : jeton en clair'] },
        { n: 4, who: 'claude', role: 'implementer', answers: ['- [I-0003-1] REJETÉ : il est chiffré'] },
        { n: 5, who: 'codex', role: 'security', answers: ['- [I-0003-1] CLOS : vu'] },
      );
      expect(next(state)).toMatchObject({ step: 'triggered', participant: 'codex', roles: ['perf'] });
    });
  });
});

describe('§7.4 the backlog', () => {
  it('its highest open task that is not [USER]', () => {
    expect(summarizeBacklog(BACKLOG)).toEqual({ open: 3, next: 'Ajouter la connexion' });
    expect(summarizeBacklog(BACKLOG_EMPTY)).toEqual({ open: 1, next: null });
  });

  it('starts the dialogue: the first turn\'s backlog names the implementer, in config order', () => {
    expectRefused(dialogue(), { ...T1, who: 'vibe' }, 'not_your_turn');
    expectAccepted(dialogue(), T1);
  });

  it('rotates to the implementer who implemented least recently', () => {
    const reviewed = dialogue(T1, { n: 2, who: 'vibe', role: 'reviewer' });
    expect(next(reviewed)).toMatchObject({ step: 'backlog', participant: 'vibe', roles: ['implementer'], task: 'Ajouter la connexion' });
    expectRefused(reviewed, { n: 3, who: 'claude', role: 'implementer', paths: ['src/b.ts'] }, 'not_your_turn');
  });
});

describe('§7.5 DONE', () => {
  it('nothing pending, no review due, no open non-[USER] task: only the decider may play', () => {
    const done = dialogue(T1, T2, T3, T4, T5, T6);
    expect(next(done)).toMatchObject({ step: 'done', roles: [] });
    expect(next(done).participant).toBeUndefined();
    expectRefused(done, { n: 7, who: 'claude', role: 'implementer', paths: ['src/c.ts'] }, 'dialogue_done', 'INVALID_STATE_TRANSITION');
    expectAccepted(done, { n: 7, who: 'user', role: 'decider', status: 'DONE' });
  });
});
