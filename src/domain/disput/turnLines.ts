/**
 * The lines of « ## Réponses » and « ## Items » (seed §4: « une ligne par item, avec
 * l'identifiant entre crochets en tête. Ce format sert au parsing et DOIT être respecté à la
 * lettre »). Keywords are read with or without their accents (§5 « Le parseur DEVRAIT accepter
 * les mots-clés avec ou sans accent »), upper case only, as the seed writes them.
 */

import { disputRefusal } from './disputRefusals.js';
import { disputLimits } from './disputLimits.js';
import type { Refusal } from '../model.js';
import { VERDICTS, type Addressee, type Answer, type NewItem, type Verdict } from './disputTypes.js';

export const ITEM_ID = /^I-(\d{4})-([1-9]\d{0,2})$/;
const ID = 'I-\\d{4}-[1-9]\\d{0,2}';
const NAME = '[a-z][a-z0-9_]*';
/** `→` as the seed writes it, `->` for keyboards without it. */
const ARROW = '(?:→|->)';
const TARGET = `(@${NAME}|role:${NAME})`;

const ANSWER_LINE = new RegExp(`^- \\[(${ID})\\] ([A-ZÉ]+)(?: \\(([0-9a-f]{7,64})\\))?(?: ${ARROW} ${TARGET})? ?: (.*\\S.*)$`);
const ITEM_LINE = new RegExp(`^- \\[(${ID})\\] ${ARROW} ${TARGET} ?: (.*\\S.*)$`);
/** Several ids in one bracket or several brackets: a grouped answer (rule 3). */
const GROUPED = new RegExp(`^- \\[${ID}\\s*[,;/&]|^- \\[${ID}\\]\\s*,?\\s*\\[${ID}\\]`);

/** Accents off, so `ACCEPTE` reads as `ACCEPTÉ`. */
function unaccented(word: string): string {
  return word.normalize('NFD').replace(/\p{Mn}/gu, '');
}

const VERDICT_BY_SPELLING: ReadonlyMap<string, Verdict> = new Map(VERDICTS.map((v) => [unaccented(v), v]));

export function verdictOf(word: string): Verdict | undefined {
  return VERDICT_BY_SPELLING.get(unaccented(word.normalize('NFC')));
}

export function parseAddressee(text: string): Addressee {
  return text.startsWith('@') ? { kind: 'participant', name: text.slice(1) } : { kind: 'role', name: text.slice('role:'.length) };
}

function invalidLine(section: string, line: string, why: string): Refusal {
  return disputRefusal('turn_line_invalid', `${section}: ${why}: ${line.slice(0, 120)}`);
}

function tooLong(line: string): Refusal | undefined {
  return [...line].length > disputLimits.lineMaxChars ? disputRefusal('disput_limit', `a line holds at most ${disputLimits.lineMaxChars} characters`) : undefined;
}

/** `- [I-0016-1] ACCEPTÉ : …`, `- [I-0016-3] CORRIGÉ (a1b2c3d) : …`, `- [I-0016-2] ESCALADÉ → @user : …`. */
export function parseAnswerLine(line: string): Answer | Refusal {
  const long = tooLong(line);
  if (long !== undefined) return long;
  const text = line.normalize('NFC');
  if (GROUPED.test(text)) return disputRefusal('answer_grouped', `one answer per item, one item per line: ${text.slice(0, 120)}`);
  const match = ANSWER_LINE.exec(text);
  if (match === null) return invalidLine('Réponses', text, 'not « - [I-NNNN-n] VERDICT : text »');
  const [, item, word, sha, target, body] = match as unknown as [string, string, string, string | undefined, string | undefined, string];
  const verdict = verdictOf(word);
  if (verdict === undefined) return invalidLine('Réponses', text, `${word} is not one of ${VERDICTS.join(', ')}`);
  if ((verdict === 'CORRIGÉ') !== (sha !== undefined)) return invalidLine('Réponses', text, 'CORRIGÉ, and only CORRIGÉ, names its commit: CORRIGÉ (<sha>)');
  if (target !== undefined && verdict !== 'ESCALADÉ') return invalidLine('Réponses', text, 'only ESCALADÉ names whom it goes to');
  const answer: Answer = { item, verdict, text: body.trim() };
  if (sha !== undefined) return { ...answer, sha };
  if (verdict === 'ESCALADÉ') return { ...answer, escalatedTo: target === undefined ? { kind: 'role', name: 'decider' } : parseAddressee(target) };
  return answer;
}

/** `- [I-0017-1] → @claude : …`, `- [I-0017-2] → role:security : …`. */
export function parseItemLine(line: string): NewItem | Refusal {
  const long = tooLong(line);
  if (long !== undefined) return long;
  const text = line.normalize('NFC');
  const match = ITEM_LINE.exec(text);
  if (match === null) return invalidLine('Items', text, 'not « - [I-NNNN-n] → @participant : text » nor « → role:<rôle> »');
  const [, id, target, body] = match as unknown as [string, string, string, string];
  return { id, to: parseAddressee(target), text: body.trim() };
}
