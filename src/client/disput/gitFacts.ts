/**
 * What the disput tool reads from git, one plumbing call each: HEAD, a clean tree, ancestry, the
 * remotes' refs, the files a range changed, a file's bytes at a commit — and many files' bytes in
 * one `cat-file --batch` (`blobs`), since every call is a process to start. git runs through
 * `execFile` (no shell: a path or ref is one argv entry, never parsed) with a timeout and a
 * bounded output (`disputToolLimits.ts`), and with a fixed locale-free, pager-free environment.
 */

import { execFile } from 'node:child_process';
import { GIT_MAX_OUTPUT_BYTES, GIT_TIMEOUT_MS } from './disputToolLimits.js';

export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (${exitCode ?? 'killed'}): ${stderr.trim().slice(0, 500)}`);
  }
}

/**
 * Variables that point git at a repository other than the one named (a git hook sets them): the
 * tool's calls, and the checks run in a temporary worktree, must each see their own folder.
 */
const REPO_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_PREFIX'] as const;

export function withoutRepoEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of REPO_VARIABLES) delete copy[name];
  return copy;
}

interface GitOutput {
  readonly code: number;
  readonly stdout: Buffer;
}

/**
 * Runs git in `repo`. `okCodes` lists the exit codes that answer a question rather than fail
 * (`merge-base --is-ancestor` says "no" with 1); `input` is written to git's stdin (`cat-file --batch`).
 */
export function git(repo: string, args: readonly string[], okCodes: readonly number[] = [0], input?: string): Promise<GitOutput> {
  // GIT_OPTIONAL_LOCKS=0: reading facts must not take index.lock while an agent works in the tree.
  const env = { ...withoutRepoEnv(process.env), LC_ALL: 'C', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
  return new Promise((resolve, reject) => {
    const child = execFile('git', ['-C', repo, ...args], { encoding: 'buffer', timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_OUTPUT_BYTES, env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      if (code !== null && okCodes.includes(code)) resolve({ code, stdout });
      else reject(new GitError(args, code, stderr.toString('utf8')));
    });
    // A git that exits before reading all of its input closes the pipe: its exit code says why, not EPIPE.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
}

async function text(repo: string, args: readonly string[]): Promise<string> {
  return (await git(repo, args)).stdout.toString('utf8').trim();
}

/** The commit HEAD points at, full hex. */
export function headCommit(repo: string): Promise<string> {
  return text(repo, ['rev-parse', '--verify', 'HEAD^{commit}']);
}

/**
 * The paths `git status` reports: staged, unstaged and untracked changes. Ignored files are not
 * reported, which is how the local `.disput/logs/`, `run.lock` and `last-run.md` stay out of it.
 */
export async function dirtyPaths(repo: string): Promise<string[]> {
  const out = await git(repo, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']);
  return out.stdout
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
}

/**
 * How `from` and `to` stand, in one `rev-list --left-right --count` instead of a `rev-list
 * --count` and a `merge-base --is-ancestor`: `onlyTo`, the commits `to` has that `from` has not
 * (`from..to`); `onlyFrom`, those `from` has that `to` has not — none exactly when `from` is an
 * ancestor of `to` (a commit is its own).
 */
export async function divergence(repo: string, from: string, to: string): Promise<{ readonly onlyFrom: number; readonly onlyTo: number }> {
  const counts = (await text(repo, ['rev-list', '--left-right', '--count', `${from}...${to}`])).split(/\s+/).map(Number);
  const [onlyFrom, onlyTo] = counts;
  if (counts.length !== 2 || !Number.isSafeInteger(onlyFrom) || !Number.isSafeInteger(onlyTo)) throw new GitError(['rev-list', '--left-right', '--count'], 0, `unexpected counts: ${counts.join(' ')}`);
  return { onlyFrom: onlyFrom as number, onlyTo: onlyTo as number };
}

/** Every ref every remote has, as `git ls-remote` reads them from the remotes themselves. */
export interface RemoteRefs {
  /** `<remote> <ref>` (`origin refs/tags/v1`) → object name: branches, tags, and whatever else the remote holds. */
  readonly refs: Map<string, string>;
  /** Each remote that could not be read, with git's first line of why. */
  readonly unreachable: Map<string, string>;
}

/**
 * The refs of every configured remote, asked of the remote itself (`git ls-remote`): a tag pushed
 * moves no remote-tracking branch, and a push from another clone is not in this one's tracking refs
 * until it fetches, so only the remote can say that none of its refs moved (§8.3). A remote that
 * cannot be read is reported as such, never taken for one whose refs did not move.
 */
export async function remoteRefs(repo: string): Promise<RemoteRefs> {
  const refs = new Map<string, string>();
  const unreachable = new Map<string, string>();
  for (const remote of (await text(repo, ['remote'])).split('\n').filter((name) => name.length > 0)) {
    let listed: string;
    try {
      // --refs: the refs themselves, not HEAD (it follows a branch) nor peeled tags (they follow their tag).
      listed = await text(repo, ['ls-remote', '--refs', '--', remote]);
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      unreachable.set(remote, error.stderr.trim().split('\n')[0] || `git ls-remote exited ${String(error.exitCode ?? 'killed')}`);
      continue;
    }
    for (const line of listed.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab > 0) refs.set(`${remote} ${line.slice(tab + 1)}`, line.slice(0, tab));
    }
  }
  return { refs, unreachable };
}

export type Change = 'added' | 'modified' | 'deleted';

export interface ChangedFile {
  readonly path: string;
  readonly change: Change;
}

const CHANGES: Readonly<Record<string, Change>> = { A: 'added', M: 'modified', D: 'deleted', T: 'modified' };

/**
 * The files that differ between two commits. `--no-renames`: a renamed turn file is a deleted one
 * plus an added one, and both must be seen (§3 rule 2, a turn file is never changed or removed).
 */
export async function changedFiles(repo: string, from: string, to: string): Promise<ChangedFile[]> {
  const out = await git(repo, ['diff', '--name-status', '-z', '--no-renames', '--no-ext-diff', from, to, '--']);
  const fields = out.stdout.toString('utf8').split('\0');
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = (fields[i] as string).charAt(0);
    files.push({ path: fields[i + 1] as string, change: CHANGES[status] ?? 'modified' });
  }
  return files;
}

export interface CommitChange extends ChangedFile {
  /** The commit that made the change, full hex. */
  readonly commit: string;
}

/**
 * Every change each commit of `from..to` made under `dir`, against its first parent, oldest
 * commit last: the turn's history, not only its net change, so a file edited in one commit and
 * restored in the next is seen (§3 rule 2). `--no-renames` as in `changedFiles`.
 */
export async function commitChanges(repo: string, from: string, to: string, dir: string): Promise<CommitChange[]> {
  const out = await git(repo, ['log', '--format=commit %H', '--name-status', '-z', '--no-renames', '--diff-merges=first-parent', `${from}..${to}`, '--', dir]);
  const fields = out.stdout.toString('utf8').split('\0');
  const changes: CommitChange[] = [];
  let commit = '';
  for (let i = 0; i < fields.length; i++) {
    const field = (fields[i] as string).replace(/^\n/, '');
    if (field.startsWith('commit ')) commit = field.slice('commit '.length);
    else if (field.length > 0 && i + 1 < fields.length) changes.push({ commit, path: fields[++i] as string, change: CHANGES[field.charAt(0)] ?? 'modified' });
  }
  return changes;
}

/** The names of the files directly inside `dir` at `commit` (none when the folder is absent). */
export async function filesIn(repo: string, commit: string, dir: string): Promise<string[]> {
  return (await entriesIn(repo, commit, dir)).map((entry) => entry.name);
}

/** An entry of a folder at a commit: a blob (a file), a tree (a folder) or a commit (a submodule). */
export interface TreeEntry {
  readonly name: string;
  readonly type: string;
  readonly object: string;
  /** The blob's size in bytes; undefined for a folder or a submodule. */
  readonly size?: number;
}

/** What is directly inside `dir` at `commit`, with each file's object name and size (none when the folder is absent). */
export async function entriesIn(repo: string, commit: string, dir: string): Promise<TreeEntry[]> {
  const out = await git(repo, ['ls-tree', '-z', '--long', `${commit}:${dir}`], [0, 128]);
  if (out.code !== 0) return [];
  return out.stdout
    .toString('utf8')
    .split('\0')
    .filter((line) => line.length > 0)
    .map((line) => {
      // `<mode> SP <type> SP <object> SP+ <size> TAB <name>`; the size is `-` for a folder.
      const tab = line.indexOf('\t');
      const [, type = '', object = '', size = '-'] = line.slice(0, tab).split(/ +/);
      return { name: line.slice(tab + 1), type, object, ...(size === '-' ? {} : { size: Number(size) }) };
    });
}

/** A file's bytes at a commit. */
export async function fileAt(repo: string, commit: string, path: string): Promise<Buffer> {
  return (await git(repo, ['cat-file', 'blob', `${commit}:${path}`])).stdout;
}

/** What `cat-file --batch` prints before an object's bytes, at most: `<object> blob <size>\n` (SHA-256 names included). */
const BATCH_HEADER_BYTES = 100;

/**
 * The bytes of many blobs, by object name (as `entriesIn` gives them), in as few git calls as
 * `GIT_MAX_OUTPUT_BYTES` allows: one `cat-file --batch` per run of blobs whose sizes fit the
 * bound together, instead of one `cat-file blob` each. A blob past the bound alone fails as
 * `fileAt` on it would.
 */
export async function blobs(repo: string, files: readonly { readonly object: string; readonly size: number }[]): Promise<Buffer[]> {
  const batches: (typeof files)[number][][] = [];
  let room = 0;
  for (const file of files) {
    const cost = file.size + BATCH_HEADER_BYTES;
    if (batches.length === 0 || cost > room) {
      batches.push([]);
      room = GIT_MAX_OUTPUT_BYTES;
    }
    (batches.at(-1) as (typeof files)[number][]).push(file);
    room -= cost;
  }
  const read: Buffer[] = [];
  for (const batch of batches) read.push(...(await batchOf(repo, batch.map((file) => file.object))));
  return read;
}

async function batchOf(repo: string, objects: readonly string[]): Promise<Buffer[]> {
  if (objects.some((object) => !/^[0-9a-f]{40,64}$/.test(object))) throw new Error(`not object names: ${objects.join(' ')}`);
  const args = ['cat-file', '--batch'];
  const out = (await git(repo, args, [0], objects.map((object) => `${object}\n`).join(''))).stdout;
  const read: Buffer[] = [];
  let at = 0;
  for (const object of objects) {
    const end = out.indexOf(0x0a, at);
    const header = (end < 0 ? '' : out.subarray(at, end).toString('utf8')).split(' ');
    const size = Number(header[2]);
    if (header[0] !== object || header[1] !== 'blob' || !Number.isSafeInteger(size) || end + 1 + size > out.length) {
      throw new GitError(args, 0, `cat-file --batch answered "${header.join(' ')}" for ${object}`);
    }
    read.push(out.subarray(end + 1, end + 1 + size));
    at = end + 1 + size + 1;
  }
  return read;
}

/** The `.git` path of `name` for this worktree (`info/exclude`, …), absolute. */
export async function gitPath(repo: string, name: string): Promise<string> {
  return text(repo, ['rev-parse', '--path-format=absolute', '--git-path', name]);
}
