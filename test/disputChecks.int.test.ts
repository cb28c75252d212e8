/**
 * Seed §8.7 `[[checks]]` and §9 `[guards]` as the disput tool runs them, on real git repositories:
 * `must_pass` and `no_regression` positive and negative (the latter at the old HEAD in a temporary
 * worktree that is removed afterwards), a deny pattern refusing a command before it runs, `env`
 * applied to a check, the timeout and the output bound, and the run lock with its stale takeover.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runChecks, type ToolCheck } from '../src/client/disput/checks.js';
import { dirtyPaths, remoteRefs } from '../src/client/disput/gitFacts.js';
import { deniedBy, NO_GUARDS, runGuarded, type ToolGuards } from '../src/client/disput/guards.js';
import { ensureLocalFilesIgnored } from '../src/client/disput/localFiles.js';
import { acquireRunLock, RUN_LOCK, RunLockedError } from '../src/client/disput/runLock.js';
import { makeRepo, turnPath, turnText, useGitTestEnv, type TestRepo } from './support/gitRepo.js';

let repo: TestRepo;

beforeAll(() => useGitTestEnv());
afterEach(() => repo.cleanup());

/** Turn 2 writes `content` to src/app.txt (made `good\n` by turn 1); returns the old and new HEAD. */
function playTurn(content: string): { oldHead: string; newHead: string } {
  repo = makeRepo();
  const oldHead = repo.head();
  repo.write('src/app.txt', content);
  repo.write(turnPath(2, 'claude', 'implementer'), turnText(2, 'claude', 'implementer'));
  return { oldHead, newHead: repo.commit('turn 2') };
}

const goodIsThere = (policy: ToolCheck['policy']): ToolCheck => ({ name: 'good', command: 'grep -q good src/app.txt', policy });

