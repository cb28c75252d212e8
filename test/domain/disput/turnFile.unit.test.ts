/**
 * Seed §4: the turn file to the letter (header, title, sections, answer and item lines, file
 * name), §5's keywords with or without accents, rule 3's ban on grouped answers.
 */

import { describe, expect, it } from 'vitest';
import { disputLimits } from '../../../src/domain/disput/disputLimits.js';
import { fileNameOf, headerBaseOf, parseFileName, parseTurnFile } from '../../../src/domain/disput/turnFile.js';
import { parseAnswerLine, parseItemLine } from '../../../src/domain/disput/turnLines.js';
import type { TurnFile } from '../../../src/domain/disput/disputTypes.js';
import type { Refusal } from '../../../src/domain/model.js';
import { turnText } from './disputFixtures.js';

function parsed(text: string): TurnFile {
  const result = parseTurnFile(text);
  if ('ok' in result) expect.fail(`refused: ${result.error.reason} ${result.error.message}`);
  return result;
}

function refusedWith(result: object, reason: string, code = 'SCHEMA_VALIDATION_FAILED'): void {
  expect('ok' in result && (result as Refusal).error.reason).toBe(reason);
  expect((result as Refusal).error.code).toBe(code);
  expect((result as Refusal).error.details?.reason).toBe(reason);
}

const SEED_EXAMPLE = `+++
turn = 17
participant = "vibe"
role = "implementer"
base = "a1b2c3d"          # HEAD au début du tour
status = "USER"           # CONTINUE | USER | DONE
+++

# Tour 17 — vibe, implementer : le login

## Réponses
- [I-0016-1] ACCEPTÉ : fait dans src/login.ts
- [I-0016-2] REJETÉ : la bibliothèque le fait déjà

## Travail
Le login, avec ses tests.

## Vérifications
npm test : vert.

## Items
- [I-0017-1] → @claude : faut-il un captcha ?
- [I-0017-2] → role:security : audit du hachage

## Décision requise
1. bcrypt 2. argon2 — recommandation : 2
`;

describe('the turn file header (§4)', () => {
  it('reads the seed\'s own example: header, title, answers, items, decision', () => {
    const file = parsed(SEED_EXAMPLE);
    expect(file.header).toEqual({ turn: 17, participant: 'vibe', role: 'implementer', base: 'a1b2c3d', status: 'USER' });
    expect(file.title).toBe('— vibe, implementer : le login');
    expect(file.answers).toEqual([
      { item: 'I-0016-1', verdict: 'ACCEPTÉ', text: 'fait dans src/login.ts' },
      { item: 'I-0016-2', verdict: 'REJETÉ', text: 'la bibliothèque le fait déjà' },
    ]);
    expect(file.items).toEqual([
      { id: 'I-0017-1', to: { kind: 'participant', name: 'claude' }, text: 'faut-il un captcha ?' },
      { id: 'I-0017-2', to: { kind: 'role', name: 'security' }, text: 'audit du hachage' },
    ]);
    expect(file.decision).toBe('1. bcrypt 2. argon2 — recommandation : 2');
  });

  it.each([
    ['no opening +++', SEED_EXAMPLE.replace(/^\+\+\+\n/, '')],
    ['no closing +++', SEED_EXAMPLE.replace('+++\n\n# Tour', '\n# Tour')],
    ['not TOML', SEED_EXAMPLE.replace('turn = 17', 'turn = = 17')],
    ['an unknown field', SEED_EXAMPLE.replace('turn = 17', 'turn = 17\nauthor = "me"')],
    ['a turn that is text', SEED_EXAMPLE.replace('turn = 17', 'turn = "17"')],
    ['a turn that is a TOML float (17.0)', SEED_EXAMPLE.replace('turn = 17', 'turn = 17.0')],
    ['a turn that is a TOML float in exponent form (1.7e1)', SEED_EXAMPLE.replace('turn = 17', 'turn = 1.7e1')],
    ['turn 0', SEED_EXAMPLE.replace('turn = 17', 'turn = 0')],
    ['turn 10000 (four digits)', SEED_EXAMPLE.replace('turn = 17', 'turn = 10000')],
    ['a participant with a dash', SEED_EXAMPLE.replace('"vibe"', '"vi-be"')],
    ['an upper-case role', SEED_EXAMPLE.replace('"implementer"', '"Implementer"')],
    ['a base that is not hex', SEED_EXAMPLE.replace('a1b2c3d', 'HEAD~1')],
    ['a status outside CONTINUE | USER | DONE', SEED_EXAMPLE.replace('status = "USER"', 'status = "WAIT"')],
    ['a lower-case status', SEED_EXAMPLE.replace('status = "USER"', 'status = "user"')],
    ['a missing field', SEED_EXAMPLE.replace('base = "a1b2c3d"          # HEAD au début du tour\n', '')],
  ])('refuses %s with turn_header_invalid', (_case, text) => {
    refusedWith(parseTurnFile(text), 'turn_header_invalid');
  });

  it('reads the header as TOML: literal strings in single quotes, and an integer in another TOML spelling', () => {
    const literal = SEED_EXAMPLE.replace('"vibe"', "'vibe'").replace('"implementer"', "'implementer'").replace('"a1b2c3d"', "'a1b2c3d'").replace('"USER"', "'USER'");
    expect(parsed(literal).header).toEqual({ turn: 17, participant: 'vibe', role: 'implementer', base: 'a1b2c3d', status: 'USER' });
    expect(parsed(SEED_EXAMPLE.replace('turn = 17', 'turn = 0x11')).header.turn).toBe(17);
    // The tool's fallback start reads base alone, as TOML, whatever else the header gets wrong.
    expect([headerBaseOf(literal.replace("'USER'", "'WAIT'")), headerBaseOf(SEED_EXAMPLE.replace('"a1b2c3d"', 'a1b2c3d'))]).toEqual(['a1b2c3d', undefined]);
  });

  it('accepts CRLF line ends and a header without comments', () => {
    expect(parsed(turnText({ n: 3, who: 'claude', role: 'reviewer' }).replace(/\n/g, '\r\n')).header.turn).toBe(3);
  });
});

