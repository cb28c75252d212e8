/**
 * The files seed §2 keeps local, « jamais commités »: `.disput/logs/`, `.disput/run.lock`,
 * `.disput/last-run.md`. They must be git-ignored, or §8.1's clean-tree check would see the tool's
 * own lock and log as the agent's uncommitted work.
 *
 * Where: `.disput/.gitignore` (`DISPUT_GITIGNORE`) is the place a project should commit, with
 * `disput.toml`: it travels with every clone, so an agent playing by hand (§11) ignores them too.
 * The tool does not write that file when it finds the paths not ignored, because an uncommitted
 * `.disput/.gitignore` would itself dirty the tree it is about to check; it appends them to this
 * clone's `info/exclude` instead, which git never shows as a change.
 *
 * Also here: the `TurnStart` the tool records when a turn begins (`logs/turn-start.json`: HEAD and
 * every remote's refs), which
 * §8 compares the turn's end against, and `last-run.md`, what the last check saw.
 */

import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { git, gitPath, headCommit, remoteRefs } from './gitFacts.js';
import { turnStartOf, type TurnStart } from './invariants.js';

export const LOGS_DIR = '.disput/logs';
export const LAST_RUN = '.disput/last-run.md';
const TURN_START = `${LOGS_DIR}/turn-start.json`;

/** The local paths, and a path git is asked about for each (a folder is probed by a file in it). */
const LOCAL: readonly { readonly pattern: string; readonly probe: string }[] = [
  { pattern: '/.disput/logs/', probe: `${LOGS_DIR}/probe` },
  { pattern: '/.disput/run.lock', probe: '.disput/run.lock' },
  { pattern: '/.disput/last-run.md', probe: LAST_RUN },
];

/** What a project commits as `.disput/.gitignore`. */
export const DISPUT_GITIGNORE = 'logs/\nrun.lock\nlast-run.md\n';

/** Which of `paths` (the plain ones of `LOCAL`, printed as given) git ignores, in one `check-ignore` (exit 1: none). */
async function ignoredOf(repo: string, paths: readonly string[]): Promise<Set<string>> {
  const out = await git(repo, ['check-ignore', '--no-index', '--', ...paths], [0, 1]);
  return new Set(out.stdout.toString('utf8').split('\n').filter((path) => path.length > 0));
}

/** Makes sure the local files are ignored; returns the patterns it had to add to `info/exclude`. */
export async function ensureLocalFilesIgnored(repo: string): Promise<string[]> {
  const ignored = await ignoredOf(repo, LOCAL.map((local) => local.probe));
  const missing = LOCAL.filter(({ probe }) => !ignored.has(probe)).map(({ pattern }) => pattern);
  if (missing.length === 0) return [];
  const exclude = await gitPath(repo, 'info/exclude');
  await mkdir(dirname(exclude), { recursive: true });
  const current = await readFile(exclude, 'utf8').catch(() => '');
  const separator = current.length === 0 || current.endsWith('\n') ? '' : '\n';
  await appendFile(exclude, `${separator}# disput: local files (seed §2)\n${missing.join('\n')}\n`);
  return missing;
}

/** Records HEAD and every remote's refs as the turn begins. */
export async function recordTurnStart(repo: string): Promise<TurnStart> {
  const start = turnStartOf(await headCommit(repo), await remoteRefs(repo));
  await mkdir(join(repo, LOGS_DIR), { recursive: true });
  const json = { head: start.head, remoteRefs: Object.fromEntries(start.remoteRefs), unreachableRemotes: start.unreachableRemotes ?? [] };
  await writeFile(join(repo, TURN_START), `${JSON.stringify(json, null, 2)}\n`);
  return start;
}

/**
 * The `TurnStart` recorded for the turn in progress, or null when none was. A start written before
 * the remotes were read with `ls-remote` (no `unreachableRemotes`) holds tracking refs, not the
 * remotes' own: it is not used.
 */
export async function readTurnStart(repo: string): Promise<TurnStart | null> {
  let raw: { head?: unknown; remoteRefs?: unknown; unreachableRemotes?: unknown };
  try {
    raw = JSON.parse(await readFile(join(repo, TURN_START), 'utf8')) as typeof raw;
  } catch {
    return null;
  }
  if (typeof raw.head !== 'string' || typeof raw.remoteRefs !== 'object' || raw.remoteRefs === null || !Array.isArray(raw.unreachableRemotes)) return null;
  const refs = Object.entries(raw.remoteRefs).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return { head: raw.head, remoteRefs: new Map(refs), unreachableRemotes: raw.unreachableRemotes.filter((name): name is string => typeof name === 'string') };
}

/** Writes `last-run.md`, a human-readable account of what the last check saw. */
export async function writeLastRun(repo: string, markdown: string): Promise<void> {
  await mkdir(join(repo, '.disput'), { recursive: true });
  await writeFile(join(repo, LAST_RUN), markdown);
}
