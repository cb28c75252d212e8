/**
 * The git facts `missionweave disput` needs, and the ONE seam through which `play`, `decide` and
 * `check` check the seed's §8 before a turn is recorded. `RepoCheck` is a plain async function
 * type; the real one, `turnCheck.ts`, runs the agent-side tool (`src/client/disput/`) with the
 * Group's pinned config and the domain's turn-file rules. Git is run with `execFileSync` (no
 * shell), in the repository.
 */

import { execFileSync } from 'node:child_process';
import { GitError } from '../../client/disput/gitFacts.js';
import type { TurnStart } from '../../client/disput/invariants.js';
import type { DisputState } from '../../domain/disput/disputTypes.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { GIT_SHOW_MAX_BYTES } from './disputCliLimits.js';

/** `.disput/turns/` holds the turn files (seed §2). */
export const TURNS_DIR = '.disput/turns';
/** Seed §2: `.disput/disput.toml`. It wins over `ROOT_CONFIG_PATH`, read only when it is absent. */
export const CONFIG_PATH = '.disput/disput.toml';
/** Where this tool read the config before it followed the seed: a fallback for such repositories. */
export const ROOT_CONFIG_PATH = 'disput.toml';
export const BACKLOG_PATH = '.disput/backlog.md';

/** The empty tree's object name (SHA-1 repositories): the base of a first turn with no parent. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export class GitRepo {
  /** What `readFiles` read, by `<commit>:<path>`: undefined when the path is not there. */
  private readonly read = new Map<string, string | undefined>();

  constructor(readonly root: string) {}

  /** Runs git in the repository; a failure is a `GitError` (`missionweave disput` answers it as `git_failed`). */
  git(...args: string[]): string {
    try {
      return execFileSync('git', args, { cwd: this.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const failed = error as { status?: number | null; stderr?: string };
      throw new GitError(args, failed.status ?? null, failed.stderr ?? (error as Error).message);
    }
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
    const key = `${commit}:${path}`;
    if (this.read.has(key)) return this.read.get(key);
    try {
      return this.git('show', key);
    } catch {
      return undefined;
    }
  }

  /**
   * Reads `paths` at `commit` in one `git cat-file --batch` instead of a `git show` each; `fileAt`
   * then answers from what was read. Only for a full commit name, whose files never change: a ref
   * (HEAD, a branch) is read anew every time. A path that is not a plain file of at most
   * `GIT_SHOW_MAX_BYTES` is left to `fileAt`'s own `git show`, which answers it as before.
   */
  readFiles(commit: string, paths: readonly string[]): void {
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commit) || paths.some((path) => path.includes('\n'))) return;
    const names = paths.map((path) => `${commit}:${path}`);
    let out: Buffer;
    try {
      out = execFileSync('git', ['cat-file', '--batch'], { cwd: this.root, input: names.map((name) => `${name}\n`).join(''), maxBuffer: paths.length * (GIT_SHOW_MAX_BYTES + 200), stdio: ['pipe', 'pipe', 'pipe'] });
    } catch {
      return;
    }
    let at = 0;
    for (const name of names) {
      const end = out.indexOf(0x0a, at);
      if (end < 0) return;
      const header = out.subarray(at, end).toString('utf8');
      if (header.endsWith(' missing')) {
        this.read.set(name, undefined);
        at = end + 1;
        continue;
      }
      const [, type, size] = header.split(' ');
      const bytes = Number(size);
      if (!Number.isSafeInteger(bytes) || end + 1 + bytes > out.length) return;
      if (type === 'blob' && bytes <= GIT_SHOW_MAX_BYTES) this.read.set(name, out.subarray(end + 1, end + 1 + bytes).toString('utf8'));
      at = end + 1 + bytes + 1;
    }
  }

  /** `disput.toml` at `commit`: the seed's `.disput/disput.toml`, else the root one, else none. */
  configAt(commit: string): { readonly path: string; readonly text: string } | undefined {
    for (const path of [CONFIG_PATH, ROOT_CONFIG_PATH]) {
      const text = this.fileAt(commit, path);
      if (text !== undefined) return { path, text };
    }
    return undefined;
  }

  /** The turn files' names at `commit` (none before the folder exists). */
  turnFiles(commit: string): string[] {
    let names: string;
    try {
      names = this.git('ls-tree', '--name-only', `${commit}:${TURNS_DIR}`);
    } catch {
      return [];
    }
    return names.split('\n').filter((name) => name.endsWith('.md'));
  }

  /** Uncommitted changes, as `git status --porcelain` lines. */
  dirty(): string[] {
    return this.git('status', '--porcelain').split('\n').filter((line) => line.length > 0);
  }
}

export interface RepoCheckInput {
  readonly repo: GitRepo;
  /** The dialogue as the Group recorded it: the pinned config, the turns, their commits. */
  readonly state: DisputState;
  readonly head: string;
  /** The turn file being checked, when there is exactly one new one. */
  readonly fileName?: string;
  /** The repository as the turn began, when the caller knows it exactly (`decide` wrote the turn itself). */
  readonly start?: TurnStart;
}

export interface RepoCheckResult {
  readonly ok: boolean;
  /** Stable reasons, one per failure (`tree_dirty`, `remote_ref_moved`, `check_failed`, …). */
  readonly reasons: readonly string[];
  /** One line per failure, for people: `§8.1 tree_dirty: uncommitted: src/stray.ts`. */
  readonly problems: readonly string[];
  /** What was not checked, and why (a turn start missing leaves §8.3 unchecked). */
  readonly notes: readonly string[];
  /** The whole account, for `check`'s JSON line. */
  readonly report: JsonObject;
}

/** The seam `play`, `decide` and `check` run the §8 check through (`turnCheck.ts` is the real one). */
export type RepoCheck = (input: RepoCheckInput) => Promise<RepoCheckResult>;
