/**
 * The pieces of `missionweave disput` below the node, on a REAL git repository in a temporary
 * folder (no database): the git facts, the real §8 check behind the `RepoCheck` seam (the tool's
 * `checkLastTurn` with the domain's rules), positive and negative, the turn start and its
 * fallback, the folder compared with the recorded turn files (§3.2), the decider's turn file
 * (§10), and `next` before turn 1 (§7.4 from the folder's own config and backlog).
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { whoPlays } from '../src/cli/disput/dialogue.js';
import { deciderTurn, folderDifferences, freshTurnFiles } from '../src/cli/disput/playTurn.js';
import { refusedBy } from '../src/cli/disput/refusedBy.js';
import { GIT_SHOW_MAX_BYTES } from '../src/cli/disput/disputCliLimits.js';
import { GitRepo, TURNS_DIR, type RepoCheckResult } from '../src/cli/disput/repoChecks.js';
import { disputRepoCheck } from '../src/cli/disput/turnCheck.js';
import { GitError } from '../src/client/disput/gitFacts.js';
import { ensureLocalFilesIgnored, recordTurnStart } from '../src/client/disput/localFiles.js';
import { parseTurnFile } from '../src/domain/disput/turnFile.js';
import { initialDisputState, type DisputConfig, type DisputState } from '../src/domain/disput/disputTypes.js';
import { ACTORS, BACKLOG, CONFIG, dialogue, T1, T2, T3, turnText } from './domain/disput/disputFixtures.js';

let root: string;
let repo: GitRepo;

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function commit(files: Record<string, string>, message = 'a commit'): string {
  write(files);
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', message);
  return repo.head();
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mw-disput-git-'));
  repo = new GitRepo(root);
  repo.git('init', '-q', '-b', 'main');
  repo.git('config', 'user.name', 'disput test');
  repo.git('config', 'user.email', 'disput@example.invalid');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the git facts and the §8 seam', () => {
  let first: string;
  let second: string;

  it('reads HEAD, changed paths (from the empty tree before a first turn), files at a commit and turn files', () => {
    first = commit({ 'disput.toml': CONFIG, '.disput/backlog.md': BACKLOG, [`${TURNS_DIR}/0001-claude-implementer.md`]: 'un\n' }, 'turn 1');
    expect(repo.head()).toMatch(/^[0-9a-f]{40}$/);
    expect(repo.changedPaths(undefined, first).sort()).toEqual(['.disput/backlog.md', `${TURNS_DIR}/0001-claude-implementer.md`, 'disput.toml']);
    expect(repo.fileAt(first, `${TURNS_DIR}/0001-claude-implementer.md`)).toBe('un\n');
    expect(repo.fileAt(first, 'absent.md')).toBeUndefined();
    expect(repo.resolve(first.slice(0, 7))).toBe(first);
    expect(repo.resolve('0000000')).toBeUndefined();
    expect(repo.turnFiles(first)).toEqual(['0001-claude-implementer.md']);
  });

  it('a git failure is a GitError, which disput answers as git_failed, not a crash', () => {
    const notARepo = mkdtempSync(join(tmpdir(), 'mw-disput-nogit-'));
    try {
      const failure = (() => {
        try {
          return new GitRepo(notARepo).head();
        } catch (error) {
          return error;
        }
      })();
      expect(failure).toBeInstanceOf(GitError);
      expect(refusedBy(failure)).toMatchObject({ reason: 'git_failed', message: expect.stringMatching(/^git rev-parse HEAD failed \(128\): fatal: not a git repository/) as unknown });
      expect(refusedBy(new Error('a bug'))).toBeUndefined();
    } finally {
      rmSync(notARepo, { recursive: true, force: true });
    }
  });

  it('names the turn files not recorded yet, past the last recorded turn', () => {
    second = commit({ [`${TURNS_DIR}/0002-vibe-reviewer.md`]: 'deux\n', 'src/a.ts': 'a\n' }, 'turn 2');
    expect(repo.changedPaths(first, second).sort()).toEqual([`${TURNS_DIR}/0002-vibe-reviewer.md`, 'src/a.ts']);
    expect(freshTurnFiles(repo, second, initialDisputState(), new Map())).toEqual(['0001-claude-implementer.md', '0002-vibe-reviewer.md']);
    expect(freshTurnFiles(repo, second, withCommits(dialogue(T1), [first]), new Map([['0001-claude-implementer.md', 'un\n']]))).toEqual(['0002-vibe-reviewer.md']);
    expect(repo.turnFiles(repo.resolve('HEAD~1') as string)).toEqual(['0001-claude-implementer.md']);
  });

  it('reports a recorded turn file that differs in the folder or is missing from it (§3.2)', async () => {
    const recorded = new Map([
      ['0001-claude-implementer.md', 'un\n'],
      ['0002-vibe-reviewer.md', 'deux, autrement\n'],
      ['0003-claude-implementer.md', 'trois\n'],
    ]);
    expect(await folderDifferences(repo, second, recorded)).toEqual([
      '0002-vibe-reviewer.md: the folder\'s file differs from the recorded one',
      '0003-claude-implementer.md: recorded in the Group, missing from the folder',
    ]);
    expect(await folderDifferences(repo, second, new Map([['0001-claude-implementer.md', 'un\n']]))).toEqual([]);
  });

  it('readFiles reads a commit\'s files in one git call; fileAt then answers as its git show did, and never for a ref', () => {
    const own = new GitRepo(mkdtempSync(join(tmpdir(), 'mw-disput-batch-')));
    try {
      own.git('init', '-q', '-b', 'main');
      for (const [path, text] of Object.entries({ '.disput/disput.toml': CONFIG, '.disput/backlog.md': 'é\n', 'big.md': 'y'.repeat(GIT_SHOW_MAX_BYTES + 1) })) {
        mkdirSync(dirname(join(own.root, path)), { recursive: true });
        writeFileSync(join(own.root, path), text);
      }
      own.git('add', '-A');
      own.git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'files');
      const head = own.head();
      // A folder, an absent path and a file past git show's bound, besides two files.
      const paths = ['.disput/disput.toml', '.disput/backlog.md', 'absent.md', '.disput', 'big.md'];
      const shown = paths.map((path) => own.fileAt(head, path));
      expect(shown.map((text) => text?.slice(0, 20))).toEqual([CONFIG.slice(0, 20), 'é\n', undefined, expect.stringContaining('tree') as unknown, undefined]);
      const calls = vi.spyOn(own, 'git');
      own.readFiles(head, paths);
      expect(paths.map((path) => own.fileAt(head, path))).toEqual(shown);
      // The folder and the big file are left to git show; the rest came from the one batch.
      expect(calls.mock.calls).toEqual([['show', `${head}:.disput`], ['show', `${head}:big.md`]]);
      calls.mockClear();
      own.readFiles('HEAD', paths);
      expect(own.fileAt('HEAD', 'absent.md')).toBeUndefined();
      expect(calls.mock.calls).toEqual([['show', 'HEAD:absent.md']]);
    } finally {
      rmSync(own.root, { recursive: true, force: true });
    }
  });
});

describe('the decider\'s turn and who starts', () => {
  it('writes NNNN-<participant>-decider.md with a valid header (§10)', () => {
    const state = dialogue(T1);
    const head = 'abcdef0123456789abcdef0123456789abcdef01';
    const { fileName, text } = deciderTurn(state, (ACTORS['user'] as { id: string }).id, head, { text: 'La limite reste au proxy.', answers: ['[I-0002-2] CLOS : tranché'], status: 'DONE' });
    expect(fileName).toBe('0002-user-decider.md');
    const parsed = parseTurnFile(text);
    if ('ok' in parsed) expect.fail(parsed.error.message);
    expect(parsed.header).toEqual({ turn: 2, participant: 'user', role: 'decider', base: 'abcdef0', status: 'DONE' });
    expect(parsed.answers).toEqual([expect.objectContaining({ item: 'I-0002-2', verdict: 'CLOS' })]);
    expect(() => deciderTurn(state, (ACTORS['claude'] as { id: string }).id, head, { text: 'x', answers: [], status: 'CONTINUE' })).toThrow(/holds decider/);
  });

  it('names the backlog\'s implementer before turn 1 from the folder, and says why when there is no config', () => {
    expect(whoPlays(initialDisputState(), { config: CONFIG, backlog: BACKLOG })).toMatchObject({ step: 'backlog', participant: 'claude', roles: ['implementer'], line: 'turn 1: claude plays implementer — the backlog\'s top task: Ajouter la connexion' });
    expect(whoPlays(initialDisputState(), {})).toMatchObject({ step: 'done', line: 'no turn recorded and no .disput/disput.toml in the folder' });
    expect(whoPlays(initialDisputState(), { config: 'roles = 3' }).line).toMatch(/^no turn recorded and disput\.toml is refused: /);
    expect(whoPlays(dialogue(T1), {}).line).toBe('turn 2: vibe plays reviewer — turn 1 changed code that reviewer reviews');
  });
});

/** The recorded dialogue with the real commits of this repository in place of the fixtures' ones. */
function withCommits(state: DisputState, commits: readonly string[]): DisputState {
  return { ...state, turns: state.turns.map((turn, i) => ({ ...turn, commit: commits[i] ?? turn.commit })) };
}

