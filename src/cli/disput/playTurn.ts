/**
 * `disput play` and `disput decide`: find the newly committed turn file, check the repository
 * through the one `RepoCheck` seam (§8), and record the turn in the Group as the signed Command
 * `ext.missionweave.disput.turn` — the file exactly as committed, HEAD's full sha, the paths
 * changed since the last recorded turn, and `disput.toml` / `.disput/backlog.md` when the turn
 * sends them. The Authority then enforces the rules it can see (docs/disput.md).
 */

import { compareRecordedTurns } from '../../client/disput/recordedTurns.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { timestampOf } from '../../app/issueDocuments.js';
import { checkTurn } from '../../domain/disput/checkTurn.js';
import { headerBaseOf } from '../../domain/disput/turnFile.js';
import { isRefusal } from '../../domain/disput/disputRefusals.js';
import { DECIDER_ROLE, type DisputState } from '../../domain/disput/disputTypes.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { remoteRefs } from '../../client/disput/gitFacts.js';
import { turnStartOf, type TurnStart } from '../../client/disput/invariants.js';
import { recordTurnStart } from '../../client/disput/localFiles.js';
import type { NodeLink } from './nodeLink.js';
import { readDialogue } from './dialogue.js';
import { BACKLOG_PATH, CONFIG_PATH, ROOT_CONFIG_PATH, TURNS_DIR, type GitRepo, type RepoCheck } from './repoChecks.js';

export const TURN_KIND = 'ext.missionweave.disput.turn';
/** A commit no turn can have recorded, for checking a turn before it is committed. */
const PLACEHOLDER_COMMIT = 'f'.repeat(40);

export interface PlayResult {
  readonly ok: boolean;
  /** What `play` prints as its last line. */
  readonly report: JsonObject;
}

function numberOf(fileName: string): number {
  return Number(/^(\d{4})-/.exec(fileName)?.[1] ?? Number.NaN);
}

/**
 * §3.2: each recorded turn file as the folder holds it at HEAD, when it differs from the Group's
 * (the tool's `compareRecordedTurns`, as `check` reads it; files the Group never recorded are
 * `play`'s business, not a disagreement here).
 */
export async function folderDifferences(repo: GitRepo, head: string, texts: ReadonlyMap<string, string>): Promise<string[]> {
  const recorded = [...texts].map(([fileName, text]) => ({ fileName, text }));
  return (await compareRecordedTurns(repo.root, head, recorded)).flatMap((d) => {
    if (d.reason === 'turn_file_absent') return [`${d.fileName}: recorded in the Group, missing from the folder`];
    if (d.reason === 'turn_file_differs') return [`${d.fileName}: the folder's file differs from the recorded one`];
    return [];
  });
}

function refused(reason: string, message: string, extra: JsonObject = {}): PlayResult {
  return { ok: false, report: { ok: false, reason, message, ...extra } };
}

/** The one turn file HEAD holds that the Group has not recorded, numbered past the last recorded turn. */
export function freshTurnFiles(repo: GitRepo, head: string, state: DisputState, texts: ReadonlyMap<string, string>): string[] {
  const last = state.turns.at(-1)?.number ?? 0;
  return repo.turnFiles(head).filter((name) => !texts.has(name) && numberOf(name) > last);
}

/**
 * Records the one turn file HEAD adds since the last recorded turn, once the §8 check passes;
 * then records the next turn's start (this turn's end is where the next one begins).
 */
export async function playTurn(link: NodeLink, groupId: string, repo: GitRepo, check: RepoCheck, start?: TurnStart): Promise<PlayResult> {
  const { state, texts } = readDialogue(await link.events(groupId));
  const head = repo.head();
  const differences = await folderDifferences(repo, head, texts);
  const last = state.turns.at(-1);
  const fresh = freshTurnFiles(repo, head, state, texts);
  if (fresh.length !== 1) return refused('turn_file_not_found', `exactly one new turn file in ${TURNS_DIR}/ is played at a time; found ${fresh.length}`, { files: fresh, differences });
  const fileName = fresh[0] as string;
  // One git call for every file the play and its check read at HEAD, instead of a `git show` each.
  repo.readFiles(head, [`${TURNS_DIR}/${fileName}`, CONFIG_PATH, ROOT_CONFIG_PATH, BACKLOG_PATH]);
  const text = repo.fileAt(head, `${TURNS_DIR}/${fileName}`) as string;
  const base = headerBaseOf(text);
  const from = last?.commit ?? (base === undefined ? undefined : repo.resolve(base));
  const changedPaths = repo.changedPaths(from, head);
  const checked = await check({ repo, state, head, fileName, ...(start === undefined ? {} : { start }) });
  const problems = [...checked.problems, ...differences];
  if (problems.length > 0) {
    return refused('repo_check_failed', 'the repository does not satisfy §8; nothing was recorded', { reasons: [...checked.reasons, ...(differences.length > 0 ? ['turn_file_differs'] : [])], problems, notes: [...checked.notes] });
  }

  const payload: JsonObject = { fileName, text, commit: head, changedPaths };
  const config = repo.configAt(head);
  if (config !== undefined && (state.config === null || changedPaths.includes(CONFIG_PATH) || changedPaths.includes(ROOT_CONFIG_PATH))) payload['config'] = config.text;
  const backlog = repo.fileAt(head, BACKLOG_PATH);
  if (backlog !== undefined && (state.config === null || changedPaths.includes(BACKLOG_PATH))) payload['backlog'] = backlog;
  const outcome = await link.submit(groupId, TURN_KIND, payload);
  if (!outcome.ok) {
    return refused(String(outcome.error.details?.['reason'] ?? outcome.error.code), outcome.error.message, { code: outcome.error.code, fileName, details: (outcome.error.details ?? {}) as JsonObject });
  }
  await recordTurnStart(repo.root);
  return { ok: true, report: { ok: true, fileName, commit: head, notes: [...checked.notes], events: outcome.events.map((e) => ({ kind: e['kind'], sequence: e['sequence'] }) as JsonObject) } };
}

