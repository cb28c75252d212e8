/**
 * Seed §8.7: the project's `[[checks]]` after a turn. `must_pass` runs at the new HEAD and must
 * succeed. `no_regression` runs twice, at the old HEAD and at the new one, and fails only when it
 * succeeded before and fails after: a suite already red before the turn is not this turn's doing.
 * The old HEAD is checked out in a temporary detached `git worktree`, so the agent's tree is never
 * switched and the check sees exactly the committed state; it is removed afterwards, pass or fail.
 * Both runs have the same dependencies: the repository's ignored dependency folders
 * (`node_modules/`, …) are lent to that worktree by symbolic links, removed before it is.
 * Every command runs under the §9 guards (`guards.ts`): a denied check is refused, not run.
 */

import { lstat, mkdtemp, rm, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git, headCommit } from './gitFacts.js';
import { runGuarded, type CommandOptions, type GuardedRun, type ToolGuards } from './guards.js';

export type CheckPolicy = 'must_pass' | 'no_regression';

/** One `[[checks]]` entry, shaped as the domain's `DisputCheck`. */
export interface ToolCheck {
  readonly name: string;
  readonly command: string;
  readonly policy: CheckPolicy;
}

export type CheckReason = 'check_failed' | 'check_regressed' | 'check_denied';

export interface CheckOutcome {
  readonly name: string;
  readonly policy: CheckPolicy;
  readonly ok: boolean;
  readonly reason?: CheckReason;
  /** At the old HEAD (`no_regression` only). */
  readonly before?: GuardedRun;
  /** At the new HEAD; absent when the check was denied. */
  readonly after?: GuardedRun;
}

export interface CheckRange {
  readonly oldHead: string;
  readonly newHead: string;
}

function passed(run: GuardedRun): boolean {
  return !run.refused && run.code === 0;
}

/**
 * Dependency folders a project installs rather than commits (npm, Bower, Python virtualenvs,
 * Composer and Bundler): the old HEAD's checkout has none of them, so `npm test` would fail there
 * for want of `node_modules/`, never for the code, and a real regression would pass as "already
 * failing before".
 */
const DEPENDENCY_FOLDERS = ['node_modules', 'bower_components', '.venv', 'venv', 'vendor'] as const;

/**
 * Lends the repository's ignored dependency folders to the worktree at `dir`, each by a symbolic
 * link at the same path (where its parent folder exists at the old HEAD), so the old HEAD's run
 * has what the new HEAD's run has. Returns the links made, for removal.
 */
async function lendDependencies(repo: string, dir: string): Promise<string[]> {
  const pathspecs = DEPENDENCY_FOLDERS.map((name) => `:(glob)**/${name}`);
  const out = await git(repo, ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z', '--', ...pathspecs]);
  const links: string[] = [];
  for (const entry of out.stdout.toString('utf8').split('\0')) {
    const path = entry.replace(/\/$/, '');
    if (path.length === 0) continue;
    const link = join(dir, path);
    const parentThere = await lstat(dirname(link)).then((stats) => stats.isDirectory(), () => false);
    const taken = await lstat(link).then(() => true, () => false);
    if (!parentThere || taken) continue;
    await symlink(join(repo, path), link, 'dir');
    links.push(link);
  }
  return links;
}

/** Calls `run` with a throwaway detached worktree at `commit`, removed afterwards. */
async function atCommit(repo: string, commit: string, run: (dir: string) => Promise<void>): Promise<void> {
  const parent = await mkdtemp(join(tmpdir(), 'disput-before-'));
  const dir = join(parent, 'tree');
  await git(repo, ['worktree', 'add', '--detach', '--quiet', dir, commit]);
  let links: string[] = [];
  try {
    links = await lendDependencies(repo, dir);
    await run(dir);
  } finally {
    // The links go first, by themselves: removing the worktree must never reach what they point at.
    for (const link of links) await unlink(link).catch(() => undefined);
    await git(repo, ['worktree', 'remove', '--force', dir], [0, 128]);
    await rm(parent, { recursive: true, force: true });
    await git(repo, ['worktree', 'prune']);
  }
}

export async function runChecks(repo: string, range: CheckRange, checks: readonly ToolCheck[], guards: ToolGuards, options: CommandOptions = {}): Promise<CheckOutcome[]> {
  const head = await headCommit(repo);
  // The checks read the working tree; it must be the commit under review (§8.1 checked it clean).
  if (head !== range.newHead) throw new Error(`HEAD is ${head}, not the turn's commit ${range.newHead}`);

  const before = new Map<string, GuardedRun>();
  const regressionChecks = checks.filter((check) => check.policy === 'no_regression');
  if (regressionChecks.length > 0) {
    await atCommit(repo, range.oldHead, async (dir) => {
      for (const check of regressionChecks) before.set(check.name, await runGuarded(dir, check.command, guards, options));
    });
  }

  const outcomes: CheckOutcome[] = [];
  for (const check of checks) {
    const after = await runGuarded(repo, check.command, guards, options);
    if (after.refused) {
      outcomes.push({ name: check.name, policy: check.policy, ok: false, reason: 'check_denied', after });
      continue;
    }
    if (check.policy === 'must_pass') {
      const ok = passed(after);
      outcomes.push({ name: check.name, policy: check.policy, ok, after, ...(ok ? {} : { reason: 'check_failed' as const }) });
      continue;
    }
    const earlier = before.get(check.name) as GuardedRun;
    const ok = !passed(earlier) || passed(after);
    outcomes.push({ name: check.name, policy: check.policy, ok, before: earlier, after, ...(ok ? {} : { reason: 'check_regressed' as const }) });
  }
  return outcomes;
}
