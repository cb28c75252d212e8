/**
 * The turn file (seed §4), to the letter: a TOML header between `+++` lines (`turn`,
 * `participant`, `role`, `base`, `status`), a `# Tour N` title, then the `##` sections Réponses,
 * Travail, Vérifications, Items and Décision requise, each at most once. Réponses and Items are
 * read line by line (`turnLines.ts`); the other sections are prose. A `##` inside a fenced code
 * block is prose too, so quoting a turn file in Travail does not open a section.
 */

import { parse as parseToml } from 'smol-toml';
import type { Refusal } from '../model.js';
import { disputLimits } from './disputLimits.js';
import { disputRefusal, isRefusal } from './disputRefusals.js';
import { TURN_STATUSES, type Answer, type NewItem, type TurnFile, type TurnHeader, type TurnStatus } from './disputTypes.js';
import { ITEM_ID, parseAnswerLine, parseItemLine } from './turnLines.js';

export const NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
/** §4 « Nom : NNNN-<participant>-<role>.md »; names have no `-`, so the split is unambiguous. */
const FILE_NAME = /^(\d{4})-([a-z][a-z0-9_]*)-([a-z][a-z0-9_]*)\.md$/;
const SHA = /^[0-9a-f]{7,64}$/;
const HEADER_KEYS = ['turn', 'participant', 'role', 'base', 'status'] as const;

export type Section = 'reponses' | 'travail' | 'verifications' | 'items' | 'decision requise';
const SECTIONS: readonly Section[] = ['reponses', 'travail', 'verifications', 'items', 'decision requise'];

export interface FileName {
  readonly turn: number;
  readonly participant: string;
  readonly role: string;
}

export function parseFileName(name: string): FileName | Refusal {
  const match = FILE_NAME.exec(name);
  if (match === null) return disputRefusal('file_name_mismatch', `${name.slice(0, 80)} is not NNNN-<participant>-<role>.md`);
  const [, digits, participant, role] = match as unknown as [string, string, string, string];
  return { turn: Number(digits), participant, role };
}

/** The file name the header calls for. */
export function fileNameOf(header: Pick<TurnHeader, 'turn' | 'participant' | 'role'>): string {
  return `${String(header.turn).padStart(4, '0')}-${header.participant}-${header.role}.md`;
}

function headerInvalid(why: string): Refusal {
  return disputRefusal('turn_header_invalid', `the +++ header: ${why}`);
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= disputLimits.nameMaxChars && NAME_PATTERN.test(value);
}

export function parseHeader(toml: string): TurnHeader | Refusal {
  let raw: Record<string, unknown>;
  try {
    // Integers as bigint: TOML tells `turn = 2` (an integer) from `turn = 2.0` (a float), and only
    // the integer is a turn number; JavaScript's numbers would read both as 2.
    raw = parseToml(toml, { integersAsBigInt: true }) as Record<string, unknown>;
  } catch (error) {
    return headerInvalid(`not TOML (${error instanceof Error ? error.message.split('\n')[0] : 'parse error'})`);
  }
  for (const key of Object.keys(raw)) if (!(HEADER_KEYS as readonly string[]).includes(key)) return headerInvalid(`unknown field ${key}`);
  const { turn: rawTurn, participant, role, base, status } = raw;
  if (typeof rawTurn !== 'bigint' || rawTurn < 1n || rawTurn > 9999n) return headerInvalid('turn is a TOML integer from 1 to 9999');
  const turn = Number(rawTurn);
  if (!isName(participant)) return headerInvalid('participant is a short lower-case name');
  if (!isName(role)) return headerInvalid('role is a short lower-case name');
  if (typeof base !== 'string' || !SHA.test(base)) return headerInvalid('base is the commit at the turn\'s start (hex)');
  if (!(TURN_STATUSES as readonly unknown[]).includes(status)) return headerInvalid(`status is one of ${TURN_STATUSES.join(' | ')}`);
  return { turn, participant, role, base, status: status as TurnStatus };
}

function sectionOf(line: string): Section | 'unknown' | undefined {
  if (!line.startsWith('## ')) return undefined;
  const name = line.slice(3).normalize('NFD').replace(/\p{Mn}/gu, '').trim().toLowerCase();
  return (SECTIONS as readonly string[]).includes(name) ? (name as Section) : 'unknown';
}

interface Body {
  readonly title: string;
  readonly sections: ReadonlyMap<Section, readonly string[]>;
}