describe('the §8 seam: the tool\'s check, with the Group\'s config and the domain\'s turn rules', () => {
  let dir: string;
  let git: GitRepo;
  let c1: string;
  let state: DisputState;
  // The project's checks here: a must_pass that looks for a planted BUG, no npm in a temporary folder.
  const checked = (s: DisputState): DisputState => ({ ...s, config: { ...(s.config as DisputConfig), checks: [{ name: 'no-bug', command: '! grep -rq BUG src', policy: 'must_pass' }] } });

  function put(files: Record<string, string>, message: string): string {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    git.git('add', '-A');
    git.git('commit', '-q', '-m', message);
    return git.head();
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mw-disput-seam-'));
    git = new GitRepo(dir);
    git.git('init', '-q', '-b', 'main');
    git.git('config', 'user.name', 'disput test');
    git.git('config', 'user.email', 'disput@example.invalid');
    put({ 'disput.toml': CONFIG, '.disput/backlog.md': BACKLOG, 'src/login.ts': 'a\n' }, 'the project');
    c1 = put({ [`${TURNS_DIR}/0001-claude-implementer.md`]: turnText(T1), 'src/login.ts': 'b\n' }, 'turn 1');
    state = checked(withCommits(dialogue(T1), [c1]));
    // As `next` does: the local files ignored first, or the next `git add -A` would commit the start.
    await ensureLocalFilesIgnored(dir);
    await recordTurnStart(dir);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes a good turn from the recorded turn start, and writes last-run.md', async () => {
    const c2 = put({ [`${TURNS_DIR}/0002-vibe-reviewer.md`]: turnText(T2) }, 'turn 2');
    const result = await disputRepoCheck({ repo: git, state, head: c2, fileName: '0002-vibe-reviewer.md' });
    expect(result).toMatchObject({ ok: true, reasons: [], problems: [], notes: [], report: { oldHead: c1, checks: [{ name: 'no-bug', ok: true }] } });
    expect(readFileSync(join(dir, '.disput/last-run.md'), 'utf8')).toMatch(/^# disput check — OK/);
  });

  it('without a usable turn start, checks from the last recorded turn\'s commit and says §8.3 is unchecked', async () => {
    rmSync(join(dir, '.disput/logs/turn-start.json'));
    const missing = await disputRepoCheck({ repo: git, state, head: git.head(), fileName: '0002-vibe-reviewer.md' });
    expect(missing).toMatchObject({ ok: true, report: { oldHead: c1 } });
    expect(missing.notes).toEqual([expect.stringMatching(/^§8\.3 unchecked: no turn start recorded .*the last recorded turn's commit/)]);
    const before = git.resolve('HEAD~2') as string;
    await writeFile(join(dir, '.disput/logs/turn-start.json'), JSON.stringify({ head: before, remoteRefs: {}, unreachableRemotes: [] }));
    const stale = await disputRepoCheck({ repo: git, state, head: git.head(), fileName: '0002-vibe-reviewer.md' });
    expect(stale.notes).toEqual([expect.stringContaining(`the recorded turn start ${before.slice(0, 7)} is not the last recorded turn's commit`)]);
    rmSync(join(dir, '.disput/logs/turn-start.json'));
    const none = await disputRepoCheck({ repo: git, state: initialDisputState(), head: git.head() });
    expect(none).toMatchObject({ ok: false, reasons: ['turn_start_missing'] });
  });

  it('refuses a dirty tree (§8.1) and a turn that leaves a pending item unanswered (§8.6, the domain\'s rule 3)', async () => {
    writeFileSync(join(dir, 'src/stray.ts'), 'x\n');
    const dirty = await disputRepoCheck({ repo: git, state, head: git.head(), fileName: '0002-vibe-reviewer.md' });
    expect(dirty).toMatchObject({ ok: false, reasons: ['tree_dirty'], problems: ['§8.1 tree_dirty: uncommitted: src/stray.ts'] });
    expect(dirty.report['checks']).toBeNull();
    rmSync(join(dir, 'src/stray.ts'));

    const c2 = git.head();
    const after2 = checked(withCommits(dialogue(T1, T2), [c1, c2]));
    const c3 = put({ [`${TURNS_DIR}/0003-claude-implementer.md`]: turnText({ n: 3, who: 'claude', role: 'implementer' }), 'src/login.ts': 'c\n' }, 'turn 3');
    const unanswered = await disputRepoCheck({ repo: git, state: after2, head: c3, fileName: '0003-claude-implementer.md', start: { head: c2, remoteRefs: new Map() } });
    expect(unanswered).toMatchObject({ ok: false, reasons: ['answer_missing'] });
  });

  it('refuses a must_pass check that fails (§8.7) and a header that does not name its file (§4)', async () => {
    const after2 = checked(withCommits(dialogue(T1, T2), [c1, git.resolve('HEAD~1') as string]));
    git.git('reset', '-q', '--hard', 'HEAD~1');
    const c2 = git.head();
    const bad = put({ [`${TURNS_DIR}/0003-claude-implementer.md`]: turnText(T3), 'src/login.ts': 'BUG\n' }, 'turn 3, with a bug');
    const failing = await disputRepoCheck({ repo: git, state: after2, head: bad, fileName: '0003-claude-implementer.md', start: { head: c2, remoteRefs: new Map() } });
    expect(failing).toMatchObject({ ok: false, reasons: ['check_failed'], report: { checks: [{ name: 'no-bug', ok: false, reason: 'check_failed' }] } });
    expect(failing.problems).toEqual(['§8.7 check_failed: no-bug (must_pass) exit 1; see .disput/last-run.md']);

    git.git('reset', '-q', '--hard', 'HEAD~1');
    const misnamed = put({ [`${TURNS_DIR}/0003-claude-reviewer.md`]: turnText(T3) }, 'turn 3, misnamed');
    const named = await disputRepoCheck({ repo: git, state: after2, head: misnamed, fileName: '0003-claude-reviewer.md', start: { head: c2, remoteRefs: new Map() } });
    expect(named.reasons).toContain('file_name_mismatch');
  });
});

describe('before turn 1, the folder as the seed lays it out', () => {
  const scratch: string[] = [];
  afterAll(() => {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  /** A repository with `files` committed as the project, its checks commands that pass at once. */
  function project(files: Record<string, string>): GitRepo {
    const dir = mkdtempSync(join(tmpdir(), 'mw-disput-first-'));
    scratch.push(dir);
    const git = new GitRepo(dir);
    git.git('init', '-q', '-b', 'main');
    git.git('config', 'user.name', 'disput test');
    git.git('config', 'user.email', 'disput@example.invalid');
    commitIn(git, { '.disput/.gitignore': 'logs/\nrun.lock\nlast-run.md\n', 'src/login.ts': 'a\n', ...files }, 'the project');
    return git;
  }

  function commitIn(git: GitRepo, files: Record<string, string>, message: string): string {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(git.root, path)), { recursive: true });
      writeFileSync(join(git.root, path), text);
    }
    git.git('add', '-A');
    git.git('commit', '-q', '-m', message);
    return git.head();
  }

  const PASSING = CONFIG.replace('command = "npm test"', 'command = "true"').replace('command = "npm run lint"', 'command = "true"');

  it('reads the header as TOML: a base in single quotes is the commit the first turn starts from (§4)', async () => {
    const git = project({ 'disput.toml': PASSING, '.disput/backlog.md': BACKLOG });
    const base = git.head();
    const literal = turnText(T1).replace(/"/g, "'").replace(/'0000000'/, `'${base.slice(0, 7)}'`);
    const head = commitIn(git, { [`${TURNS_DIR}/0001-claude-implementer.md`]: literal, 'src/login.ts': 'b\n' }, 'turn 1');
    const checked = await disputRepoCheck({ repo: git, state: initialDisputState(), head, fileName: '0001-claude-implementer.md' });
    expect(checked).toMatchObject({ ok: true, reasons: [], report: { oldHead: base } });
    expect(checked.notes).toEqual([expect.stringContaining(`§8.3 unchecked: no turn start recorded`)]);
  });

  it('§2: the config is .disput/disput.toml, where the seed puts it; a root disput.toml is read only without it', async () => {
    const playFirst = async (files: Record<string, string>): Promise<RepoCheckResult> => {
      const git = project({ ...files, '.disput/backlog.md': BACKLOG });
      const base = git.head();
      const head = commitIn(git, { [`${TURNS_DIR}/0001-claude-implementer.md`]: turnText({ ...T1, base: base.slice(0, 7) }), 'src/login.ts': 'b\n' }, 'turn 1');
      return disputRepoCheck({ repo: git, state: initialDisputState(), head, fileName: '0001-claude-implementer.md' });
    };
    expect(await playFirst({ '.disput/disput.toml': PASSING })).toMatchObject({ ok: true, reasons: [] });
    // Both: the seed's wins (the root one here is not even a config).
    expect(await playFirst({ '.disput/disput.toml': PASSING, 'disput.toml': 'roles = 3\n' })).toMatchObject({ ok: true, reasons: [] });
    expect(await playFirst({ 'disput.toml': PASSING })).toMatchObject({ ok: true, reasons: [] });
    expect(await playFirst({})).toMatchObject({ ok: false, reasons: ['config_missing'], problems: ['no .disput/disput.toml (nor disput.toml) at HEAD and none pinned in the Group'] });
  });
});
