/**
 * What the Authority enforces on a turn (issue 15 part 2) besides §5 and §7, each rule positive
 * and negative: the pinned config, the file name, increasing numbers, immutability (rule 2),
 * one commit per turn (rule 1), the participant holds the role and is the actor, rule 3, items
 * that reach someone, DONE with nothing pending, and the payload's own shape.
 */

import { describe, expect, it } from 'vitest';
import { parseSubmission } from '../../../src/domain/disput/submission.js';
import { disputLimits } from '../../../src/domain/disput/disputLimits.js';
import { DISPUT_REASONS } from '../../../src/domain/disput/disputRefusals.js';
import { initialDisputState } from '../../../src/domain/disput/disputTypes.js';
import { REVIEWER, WORKER2 } from '../fixtures.js';
import { BACKLOG_EMPTY, CONFIG, commitOf, dialogue, expectAccepted, expectRefused, submission, T1, T2, T3, T4, T5, T6, type Play } from './disputFixtures.js';

describe('the config in force', () => {
  it('the first turn pins disput.toml; without it the turn is refused', () => {
    expectRefused(initialDisputState(), { ...T1, config: undefined }, 'config_missing', 'INVALID_COMMAND');
    const checked = expectAccepted(initialDisputState(), T1);
    expect(checked.config?.participants.map((p) => p.name)).toEqual(['claude', 'vibe', 'codex', 'user']);
  });

  it('a pinned config must name principals and a human decider', () => {
    expectRefused(initialDisputState(), { ...T1, config: CONFIG.replace(/principal = .*\n/g, '') }, 'config_invalid', 'SCHEMA_VALIDATION_FAILED');
  });

  it('changes only by a decider turn', () => {
    const state = dialogue(T1);
    expectRefused(state, { ...T2, config: CONFIG }, 'config_pinned', 'AUTH_FORBIDDEN');
    const changed = CONFIG.replace('deny = ["git push", "git reset --hard"]', 'deny = ["git push"]');
    const checked = expectAccepted(state, { n: 2, who: 'user', role: 'decider', config: changed });
    expect(checked.config?.guards.deny).toEqual(['git push']);
  });
});

describe('the first turn and its own backlog (§7.4)', () => {
  it('a first turn that ticks the last open task is its implementer\'s turn, not DONE; the backlog recorded is the one sent', () => {
    const checked = expectAccepted(initialDisputState(), { ...T1, backlog: BACKLOG_EMPTY });
    expect(checked.backlog).toEqual({ open: 1, next: null });
  });

  it('still refuses a first turn by another participant than the backlog\'s implementer', () => {
    expectRefused(initialDisputState(), { ...T1, who: 'codex', role: 'reviewer', paths: [], backlog: BACKLOG_EMPTY }, 'not_your_turn');
  });
});

describe('the file and its place (§4, rules 1 and 2)', () => {
  const state = dialogue(T1);

  it('the file name agrees with the header', () => {
    expectRefused(state, { ...T2, fileName: '0002-vibe-security.md' }, 'file_name_mismatch', 'SCHEMA_VALIDATION_FAILED');
    expectRefused(state, { ...T2, fileName: '2-vibe-reviewer.md' }, 'file_name_mismatch');
  });

  it('a recorded turn is never modified: a second Command for its number is refused', () => {
    expectRefused(dialogue(T1, T2), { ...T2, items: ['- [I-0002-1] → @claude : version corrigée'] }, 'turn_recorded', 'INVALID_STATE_TRANSITION');
  });

  it('numbers are strictly increasing, with no unrecorded turn between', () => {
    expectRefused(state, { n: 3, who: 'vibe', role: 'reviewer' }, 'turn_number_not_next', 'INVALID_STATE_TRANSITION');
    expectRefused(initialDisputState(), { ...T1, n: 2, base: '0000000' }, 'turn_number_not_next');
  });

  it('base is the previous turn\'s commit (HEAD at the turn\'s start)', () => {
    expectRefused(state, { ...T2, base: 'abcdef0' }, 'base_not_previous', 'INVALID_STATE_TRANSITION');
    expectAccepted(state, { ...T2, base: commitOf(1) });
  });

  it('each turn has its own commit', () => {
    expectRefused(state, { ...T2, commit: commitOf(1) }, 'commit_reused', 'INVALID_STATE_TRANSITION');
  });
});

describe('who plays (§6)', () => {
  const state = dialogue(T1);

  it('a participant of the config', () => {
    expectRefused(state, { ...T2, who: 'mistral' }, 'participant_unknown', 'AUTH_FORBIDDEN', WORKER2);
  });

  it('played by its own principal, not by another member', () => {
    expectRefused(state, T2, 'participant_not_actor', 'AUTH_FORBIDDEN', REVIEWER);
  });

  it('holding the role', () => {
    expectRefused(state, { ...T2, role: 'security' }, 'role_not_held', 'AUTH_FORBIDDEN');
  });
});

describe('rule 3: every item waiting for the participant gets an explicit answer', () => {
  const state = dialogue(T1, T2);

  it('one missing answer refuses the turn, naming the items', () => {
    const refusal = expectRefused(state, { ...T3, answers: ['- [I-0002-1] ACCEPTÉ : fait'] }, 'answer_missing', 'INVALID_COMMAND');
    expect(refusal.error.details?.items).toEqual(['I-0002-2']);
  });

  it('one answer per item is enough', () => {
    expect(expectAccepted(state, T3).turn.answers.map((a) => [a.item, a.verdict])).toEqual([
      ['I-0002-1', 'ACCEPTÉ'],
      ['I-0002-2', 'REJETÉ'],
    ]);
  });

  it('the author must act on its REJETÉ and CORRIGÉ items when it plays', () => {
    expectRefused(dialogue(T1, T2, T3, T4), { ...T5, answers: ['- [I-0002-1] CLOS : vérifié'] }, 'answer_missing');
  });
});

