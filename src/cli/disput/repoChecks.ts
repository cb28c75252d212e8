/**
 * The git facts `missionweave disput` needs, and the ONE seam through which `play` checks the
 * seed's §8 invariants before recording a turn. `RepoCheck` is a plain function type: the minimal
 * `basicRepoCheck` below covers what this command needs itself (a clean tree, the previous turn's
 * commit an ancestor of HEAD, exactly one new turn file and no old one changed); the full §8
 * checks (remote refs, `[[checks]]`, guards) live in `src/client/disput/` and are passed in
 * instead once both are merged. Git is run with `execFileSync` (no shell), in the repository.
 */

import { execFileSync } from 'node:child_process';

/** `.disput/turns/` holds the turn files (seed §2). */
export const TURNS_DIR = '.disput/turns';
export const CONFIG_PATH = 'disput.toml';
export const BACKLOG_PATH = '.disput/backlog.md';
/** The empty tree's object name (SHA-1 repositories): the base of a first turn with no parent. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export class GitRepo {
  constructor(readonly root: string) {}

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  head(): string {
    return this.git('rev-parse', 'HEAD').trim();
  }

  /** The full sha `ref` names, or undefined when it names no commit. */
  resolve(ref: string): string | undefined {
    try {
      return this.git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`).trim();
    } catch {
      return undefined;
    }
  }

  /** The paths changed between `from` (a commit, or none: the empty tree) and `to`. */
  changedPaths(from: string | undefined, to: string): string[] {
    return this.git('diff', '--name-only', '--no-renames', from ?? EMPTY_TREE, to).split('\n').filter((line) => line.length > 0);
  }

  /** The text of `path` at `commit`, or undefined when it is not there. */
  fileAt(commit: string, path: string): string | undefined {
    try {
      return this.git('show', `${commit}:${path}`);
    } catch {
      return undefined;
    }
  }

  /** The turn files' names at `commit`. */
  turnFiles(commit: string): string[] {
    return this.git('ls-tree', '--name-only', `${commit}:${TURNS_DIR}`).split('\n').filter((name) => name.endsWith('.md'));
  }

  isAncestor(older: string, newer: string): boolean {
    try {
      this.git('merge-base', '--is-ancestor', older, newer);
      return true;
    } catch {
      return false;
    }
  }

  /** Uncommitted changes, as `git status --porcelain` lines. */
  dirty(): string[] {
    return this.git('status', '--porcelain').split('\n').filter((line) => line.length > 0);
  }
}

export interface RepoCheckInput {
  readonly repo: GitRepo;
  /** The commit of the last recorded turn; undefined before turn 1. */
  readonly previousCommit: string | undefined;
  readonly head: string;
  /** The turn file `play` is about to record, and the changed paths it will report. */
  readonly fileName: string;
  readonly changedPaths: readonly string[];
}

/** Each problem found, one line each; none means the turn may be recorded. */
export type RepoCheck = (input: RepoCheckInput) => readonly string[];

/** The part of §8 this command needs itself: §8.1 (clean tree), §8.2, §8.4. */
export const basicRepoCheck: RepoCheck = ({ repo, previousCommit, head, fileName, changedPaths }) => {
  const problems: string[] = [];
  const dirty = repo.dirty();
  if (dirty.length > 0) problems.push(`§8.1 the working tree is not clean: ${dirty.join('; ')}`);
  if (previousCommit !== undefined && previousCommit === head) problems.push('§8.1 no new commit since the last recorded turn');
  if (previousCommit !== undefined && !repo.isAncestor(previousCommit, head)) problems.push(`§8.2 the last recorded turn's commit ${previousCommit} is not an ancestor of HEAD`);
  const turnPaths = changedPaths.filter((path) => path.startsWith(`${TURNS_DIR}/`));
  if (turnPaths.length !== 1 || turnPaths[0] !== `${TURNS_DIR}/${fileName}`) problems.push(`§8.4 exactly one turn file changes, the new one: ${turnPaths.join(', ') || 'none'}`);
  return problems;
};