describe('the turn file body (§4)', () => {
  it('opens with « # Tour N »: a missing or wrong title is turn_section_invalid', () => {
    refusedWith(parseTurnFile(SEED_EXAMPLE.replace('# Tour 17', '# Turn 17')), 'turn_section_invalid');
    refusedWith(parseTurnFile(SEED_EXAMPLE.replace('# Tour 17', '# Tour 18')), 'turn_section_invalid');
    expect(parsed(SEED_EXAMPLE.replace('# Tour 17', '# Tour 0017')).header.turn).toBe(17);
  });

  it('refuses an unknown section, and a section twice', () => {
    refusedWith(parseTurnFile(SEED_EXAMPLE.replace('## Travail', '## Notes')), 'turn_section_invalid');
    refusedWith(parseTurnFile(SEED_EXAMPLE.replace('## Vérifications', '## Travail')), 'turn_section_invalid');
  });

  it('reads section titles with or without accents', () => {
    const file = parsed(SEED_EXAMPLE.replace('## Réponses', '## Reponses').replace('## Décision requise', '## Decision requise').replace('## Vérifications', '## Verifications'));
    expect(file.answers).toHaveLength(2);
    expect(file.decision).toContain('argon2');
  });

  it('treats a ## inside a fenced block as prose', () => {
    const file = parsed(SEED_EXAMPLE.replace('Le login, avec ses tests.', 'Exemple :\n```\n## Items\n- [I-0017-9] → @vibe : pas un item\n```'));
    expect(file.items.map((i) => i.id)).toEqual(['I-0017-1', 'I-0017-2']);
  });

  it('refuses prose inside Réponses or Items: one line per item, to the letter', () => {
    refusedWith(parseTurnFile(SEED_EXAMPLE.replace('## Réponses\n', '## Réponses\nJ\'ai tout corrigé.\n')), 'turn_line_invalid');
    refusedWith(parseTurnFile(SEED_EXAMPLE.replace('## Items\n', '## Items\n* [I-0017-3] → @claude : étoile\n')), 'turn_line_invalid');
  });

  it('absent sections mean none: no answers, no items, no decision', () => {
    const file = parsed('+++\nturn = 1\nparticipant = "claude"\nrole = "implementer"\nbase = "0000000"\nstatus = "CONTINUE"\n+++\n# Tour 1\n\n## Travail\nDébut.\n');
    expect([file.answers, file.items, file.decision]).toEqual([[], [], undefined]);
  });

  it('bounds the file (disputLimits.turnTextMaxChars)', () => {
    refusedWith(parseTurnFile(SEED_EXAMPLE + 'x'.repeat(disputLimits.turnTextMaxChars)), 'disput_limit', 'INVALID_COMMAND');
  });
});