describe('new items reach someone', () => {
  const state = dialogue(T1);

  it.each([
    ['an unknown participant', '- [I-0002-1] → @mistral : ?', 'addressee_unknown'],
    ['an unknown role', '- [I-0002-1] → role:qa : ?', 'addressee_unknown'],
    ['its own author', '- [I-0002-1] → @vibe : note à moi-même', 'item_self_addressed'],
  ])('refuses an item to %s', (_case, line, reason) => {
    expectRefused(state, { ...T2, items: [line] }, reason, 'INVALID_COMMAND');
  });

  it('accepts role:decider, the human', () => {
    expectAccepted(state, { ...T2, items: ['- [I-0002-1] → role:decider : quelle licence ?'] });
  });
});

describe('status DONE', () => {
  it('is refused while items stay unresolved', () => {
    const done: Play = { n: 7, who: 'user', role: 'decider', status: 'DONE' };
    expectRefused(dialogue(T1, T2, T3, T4, T5), { ...done, n: 6 }, 'answer_missing');
    expectRefused(dialogue(T1, T2), { ...done, n: 3, answers: [] }, 'done_with_pending_items', 'INVALID_COMMAND');
    expectAccepted(dialogue(T1, T2, T3, T4, T5, T6), done);
  });

  it('is refused while §7 still names a player — a review due, an open backlog task: DONE means done', () => {
    // vibe reviews turn 1's diff and opens nothing, but the backlog's top task is still open (§7.4).
    const open = expectRefused(dialogue(T1), { ...T2, items: [], status: 'DONE' }, 'done_with_pending_work', 'INVALID_COMMAND');
    expect(open.error.details).toMatchObject({ step: 'backlog', task: 'Ajouter la connexion' });
    // The last task done with code: its review is due (§7.3), whatever the implementer says.
    const lastTask: Play = { ...T1, backlog: BACKLOG_EMPTY };
    const review = expectRefused(dialogue(), { ...lastTask, status: 'DONE' }, 'done_with_pending_work');
    expect(review.error.details).toMatchObject({ step: 'triggered', participant: 'vibe', roles: ['reviewer'] });
    expect(expectAccepted(dialogue(lastTask), { n: 2, who: 'vibe', role: 'reviewer', status: 'DONE' }).turn.status).toBe('DONE');
  });
});

describe('the Command payload', () => {
  const good = submission(T2);

  it('is read strictly: invalid_payload', () => {
    for (const bad of [null, [], { ...good, extra: 1 }, { ...good, commit: 'abc' }, { ...good, commit: commitOf(2).toUpperCase() }, { ...good, text: 3 }, { ...good, changedPaths: 'src' }, { ...good, config: 1 }]) {
      const result = parseSubmission(bad);
      expect('ok' in result && [result.error.code, result.error.reason]).toEqual(['SCHEMA_VALIDATION_FAILED', 'invalid_payload']);
    }
    expect(parseSubmission(good)).toEqual(good);
  });

  it('is bounded (disputLimits)', () => {
    const paths = Array.from({ length: disputLimits.maxChangedPaths + 1 }, (_, i) => `src/f${i}.ts`);
    expect(parseSubmission({ ...good, changedPaths: paths })).toMatchObject({ ok: false, error: { reason: 'disput_limit' } });
    expect(parseSubmission({ ...good, backlog: 'x'.repeat(disputLimits.backlogTextMaxChars + 1) })).toMatchObject({ ok: false, error: { reason: 'disput_limit' } });
  });
});

describe('the refusal table', () => {
  it('maps every reason to a §19 code', () => {
    const codes = new Set(Object.values(DISPUT_REASONS));
    expect([...codes].sort()).toEqual(['AUTH_FORBIDDEN', 'INVALID_COMMAND', 'INVALID_STATE_TRANSITION', 'SCHEMA_VALIDATION_FAILED']);
  });
});

describe('disputLimits', () => {
  it('are all positive, and NNNN\'s four digits hold every turn a dialogue may have', () => {
    for (const value of Object.values(disputLimits)) expect(value).toBeGreaterThan(0);
    expect(disputLimits.maxTurns).toBeLessThanOrEqual(9999);
  });

  it('bound the turns of a dialogue', () => {
    const started = dialogue(T1);
    const first = started.turns[0] as (typeof started.turns)[number];
    const turns = Array.from({ length: disputLimits.maxTurns }, (_, i) => ({ ...first, number: i + 1, commit: commitOf(i + 1), codeChanged: false, triggered: [] }));
    const full = { ...started, turns, backlog: null };
    const n = disputLimits.maxTurns + 1;
    expectRefused(full, { n, who: 'user', role: 'decider' }, 'disput_limit', 'INVALID_COMMAND');
    expectAccepted({ ...full, turns: turns.slice(0, -1) }, { n: n - 1, who: 'user', role: 'decider' });
  });

  it('bound one line of Réponses or Items', () => {
    const long = `- [I-0002-1] → @claude : ${'x'.repeat(disputLimits.lineMaxChars)}`;
    expectRefused(dialogue(T1), { ...T2, items: [long] }, 'disput_limit');
  });
});
