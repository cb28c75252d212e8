/**
 * Seed §8, invariants 1–5, checked on the last turn from what git shows: the repository before
 * the turn (a `TurnStart` recorded when the turn began) against the repository now. Each failure
 * carries a stable reason; all of them are reported at once, so the human (§8 « l'outil s'arrête
 * et le signale à @user ») sees the whole picture, not the first symptom.
 *
 * What needs disput's own rules comes in as plain data and functions (`InvariantRules`): the turn
 * header's validator and §8.6 "every pending item answered" are the domain's; the roles'
 * `writes_code` is the config's. The tool only knows where the turn files are and what git says.
 */

import { changedFiles, commitChanges, dirtyPaths, divergence, fileAt, filesIn, headCommit, remoteRefs, type ChangedFile, type RemoteRefs } from './gitFacts.js';

/** Seed §2: the turn files' folder. */
export const TURNS_DIR = '.disput/turns';
/** Seed §2: everything disput owns; a `writes_code = false` role may change nothing else (§6). */
export const DISPUT_DIR = '.disput';
/** Seed §4: `NNNN-<participant>-<role>.md`, names as the domain's `NAME_PATTERN` spells them. */
const TURN_FILE_NAME = /^(\d{4})-([a-z][a-z0-9_]*)-([a-z][a-z0-9_]*)\.md$/;

/** What was true when the turn began: recorded by the tool before the agent plays. */
export interface TurnStart {
  readonly head: string;
  /** `<remote> <ref>` → object, every ref of every remote (`gitFacts.remoteRefs`). */
  readonly remoteRefs: ReadonlyMap<string, string>;
  /** The remotes that could not be read then: their refs are unknown, so §8.3 cannot pass for them. */
  readonly unreachableRemotes?: readonly string[];
}

/** A turn start at `head`, with the remotes as `remotes` read them. */
export function turnStartOf(head: string, remotes: RemoteRefs): TurnStart {
  return { head, remoteRefs: remotes.refs, unreachableRemotes: [...remotes.unreachable.keys()] };
}

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly message?: string };

export interface InvariantRules {
  /** The domain's turn-file validator (header fields, name agreement, sections). */
  readonly validateTurnFile: (fileName: string, text: string) => Verdict;
  /** `writes_code` of a role; undefined for a role the config does not declare. */
  readonly writesCode: (role: string) => boolean | undefined;
  /** §8.6 (the domain's: it knows the pending items): every item addressed to this participant answered. */
  readonly pendingItemsAnswered?: (fileName: string, text: string) => Verdict;
}

export type InvariantReason =
  | 'no_new_commit'
  | 'tree_dirty'
  | 'history_rewritten'
  | 'remote_ref_moved'
  | 'remote_unreachable'
  | 'turn_file_missing'
  | 'turn_file_extra'
  | 'file_name_mismatch'
  | 'turn_number_not_next'
  | 'turn_file_changed'
  | 'role_unknown'
  | 'role_writes_no_code';

export interface InvariantFailure {
  /** The seed's invariant number, 1–6. */
  readonly invariant: number;
  /** A stable reason: one of `InvariantReason`, or the injected validator's own. */
  readonly reason: string;
  readonly message: string;
}

export interface InvariantReport {
  readonly ok: boolean;
  readonly head: string;
  /** The turn file the turn added, when there is exactly one. */
  readonly turnFile?: { readonly path: string; readonly number: number; readonly participant: string; readonly role: string };
  readonly changed: readonly ChangedFile[];
  readonly failures: readonly InvariantFailure[];
}

/** The highest turn number among `.disput/turns/` file names (0 when there is none). */
function lastTurnNumber(names: readonly string[]): number {
  let last = 0;
  for (const name of names) {
    const match = TURN_FILE_NAME.exec(name);
    if (match !== null) last = Math.max(last, Number(match[1]));
  }
  return last;
}

function inTurnsDir(path: string): boolean {
  return path.startsWith(`${TURNS_DIR}/`) && !path.slice(TURNS_DIR.length + 1).includes('/');
}