describe('answer lines (§4, §5)', () => {
  it.each([
    ['ACCEPTÉ', 'ACCEPTÉ'],
    ['ACCEPTE', 'ACCEPTÉ'],
    ['REJETÉ', 'REJETÉ'],
    ['REJETE', 'REJETÉ'],
    ['CLOS', 'CLOS'],
    ['ROUVERT', 'ROUVERT'],
  ])('reads %s as %s', (word, verdict) => {
    expect(parseAnswerLine(`- [I-0016-1] ${word} : raison`)).toEqual({ item: 'I-0016-1', verdict, text: 'raison' });
  });

  it('reads a decomposed accent (NFD) as the composed one', () => {
    expect(parseAnswerLine('- [I-0016-1] ACCEPTE\u0301 : ok')).toMatchObject({ verdict: 'ACCEPTÉ' });
  });

  it('CORRIGÉ names its commit, with or without the accent; no other verdict does', () => {
    expect(parseAnswerLine('- [I-0016-1] CORRIGÉ (a1b2c3d) : comparaison en temps constant')).toEqual({ item: 'I-0016-1', verdict: 'CORRIGÉ', sha: 'a1b2c3d', text: 'comparaison en temps constant' });
    expect(parseAnswerLine('- [I-0016-1] CORRIGE (a1b2c3d) : idem')).toMatchObject({ verdict: 'CORRIGÉ', sha: 'a1b2c3d' });
    refusedWith(parseAnswerLine('- [I-0016-1] CORRIGÉ : sans sha'), 'turn_line_invalid');
    refusedWith(parseAnswerLine('- [I-0016-1] ACCEPTÉ (a1b2c3d) : sha de trop'), 'turn_line_invalid');
  });

  it('ESCALADÉ goes to role:decider unless it names @user or role:arbiter', () => {
    expect(parseAnswerLine('- [I-0016-2] ESCALADÉ : désaccord')).toMatchObject({ verdict: 'ESCALADÉ', escalatedTo: { kind: 'role', name: 'decider' } });
    expect(parseAnswerLine('- [I-0016-2] ESCALADE → @user : désaccord')).toMatchObject({ verdict: 'ESCALADÉ', escalatedTo: { kind: 'participant', name: 'user' } });
    expect(parseAnswerLine('- [I-0016-2] ESCALADÉ -> role:arbiter : désaccord')).toMatchObject({ escalatedTo: { kind: 'role', name: 'arbiter' } });
    refusedWith(parseAnswerLine('- [I-0016-2] CLOS → @user : pas une escalade'), 'turn_line_invalid');
  });

  it.each([
    ['an unknown verdict', '- [I-0016-1] OK : bien'],
    ['a lower-case verdict', '- [I-0016-1] accepté : bien'],
    ['no text', '- [I-0016-1] ACCEPTÉ :'],
    ['no id', '- ACCEPTÉ : bien'],
    ['a bad id', '- [I-16-1] ACCEPTÉ : bien'],
  ])('refuses %s', (_case, line) => {
    refusedWith(parseAnswerLine(line), 'turn_line_invalid');
  });

  it('refuses grouped answers (rule 3)', () => {
    refusedWith(parseAnswerLine('- [I-0016-1, I-0016-2] ACCEPTÉ : les deux'), 'answer_grouped');
    refusedWith(parseAnswerLine('- [I-0016-1] [I-0016-2] ACCEPTÉ : les deux'), 'answer_grouped');
  });

  it('refuses two answers to one item in a turn', () => {
    refusedWith(parseTurnFile(SEED_EXAMPLE.replace('- [I-0016-2] REJETÉ', '- [I-0016-1] REJETÉ')), 'answer_duplicate');
  });
});

describe('item lines (§4)', () => {
  it('reads @participant and role:<rôle>, with → or ->', () => {
    expect(parseItemLine('- [I-0017-1] → @claude : une question')).toEqual({ id: 'I-0017-1', to: { kind: 'participant', name: 'claude' }, text: 'une question' });
    expect(parseItemLine('- [I-0017-2] -> role:security : audit')).toMatchObject({ to: { kind: 'role', name: 'security' } });
  });

  it('refuses a line without an addressee', () => {
    refusedWith(parseItemLine('- [I-0017-1] une question'), 'turn_line_invalid');
    refusedWith(parseItemLine('- [I-0017-1] → claude : une question'), 'turn_line_invalid');
  });

  it('an item id is I-<this turn>-<n>, each once', () => {
    refusedWith(parseTurnFile(SEED_EXAMPLE.replace('[I-0017-2]', '[I-0016-2]')), 'item_id_invalid');
    refusedWith(parseTurnFile(SEED_EXAMPLE.replace('[I-0017-2]', '[I-0017-1]')), 'item_id_invalid');
  });

  it('bounds the items of a turn', () => {
    const items = Array.from({ length: disputLimits.maxItemsPerTurn + 1 }, (_, i) => `- [I-0003-${i + 1}] → @vibe : point ${i}`);
    refusedWith(parseTurnFile(turnText({ n: 3, who: 'claude', role: 'reviewer', items })), 'disput_limit', 'INVALID_COMMAND');
    expect(parsed(turnText({ n: 3, who: 'claude', role: 'reviewer', items: items.slice(1) })).items).toHaveLength(disputLimits.maxItemsPerTurn);
  });
});

describe('the file name (§4)', () => {
  it('is NNNN-<participant>-<role>.md', () => {
    expect(parseFileName('0017-vibe-implementer.md')).toEqual({ turn: 17, participant: 'vibe', role: 'implementer' });
    expect(fileNameOf({ turn: 17, participant: 'vibe', role: 'implementer' })).toBe('0017-vibe-implementer.md');
  });

  it.each(['17-vibe-implementer.md', '0017-vibe-implementer.txt', '0017-vibe.md', '0017-Vibe-implementer.md', '0017-vibe-implementer-2.md'])('refuses %s', (name) => {
    refusedWith(parseFileName(name), 'file_name_mismatch');
  });
});