export interface Decision {
  readonly text: string;
  /** Answer lines, `[I-0002-2] CLOS : …`, one per item (rule 3). */
  readonly answers: readonly string[];
  readonly status: 'CONTINUE' | 'DONE';
}

/** §10: the human decider's turn file `NNNN-<participant>-decider.md`, with a valid header. */
export function deciderTurn(state: DisputState, humanId: string, head: string, decision: Decision): { fileName: string; text: string } {
  const participant = state.config?.participants.find((p) => p.principal?.id === humanId && p.roles.includes(DECIDER_ROLE));
  if (participant === undefined) throw new Error(`no participant of the pinned disput.toml holds ${DECIDER_ROLE} as ${humanId}`);
  const n = (state.turns.at(-1)?.number ?? 0) + 1;
  const fileName = `${String(n).padStart(4, '0')}-${participant.name}-${DECIDER_ROLE}.md`;
  const text = [
    '+++',
    `turn = ${n}`,
    `participant = "${participant.name}"`,
    `role = "${DECIDER_ROLE}"`,
    `base = "${head.slice(0, 7)}"`,
    `status = "${decision.status}"`,
    '+++',
    '',
    `# Tour ${n} — ${participant.name}, ${DECIDER_ROLE} : décision`,
    '',
    '## Réponses',
    ...decision.answers.map((line) => (line.startsWith('- ') ? line : `- ${line}`)),
    '',
    '## Travail',
    decision.text,
    '',
  ].join('\n');
  return { fileName, text };
}

/** Writes the decider's turn file, commits it, then plays it. */
export async function decide(link: NodeLink, groupId: string, repo: GitRepo, check: RepoCheck, decision: Decision): Promise<PlayResult> {
  const { state } = readDialogue(await link.events(groupId));
  if (state.config === null) return refused('config_missing', 'no disput.toml is pinned in the Group yet: turn 1 comes first');
  // §10: the decider's turn is the human's; an Agent (or another human) is answered, not failed.
  const { type, id } = link.principal;
  if (!state.config.participants.some((p) => p.principal?.type === type && p.principal.id === id && p.roles.includes(DECIDER_ROLE))) {
    return refused('participant_not_actor', `decide writes the ${DECIDER_ROLE}'s turn (§10): no participant of the pinned disput.toml holding ${DECIDER_ROLE} is played by ${type} ${id}`, { code: 'AUTH_FORBIDDEN' });
  }
  // §8.1 holds before the decision too: its commit must hold the turn file and nothing else.
  const dirty = repo.dirty();
  if (dirty.length > 0) return refused('repo_check_failed', 'the repository does not satisfy §8; nothing was written', { problems: [`§8.1 the working tree is not clean: ${dirty.join('; ')}`] });
  const head = repo.head();
  const { fileName, text } = deciderTurn(state, link.principal.id, head, decision);
  // The Authority's own rules, run here first on a placeholder commit: a turn it would refuse is
  // never written nor committed, so a refused decision leaves the repository as it was.
  const precheck = checkTurn(state, { fileName, text, commit: PLACEHOLDER_COMMIT, changedPaths: [`${TURNS_DIR}/${fileName}`] }, link.principal, timestampOf(Date.now()));
  if (isRefusal(precheck)) return refused(precheck.error.reason ?? precheck.error.code, precheck.error.message, { code: precheck.error.code, fileName, details: (precheck.error.details ?? {}) as JsonObject });
  mkdirSync(join(repo.root, TURNS_DIR), { recursive: true });
  writeFileSync(join(repo.root, TURNS_DIR, fileName), text);
  repo.git('add', '--', `${TURNS_DIR}/${fileName}`);
  // The decider's turn is this command's own work: its start is exactly HEAD and the refs before it.
  const start = turnStartOf(head, await remoteRefs(repo.root));
  repo.git('commit', '--quiet', '-m', `disput: ${fileName.replace(/\.md$/, '')}`, '--', `${TURNS_DIR}/${fileName}`);
  return playTurn(link, groupId, repo, check, start);
}