export async function checkInvariants(repo: string, start: TurnStart, rules: InvariantRules): Promise<InvariantReport> {
  const failures: InvariantFailure[] = [];
  const fail = (invariant: number, reason: string, message: string): void => {
    failures.push({ invariant, reason, message });
  };
  const head = await headCommit(repo);

  // §8.1: a turn is a commit (rule 1), and nothing is left uncommitted for the next one to inherit.
  // One git call answers both §8.1's « a new commit » and §8.2's « the old HEAD is an ancestor ».
  const { onlyFrom, onlyTo: fresh } = await divergence(repo, start.head, head);
  if (fresh === 0) fail(1, 'no_new_commit', `HEAD ${head.slice(0, 12)} has no commit past ${start.head.slice(0, 12)}`);
  const dirty = await dirtyPaths(repo);
  if (dirty.length > 0) fail(1, 'tree_dirty', `uncommitted: ${dirty.slice(0, 10).join(', ')}${dirty.length > 10 ? ', …' : ''}`);

  // §8.2, rule 6: no rewriting; the old HEAD is still in the new history.
  if (onlyFrom > 0) fail(2, 'history_rewritten', `${start.head.slice(0, 12)} is not an ancestor of HEAD ${head.slice(0, 12)}`);

  // §8.3, rule 6: no push during a turn: no ref of any remote, branch or tag, moved, appeared or went.
  const now = await remoteRefs(repo);
  const unreadable = new Set([...(start.unreachableRemotes ?? []), ...now.unreachable.keys()]);
  for (const remote of unreadable) {
    const why = now.unreachable.get(remote);
    fail(3, 'remote_unreachable', why === undefined ? `${remote} could not be read when the turn began` : `${remote} cannot be read: ${why}`);
  }
  const readable = (key: string): boolean => !unreadable.has(key.slice(0, key.indexOf(' ')));
  const moved = [...new Set([...start.remoteRefs.keys(), ...now.refs.keys()])].filter((ref) => readable(ref) && start.remoteRefs.get(ref) !== now.refs.get(ref));
  if (moved.length > 0) fail(3, 'remote_ref_moved', `moved during the turn: ${moved.join(', ')}`);

  // §8.4, rule 2: exactly one turn file added, numbered next; no recorded one touched.
  const changed = await changedFiles(repo, start.head, head);
  const turnChanges = changed.filter((file) => inTurnsDir(file.path));
  for (const file of turnChanges.filter((f) => f.change !== 'added')) {
    fail(4, 'turn_file_changed', `${file.path} was ${file.change}: a committed turn file is never changed (rule 2)`);
  }
  const added = turnChanges.filter((file) => file.change === 'added');
  // Each commit of the turn, too: an edit restored by a later commit leaves no net change. The
  // turn's own new file may be rewritten before the turn ends; it is recorded only then.
  const own = new Set(added.map((file) => file.path));
  const reported = new Set(turnChanges.filter((f) => f.change !== 'added').map((f) => f.path));
  const history = fresh === 0 ? [] : await commitChanges(repo, start.head, head, TURNS_DIR);
  for (const change of history.reverse()) {
    if (change.change === 'added' || own.has(change.path) || reported.has(change.path) || !inTurnsDir(change.path)) continue;
    reported.add(change.path);
    fail(4, 'turn_file_changed', `${change.path} was ${change.change} in commit ${change.commit.slice(0, 12)}: a committed turn file is never changed (rule 2)`);
  }
  let turnFile: InvariantReport['turnFile'];
  if (added.length === 0) fail(4, 'turn_file_missing', `no file added under ${TURNS_DIR}/`);
  if (added.length > 1) fail(4, 'turn_file_extra', `${added.length} turn files added: ${added.map((f) => f.path).join(', ')}`);
  if (added.length === 1) {
    const path = (added[0] as ChangedFile).path;
    const name = path.slice(TURNS_DIR.length + 1);
    const match = TURN_FILE_NAME.exec(name);
    if (match === null) {
      fail(4, 'file_name_mismatch', `${name} is not NNNN-<participant>-<role>.md`);
    } else {
      const [, digits, participant, role] = match as unknown as [string, string, string, string];
      turnFile = { path, number: Number(digits), participant, role };
      const expected = lastTurnNumber(await filesIn(repo, start.head, TURNS_DIR)) + 1;
      if (turnFile.number !== expected) fail(4, 'turn_number_not_next', `${name} is turn ${turnFile.number}; the next is ${expected}`);
      const text = (await fileAt(repo, head, path)).toString('utf8');
      const valid = rules.validateTurnFile(name, text);
      if (!valid.ok) fail(4, valid.reason, valid.message ?? `${name}: ${valid.reason}`);

      // §8.5, §6: a role that writes no code changed `.disput/` only.
      const writesCode = rules.writesCode(role);
      if (writesCode === undefined) fail(5, 'role_unknown', `role ${role} is not declared in disput.toml`);
      if (writesCode === false) {
        const outside = changed.filter((file) => !file.path.startsWith(`${DISPUT_DIR}/`)).map((file) => file.path);
        if (outside.length > 0) fail(5, 'role_writes_no_code', `${role} writes no code but changed ${outside.slice(0, 10).join(', ')}`);
      }

      // §8.6, rule 3: the domain decides what was pending; the hook answers for it.
      if (rules.pendingItemsAnswered !== undefined) {
        const answered = rules.pendingItemsAnswered(name, text);
        if (!answered.ok) fail(6, answered.reason, answered.message ?? `${name}: ${answered.reason}`);
      }
    }
  }
  return { ok: failures.length === 0, head, changed, failures, ...(turnFile === undefined ? {} : { turnFile }) };
}