describe('§8.7 [[checks]]', () => {
  it('must_pass: a passing check passes, a failing one fails with check_failed and its output', async () => {
    const range = playTurn('good still\n');
    const failing: ToolCheck = { name: 'lint', command: 'echo "3 problems" >&2; exit 2', policy: 'must_pass' };
    const outcomes = await runChecks(repo.dir, range, [goodIsThere('must_pass'), failing], NO_GUARDS);
    expect(outcomes.map((o) => [o.name, o.ok, o.reason])).toEqual([
      ['good', true, undefined],
      ['lint', false, 'check_failed'],
    ]);
    const after = outcomes[1]?.after;
    expect(after?.refused === false && [after.code, after.stderr]).toEqual([2, '3 problems\n']);
  });

  it('no_regression: passing before and failing after is check_regressed; the old HEAD is run in a removed worktree', async () => {
    const range = playTurn('broken\n');
    const [outcome] = await runChecks(repo.dir, range, [goodIsThere('no_regression')], NO_GUARDS);
    expect(outcome?.reason).toBe('check_regressed');
    expect(outcome?.before?.refused === false && outcome.before.code).toBe(0);
    expect(outcome?.after?.refused === false && outcome.after.code).toBe(1);
    expect(repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(await dirtyPaths(repo.dir)).toEqual([]);
  });

  it('no_regression: still passing, or already failing before, is no regression', async () => {
    const range = playTurn('good again\n');
    expect((await runChecks(repo.dir, range, [goodIsThere('no_regression')], NO_GUARDS))[0]?.ok).toBe(true);
    repo.cleanup();

    const red = playTurn('broken\n');
    const alwaysRed: ToolCheck = { name: 'flaky', command: 'test -f missing.txt', policy: 'no_regression' };
    const [outcome] = await runChecks(repo.dir, red, [alwaysRed], NO_GUARDS);
    expect([outcome?.ok, outcome?.before?.refused === false && outcome.before.code]).toEqual([true, 1]);
  });

  it('no_regression: npm test needing an installed dependency runs under the same conditions before and after — a regression is refused', async () => {
    repo = makeRepo();
    // A tiny Node project: its test needs `checker`, a local dependency installed in node_modules/ (ignored by git).
    const checker = 'module.exports = (text) => text.includes(\'good\');\n';
    repo.write('.gitignore', 'node_modules/\n');
    repo.write('package.json', JSON.stringify({ name: 'app', private: true, scripts: { test: 'node test.js' }, dependencies: { checker: 'file:./checker' } }));
    repo.write('checker/package.json', JSON.stringify({ name: 'checker', version: '1.0.0', main: 'index.js' }));
    repo.write('checker/index.js', checker);
    repo.write('test.js', "process.exit(require('checker')(require('node:fs').readFileSync('src/app.txt', 'utf8')) ? 0 : 1);\n");
    const oldHead = repo.commit('a node project');
    repo.write('node_modules/checker/package.json', JSON.stringify({ name: 'checker', version: '1.0.0', main: 'index.js' }));
    repo.write('node_modules/checker/index.js', checker);
    const npmTest: ToolCheck = { name: 'tests', command: 'npm test', policy: 'no_regression' };
    const offline: ToolGuards = { env: { npm_config_update_notifier: 'false', npm_config_offline: 'true' }, deny: [] };
    repo.write('src/app.txt', 'broken\n');
    repo.write(turnPath(2, 'claude', 'implementer'), turnText(2, 'claude', 'implementer'));
    const [regressed] = await runChecks(repo.dir, { oldHead, newHead: repo.commit('turn 2, broken') }, [npmTest], offline);
    // Passing before (with the dependencies, as after), failing after: a regression.
    expect([regressed?.reason, regressed?.before?.refused === false && regressed.before.code, regressed?.after?.refused === false && regressed.after.code]).toEqual(['check_regressed', 0, 1]);
    // The dependencies were lent to the old HEAD's worktree, not copied into the repository nor left behind.
    expect(await dirtyPaths(repo.dir)).toEqual([]);
    expect(repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(existsSync(join(repo.dir, 'node_modules/checker/index.js'))).toBe(true);
  });

  it('each run sees its own tree: the old HEAD in the worktree, the new one in the repository, whatever GIT_DIR says', async () => {
    const range = playTurn('good\n');
    process.env.GIT_DIR = '/nonexistent/.git';
    try {
      const atNew: ToolCheck = { name: 'head', command: `test "$(git rev-parse HEAD)" = ${range.newHead}`, policy: 'no_regression' };
      const [outcome] = await runChecks(repo.dir, range, [atNew], NO_GUARDS);
      expect([outcome?.before?.refused === false && outcome.before.code, outcome?.after?.refused === false && outcome.after.code, outcome?.ok]).toEqual([1, 0, true]);
    } finally {
      delete process.env.GIT_DIR;
    }
  });

  it('refuses to check a tree that is not at the turn’s commit', async () => {
    const range = playTurn('good\n');
    await expect(runChecks(repo.dir, { ...range, newHead: range.oldHead }, [goodIsThere('must_pass')], NO_GUARDS)).rejects.toThrow(/not the turn's commit/);
  });
});

describe('§9 [guards]', () => {
  it('a deny pattern refuses a check before it runs: the push does not happen', async () => {
    const range = playTurn('good\n');
    const before = await remoteRefs(repo.dir);
    const guards: ToolGuards = { env: {}, deny: ['git push', 'git reset --hard'] };
    const push: ToolCheck = { name: 'publish', command: 'make build &&  git   push origin main', policy: 'must_pass' };
    const [outcome] = await runChecks(repo.dir, range, [push], guards);
    expect(outcome).toMatchObject({ ok: false, reason: 'check_denied', after: { refused: true, pattern: 'git push' } });
    expect(await remoteRefs(repo.dir)).toEqual(before);
    expect(repo.git('ls-remote', 'origin', 'main').split('\t')[0]).toBe(range.oldHead);
  });

  it('deny patterns: literal words on word boundaries, * for anything', () => {
    expect(deniedBy('npm run deploy -- --env prod', ['prod'])).toBe('prod');
    expect(deniedBy('npm run product-list', ['prod'])).toBeNull();
    expect(deniedBy('git push --force-with-lease', ['git push --force*'])).toBe('git push --force*');
    expect(deniedBy('git pushd', ['git push'])).toBeNull();
    expect(deniedBy('kubectl --context=prod apply -f x.yaml', ['kubectl * apply'])).toBe('kubectl * apply');
    expect(deniedBy('npm test', ['git push', 'prod'])).toBeNull();
  });

  it('env: the guard variables reach the check and win over the inherited ones', async () => {
    const range = playTurn('good\n');
    process.env.DRY_RUN = 'false';
    try {
      const dryRun: ToolCheck = { name: 'dry', command: 'test "$DRY_RUN" = true', policy: 'must_pass' };
      expect((await runChecks(repo.dir, range, [dryRun], NO_GUARDS))[0]?.ok).toBe(false);
      expect((await runChecks(repo.dir, range, [dryRun], { env: { DRY_RUN: 'true' }, deny: [] }))[0]?.ok).toBe(true);
    } finally {
      delete process.env.DRY_RUN;
    }
  });

  it('a command past its timeout is killed with its children; output keeps a bounded tail', async () => {
    repo = makeRepo();
    const started = Date.now();
    const slow = await runGuarded(repo.dir, 'sleep 20 & sleep 20; echo never', NO_GUARDS, { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(slow).toMatchObject({ refused: false, timedOut: true, code: null, stdout: '' });

    const loud = await runGuarded(repo.dir, "head -c 100000 /dev/zero | tr '\\0' a; echo END", NO_GUARDS, { tailBytes: 1_000 });
    expect(loud.refused === false && [loud.stdout.length, loud.stdout.endsWith('aEND\n'), loud.truncated]).toEqual([1_000, true, true]);
  });
});

describe('local files (seed §2)', () => {
  it('run.lock: one run at a time; released, it can be taken again', async () => {
    repo = makeRepo();
    const lock = await acquireRunLock(repo.dir);
    const second = await acquireRunLock(repo.dir).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(RunLockedError);
    expect((second as RunLockedError).owner?.pid).toBe(process.pid);
    await lock.release();
    expect(existsSync(join(repo.dir, RUN_LOCK))).toBe(false);
    await (await acquireRunLock(repo.dir)).release();
  });

  it('run.lock: a lock whose pid is dead on this host is stale and taken over; another host’s is not', async () => {
    repo = makeRepo();
    const dead = spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout.trim());
    writeFileSync(join(repo.dir, RUN_LOCK), JSON.stringify({ pid: deadPid, host: hostname(), startedAt: '2026-01-01T00:00:00Z' }));
    const lock = await acquireRunLock(repo.dir);
    await lock.release();

    writeFileSync(join(repo.dir, RUN_LOCK), JSON.stringify({ pid: deadPid, host: `${hostname()}-elsewhere`, startedAt: '2026-01-01T00:00:00Z' }));
    await expect(acquireRunLock(repo.dir)).rejects.toBeInstanceOf(RunLockedError);
  });

  it('a repository without .disput/.gitignore gets the local files in info/exclude, once', async () => {
    repo = makeRepo();
    repo.git('rm', '--quiet', '.disput/.gitignore');
    repo.commit('no gitignore');
    repo.write('.disput/run.lock', '{}');
    repo.write('.disput/logs/check.log', 'x');
    repo.write('.disput/last-run.md', 'x');
    expect((await dirtyPaths(repo.dir)).sort()).toEqual(['.disput/last-run.md', '.disput/logs/check.log', '.disput/run.lock']);
    expect(await ensureLocalFilesIgnored(repo.dir)).toEqual(['/.disput/logs/', '/.disput/run.lock', '/.disput/last-run.md']);
    expect(await dirtyPaths(repo.dir)).toEqual([]);
    expect(await ensureLocalFilesIgnored(repo.dir)).toEqual([]);
  });
});
