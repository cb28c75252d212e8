/**
 * The world of the disput tests: a `disput.toml` with three agents (claude, vibe, codex) and the
 * human decider (user, OWNER), turn files written as the seed writes them, and two ways to play
 * them: straight through `checkTurn` on a slice (pure rules), or as Commands of Group g1 through
 * the core kinds plus the disput profile (the real plug-in point).
 */

import { expect } from 'vitest';
import { checkTurn, type CheckedTurn, type TurnSubmission } from '../../../src/domain/disput/checkTurn.js';
import { disputConfigPinned, disputTurnRecorded } from '../../../src/domain/disput/disputProfile.js';
import { initialDisputState, type DisputState } from '../../../src/domain/disput/disputTypes.js';
import type { EventMeta, Refusal } from '../../../src/domain/model.js';
import type { Principal } from '../../../src/protocol/principal.js';
import { OWNER, REVIEWER, T0, WORKER, WORKER2 } from '../fixtures.js';

export const ACTORS: Readonly<Record<string, Principal>> = { claude: WORKER, vibe: WORKER2, codex: REVIEWER, user: OWNER };

/** The tests' `disput.toml`, its participants played by `actors` (claude, vibe, codex, user). */
export function configFor(actors: Readonly<Record<string, Principal>>): string {
  const id = (name: string): string => (actors[name] as Principal).id;
  return `# disput.toml of the tests
[[participants]]
name = "claude"
adapter = "claude"
roles = ["implementer", "reviewer"]
principal = { type = "agent", id = "${id('claude')}" }

[[participants]]
name = "vibe"
adapter = "vibe"
roles = ["implementer", "reviewer"]
principal = { type = "agent", id = "${id('vibe')}" }

[[participants]]
name = "codex"
adapter = "codex"
roles = ["reviewer"]
principal = { type = "agent", id = "${id('codex')}" }

[[participants]]
name = "user"
roles = ["decider"]
principal = { type = "human", id = "${id('user')}" }

[[roles]]
name = "implementer"
writes_code = true
triggers = ["backlog"]
brief = "Implémente la tâche du backlog."

[[roles]]
name = "reviewer"
writes_code = false
triggers = ["code_changed"]
brief = "Review sévère du diff : bugs, sécurité, hypothèses non validées, écart code/tours."

[[roles]]
name = "security"
writes_code = false
triggers = ["paths:src/auth/**"]
brief = "Audit des chemins sensibles."

[[assignments]]
role = "security"
participants = ["codex"]

[[checks]]
name = "tests"
command = "npm test"
policy = "must_pass"

[[checks]]
name = "lint"
command = "npm run lint"
policy = "no_regression"

[guards]
env = { DRY_RUN = "true" }
deny = ["git push", "git reset --hard"]
`;
}

export const CONFIG = configFor(ACTORS);

export const BACKLOG = '# Backlog\n\n- [ ] Ajouter la connexion\n- [ ] [USER] Choisir la licence\n- [ ] Écrire la doc\n';
export const BACKLOG_EMPTY = '# Backlog\n\n- [x] Ajouter la connexion\n- [ ] [USER] Choisir la licence\n';

/** Turn n's commit: distinct, and its first seven digits name it (`0003ccc`). */
export function commitOf(n: number): string {
  return n.toString(16).padStart(4, '0') + 'c'.repeat(36);
}

export function baseOf(n: number): string {
  return n === 1 ? '0000000' : commitOf(n - 1).slice(0, 7);
}

export interface TurnSpec {
  readonly n: number;
  readonly who: string;
  readonly role: string;
  readonly status?: string;
  readonly base?: string;
  readonly answers?: readonly string[];
  readonly items?: readonly string[];
  readonly decision?: string;
}

/** A turn file as the seed's §4 writes it. */
export function turnText(spec: TurnSpec): string {
  const lines = [
    '+++',
    `turn = ${spec.n}`,
    `participant = "${spec.who}"`,
    `role = "${spec.role}"`,
    `base = "${spec.base ?? baseOf(spec.n)}"          # HEAD au début du tour`,
    `status = "${spec.status ?? 'CONTINUE'}"       # CONTINUE | USER | DONE`,
    '+++',
    '',
    `# Tour ${spec.n} — ${spec.who}, ${spec.role} : un tour de test`,
    '',
    '## Réponses',
    ...(spec.answers ?? []),
    '',
    '## Travail',
    'Ce qui a été fait, et pourquoi.',
    '',
    '## Vérifications',
    'npm test : 12 tests, tous verts.',
    '',
    '## Items',
    ...(spec.items ?? []),
  ];
  if (spec.decision !== undefined) lines.push('', '## Décision requise', spec.decision);
  return `${lines.join('\n')}\n`;
}

export function fileNameOf(spec: Pick<TurnSpec, 'n' | 'who' | 'role'>): string {
  return `${String(spec.n).padStart(4, '0')}-${spec.who}-${spec.role}.md`;
}

export interface Play extends TurnSpec {
  readonly paths?: readonly string[];
  readonly config?: string;
  readonly backlog?: string;
  readonly fileName?: string;
  readonly text?: string;
  readonly commit?: string;
}

