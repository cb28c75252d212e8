/**
 * The pieces of `missionweave disput` below the node, on a REAL git repository in a temporary
 * folder (no database): the git facts, the minimal §8 check behind the `RepoCheck` seam, positive
 * and negative, the folder compared with the recorded turn files (§3.2), the decider's turn file
 * (§10), and `next` before turn 1 (§7.4 from the folder's own config and backlog).
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whoPlays } from '../src/cli/disput/dialogue.js';
import { deciderTurn, folderDifferences } from '../src/cli/disput/playTurn.js';
import { basicRepoCheck, GitRepo, TURNS_DIR } from '../src/cli/disput/repoChecks.js';
import { parseTurnFile } from '../src/domain/disput/turnFile.js';
import { initialDisputState } from '../src/domain/disput/disputTypes.js';
import { ACTORS, BACKLOG, CONFIG, dialogue, T1 } from './domain/disput/disputFixtures.js';

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

  it('passes a clean tree with one new turn file on a descendant commit', () => {
    second = commit({ [`${TURNS_DIR}/0002-vibe-reviewer.md`]: 'deux\n', 'src/a.ts': 'a\n' }, 'turn 2');
    const changedPaths = repo.changedPaths(first, second);
    expect(changedPaths.sort()).toEqual([`${TURNS_DIR}/0002-vibe-reviewer.md`, 'src/a.ts']);
    expect(basicRepoCheck({ repo, previousCommit: first, head: second, fileName: '0002-vibe-reviewer.md', changedPaths })).toEqual([]);
  });

  it('refuses a dirty tree and no new commit (§8.1)', () => {
    write({ 'src/stray.ts': 'x\n' });
    const dirty = basicRepoCheck({ repo, previousCommit: first, head: second, fileName: '0002-vibe-reviewer.md', changedPaths: [`${TURNS_DIR}/0002-vibe-reviewer.md`] });
    expect(dirty).toEqual([expect.stringContaining('§8.1 the working tree is not clean: ?? src/stray.ts')]);
    rmSync(join(root, 'src/stray.ts'));
    expect(basicRepoCheck({ repo, previousCommit: second, head: second, fileName: '0002-vibe-reviewer.md', changedPaths: [`${TURNS_DIR}/0002-vibe-reviewer.md`] })).toEqual(['§8.1 no new commit since the last recorded turn']);
  });

  it('refuses a last turn commit that is not an ancestor of HEAD (§8.2)', () => {
    repo.git('checkout', '-q', '-b', 'other', first);
    const elsewhere = commit({ 'src/b.ts': 'b\n' }, 'elsewhere');
    repo.git('checkout', '-q', 'main');
    const problems = basicRepoCheck({ repo, previousCommit: elsewhere, head: second, fileName: '0002-vibe-reviewer.md', changedPaths: [`${TURNS_DIR}/0002-vibe-reviewer.md`] });
    expect(problems).toEqual([`§8.2 the last recorded turn's commit ${elsewhere} is not an ancestor of HEAD`]);
  });

  it('refuses two turn files, or an old one changed, or none (§8.4)', () => {
    const two = [`${TURNS_DIR}/0001-claude-implementer.md`, `${TURNS_DIR}/0002-vibe-reviewer.md`];
    expect(basicRepoCheck({ repo, previousCommit: first, head: second, fileName: '0002-vibe-reviewer.md', changedPaths: two })).toEqual([`§8.4 exactly one turn file changes, the new one: ${two.join(', ')}`]);
    expect(basicRepoCheck({ repo, previousCommit: first, head: second, fileName: '0002-vibe-reviewer.md', changedPaths: ['src/a.ts'] })).toEqual(['§8.4 exactly one turn file changes, the new one: none']);
  });

  it('reports a recorded turn file that differs in the folder or is missing from it (§3.2)', () => {
    const recorded = new Map([
      ['0001-claude-implementer.md', 'un\n'],
      ['0002-vibe-reviewer.md', 'deux, autrement\n'],
      ['0003-claude-implementer.md', 'trois\n'],
    ]);
    expect(folderDifferences(repo, second, recorded)).toEqual([
      '0002-vibe-reviewer.md: the folder\'s file differs from the recorded one',
      '0003-claude-implementer.md: recorded in the Group, missing from the folder',
    ]);
    expect(folderDifferences(repo, second, new Map([['0001-claude-implementer.md', 'un\n']]))).toEqual([]);
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
    expect(whoPlays(initialDisputState(), {})).toMatchObject({ step: 'done', line: 'no turn recorded and no disput.toml in the folder' });
    expect(whoPlays(initialDisputState(), { config: 'roles = 3' }).line).toMatch(/^no turn recorded and disput\.toml is refused: /);
    expect(whoPlays(dialogue(T1), {}).line).toBe('turn 2: vibe plays reviewer — turn 1 changed code that reviewer reviews');
  });
});