function splitBody(lines: readonly string[], turn: number): Body | Refusal {
  let index = lines.findIndex((line) => line.trim().length > 0);
  const titleLine = index < 0 ? '' : (lines[index] as string);
  const title = /^# Tour 0*(\d+)\b(.*)$/.exec(titleLine);
  if (title === null || Number(title[1]) !== turn) return disputRefusal('turn_section_invalid', `the body opens with « # Tour ${turn} … »`);
  const sections = new Map<Section, string[]>();
  let current: string[] | undefined;
  let fenced = false;
  for (index += 1; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    const section = fenced ? undefined : sectionOf(line);
    if (section === 'unknown') return disputRefusal('turn_section_invalid', `unknown section ${line.slice(0, 80)} (Réponses, Travail, Vérifications, Items, Décision requise)`);
    if (section !== undefined) {
      if (sections.has(section)) return disputRefusal('turn_section_invalid', `section ${line} appears twice`);
      current = [];
      sections.set(section, current);
    } else if (current !== undefined) {
      current.push(line);
    }
  }
  return { title: (title[2] ?? '').trim(), sections };
}

function readAnswers(lines: readonly string[]): Answer[] | Refusal {
  const answers: Answer[] = [];
  for (const line of lines) {
    if (line.trim().length === 0) continue;
    const answer = parseAnswerLine(line.trimEnd());
    if (isRefusal(answer)) return answer;
    if (answers.some((a) => a.item === answer.item)) return disputRefusal('answer_duplicate', `${answer.item} is answered twice in this turn`);
    answers.push(answer);
  }
  if (answers.length > disputLimits.maxAnswersPerTurn) return disputRefusal('disput_limit', `a turn gives at most ${disputLimits.maxAnswersPerTurn} answers`);
  return answers;
}

function readItems(lines: readonly string[], turn: number): NewItem[] | Refusal {
  const items: NewItem[] = [];
  for (const line of lines) {
    if (line.trim().length === 0) continue;
    const item = parseItemLine(line.trimEnd());
    if (isRefusal(item)) return item;
    // §4 « I-<tour sur 4 chiffres>-<n>, attribué par son auteur »: the turn part is this turn.
    if (Number(ITEM_ID.exec(item.id)?.[1]) !== turn) return disputRefusal('item_id_invalid', `${item.id} is not an id of turn ${turn}`);
    if (items.some((i) => i.id === item.id)) return disputRefusal('item_id_invalid', `${item.id} is opened twice`);
    items.push(item);
  }
  if (items.length > disputLimits.maxItemsPerTurn) return disputRefusal('disput_limit', `a turn opens at most ${disputLimits.maxItemsPerTurn} items`);
  return items;
}

/** The file's lines split at its `+++` header: the header's TOML and the body's lines. */
function splitHeader(text: string): { toml: string; body: string[] } | Refusal {
  const lines = text.split(/\r?\n/);
  if (lines[0] !== '+++') return headerInvalid('the file starts with a +++ line');
  const close = lines.indexOf('+++', 1);
  if (close < 0) return headerInvalid('no closing +++ line');
  return { toml: lines.slice(1, close).join('\n'), body: lines.slice(close + 1) };
}

/**
 * The `base` the header names, read as TOML (any string spelling) even when another field is
 * wrong: the commit a first turn started from, which the tool checks it from before the parser's
 * own refusal is reported.
 */
export function headerBaseOf(text: string): string | undefined {
  if (text.length > disputLimits.turnTextMaxChars) return undefined;
  const split = splitHeader(text);
  if (isRefusal(split)) return undefined;
  try {
    const { base } = parseToml(split.toml);
    return typeof base === 'string' && SHA.test(base) ? base : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a turn file as committed; the first refusal found, with its stable reason. */
export function parseTurnFile(text: string): TurnFile | Refusal {
  if (text.length > disputLimits.turnTextMaxChars) return disputRefusal('disput_limit', `a turn file holds at most ${disputLimits.turnTextMaxChars} characters`);
  const split = splitHeader(text);
  if (isRefusal(split)) return split;
  const header = parseHeader(split.toml);
  if (isRefusal(header)) return header;
  const body = splitBody(split.body, header.turn);
  if (isRefusal(body)) return body;
  const answers = readAnswers(body.sections.get('reponses') ?? []);
  if (isRefusal(answers)) return answers;
  const items = readItems(body.sections.get('items') ?? [], header.turn);
  if (isRefusal(items)) return items;
  const decision = body.sections.get('decision requise');
  const turn: TurnFile = { header, title: body.title, answers, items };
  return decision === undefined ? turn : { ...turn, decision: decision.join('\n').trim() };
}