/** The Command payload of a turn: its file always among the changed paths. */
export function submission(play: Play): TurnSubmission {
  const fileName = play.fileName ?? fileNameOf(play);
  return {
    fileName,
    text: play.text ?? turnText(play),
    commit: play.commit ?? commitOf(play.n),
    changedPaths: [`.disput/turns/${fileName}`, ...(play.paths ?? [])],
    ...(play.config === undefined ? {} : { config: play.config }),
    ...(play.backlog === undefined ? {} : { backlog: play.backlog }),
  };
}

function meta(actor: Principal): EventMeta {
  return { actor, occurredAt: T0, sequence: 1, eventId: 'urn:test:event:disput' };
}

/** The slice after a checked turn, folded by the profile's own evolve functions. */
export function record(state: DisputState, checked: CheckedTurn, play: Play): DisputState {
  const actor = ACTORS[play.who] as Principal;
  const sent = submission(play);
  const pinned = checked.config === undefined ? state : disputConfigPinned.evolve(state, { turn: checked.turn.number, text: sent.config ?? '', config: checked.config }, meta(actor));
  const payload = { fileName: sent.fileName, text: sent.text, commit: sent.commit, changedPaths: sent.changedPaths, turn: checked.turn };
  return disputTurnRecorded.evolve(pinned, checked.backlog === undefined ? payload : { ...payload, backlog: checked.backlog }, meta(actor));
}

/** `play` checked on `state`, as its participant's actor (or `actor`). */
export function attempt(state: DisputState, play: Play, actor: Principal = ACTORS[play.who] as Principal): CheckedTurn | Refusal {
  return checkTurn(state, submission(play), actor, T0);
}

/** Plays each turn in order; every one must be accepted. */
export function dialogue(...plays: readonly Play[]): DisputState {
  return continueDialogue(initialDisputState(), ...plays);
}

export function continueDialogue(state: DisputState, ...plays: readonly Play[]): DisputState {
  let current = state;
  for (const play of plays) {
    const checked = attempt(current, play);
    if ('ok' in checked) expect.fail(`turn ${play.n} refused: ${checked.error.reason} (${checked.error.message})`);
    current = record(current, checked, play);
  }
  return current;
}

/** Then: `play` on `state` is refused with `reason` (and its §19 code, when given). */
export function expectRefused(state: DisputState, play: Play, reason: string, code?: string, actor?: Principal): Refusal {
  const result = attempt(state, play, actor);
  if (!('ok' in result)) expect.fail(`turn ${play.n} was accepted; expected ${reason}`);
  expect(result.error.reason).toBe(reason);
  expect(result.error.details?.reason).toBe(reason);
  if (code !== undefined) expect(result.error.code).toBe(code);
  return result;
}

export function expectAccepted(state: DisputState, play: Play): CheckedTurn {
  const result = attempt(state, play);
  if ('ok' in result) expect.fail(`turn ${play.n} refused: ${result.error.reason} (${result.error.message})`);
  return result;
}

/** Turn 1: claude implements the backlog's top task, pinning the config and sending the backlog. */
export const T1: Play = { n: 1, who: 'claude', role: 'implementer', paths: ['src/login.ts'], config: CONFIG, backlog: BACKLOG };
/** Turn 2: vibe reviews turn 1's diff and opens two items for claude. */
export const T2: Play = {
  n: 2,
  who: 'vibe',
  role: 'reviewer',
  items: ['- [I-0002-1] → @claude : le mot de passe est comparé sans temps constant', '- [I-0002-2] → @claude : pourquoi pas de limite de tentatives ?'],
};

/** Turn 3: claude accepts I-0002-1 (and fixes it in this turn's code) and rejects I-0002-2, ticking its task. */
export const T3: Play = {
  n: 3,
  who: 'claude',
  role: 'implementer',
  answers: ['- [I-0002-1] ACCEPTÉ : comparaison en temps constant, faite dans ce tour', '- [I-0002-2] REJETÉ : la limite est au proxy, pas ici'],
  paths: ['src/login.ts'],
  backlog: BACKLOG_EMPTY,
};
/** Turn 4: claude, who keeps the hand on its ACCEPTÉ item (§7.2), names the fixing commit: CORRIGÉ follows ACCEPTÉ (§5). */
export const T4: Play = { n: 4, who: 'claude', role: 'implementer', answers: ['- [I-0002-1] CORRIGÉ (0003ccc) : comparaison en temps constant'] };
/** Turn 5: vibe, the items' author, closes the fix and escalates the rejection to the human. */
export const T5: Play = { n: 5, who: 'vibe', role: 'reviewer', answers: ['- [I-0002-1] CLOS : vérifié, le test passe', '- [I-0002-2] ESCALADÉ → @user : je maintiens, à trancher'] };
/** Turn 6: the human decides the escalated item. */
export const T6: Play = { n: 6, who: 'user', role: 'decider', answers: ['- [I-0002-2] CLOS : la limite reste au proxy'] };
