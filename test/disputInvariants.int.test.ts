/**
 * Seed §8 invariants 1–6 as `missionweave disput check` sees them, each positive and negative, on
 * real git repositories in temporary folders (test/support/gitRepo.ts). Every case starts after
 * turn 1 (claude, implementer) was committed and pushed, records the turn start, plays turn 2,
 * and reads the report. Last, the folder against the turns a Group recorded (issue 15 part 3).
 */

import { execFileSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants, type InvariantRules, type TurnStart } from '../src/client/disput/invariants.js';
import { recordTurnStart } from '../src/client/disput/localFiles.js';
import { blobs, divergence, entriesIn } from '../src/client/disput/gitFacts.js';
import { GIT_MAX_OUTPUT_BYTES } from '../src/client/disput/disputToolLimits.js';
import { compareRecordedTurns } from '../src/client/disput/recordedTurns.js';
import { GIT_TEST_ENV, makeRepo, turnPath, turnText, useGitTestEnv, validateTurnFile, type TestRepo } from './support/gitRepo.js';

const ROLES: Readonly<Record<string, boolean>> = { implementer: true, reviewer: false };
const rules: InvariantRules = { validateTurnFile, writesCode: (role) => ROLES[role] };

let repo: TestRepo;
let start: TurnStart;

beforeAll(() => useGitTestEnv());
afterEach(() => repo.cleanup());

async function begin(): Promise<void> {
  repo = makeRepo();
  start = await recordTurnStart(repo.dir);
}

/** Turn 2 by vibe as reviewer: the turn file only. */
function playReview(): void {
  repo.write(turnPath(2, 'vibe', 'reviewer'), turnText(2, 'vibe', 'reviewer'));
  repo.commit('turn 2');
}

async function reasons(custom: InvariantRules = rules): Promise<string[]> {
  return (await checkInvariants(repo.dir, start, custom)).failures.map((f) => f.reason);
}

describe('§8 invariants on the last turn', () => {
  it('a well-formed review turn passes, and names its turn file', async () => {
    await begin();
    playReview();
    const report = await checkInvariants(repo.dir, start, rules);
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.turnFile).toEqual({ path: turnPath(2, 'vibe', 'reviewer'), number: 2, participant: 'vibe', role: 'reviewer' });
    expect(report.head).toBe(repo.head());
  });

  it('§8.1: no new commit is refused (and so is the missing turn file)', async () => {
    await begin();
    expect(await reasons()).toEqual(['no_new_commit', 'turn_file_missing']);
  });

  it('§8.1: an uncommitted file leaves the tree dirty; the local files do not', async () => {
    await begin();
    playReview();
    repo.write('.disput/logs/run.log', 'local');
    repo.write('.disput/run.lock', '{}');
    repo.write('.disput/last-run.md', 'local');
    expect(await reasons()).toEqual([]);
    repo.write('notes.txt', 'forgotten');
    const report = await checkInvariants(repo.dir, start, rules);
    expect(report.failures.map((f) => f.reason)).toEqual(['tree_dirty']);
    expect(report.failures[0]?.message).toContain('notes.txt');
  });

  it('divergence counts the commits each side has alone: none on the old HEAD\'s side is its ancestry', async () => {
    await begin();
    playReview();
    expect(await divergence(repo.dir, start.head, repo.head())).toEqual({ onlyFrom: 0, onlyTo: 1 });
    expect(await divergence(repo.dir, repo.head(), start.head)).toEqual({ onlyFrom: 1, onlyTo: 0 });
    expect(await divergence(repo.dir, start.head, start.head)).toEqual({ onlyFrom: 0, onlyTo: 0 });
  });

  it('§8.2: an amended (rewritten) old HEAD is refused', async () => {
    await begin();
    repo.write(turnPath(2, 'vibe', 'reviewer'), turnText(2, 'vibe', 'reviewer'));
    repo.git('add', '-A');
    repo.git('commit', '--quiet', '--amend', '-m', 'turn 1 and 2 squashed');
    expect(await reasons()).toContain('history_rewritten');
  });

  it('§8.3: a push during the turn moves the remote\'s branch and is refused', async () => {
    await begin();
    playReview();
    repo.git('push', '--quiet', 'origin', 'main');
    const report = await checkInvariants(repo.dir, start, rules);
    expect(report.failures.map((f) => f.reason)).toEqual(['remote_ref_moved']);
    expect(report.failures[0]?.message).toBe('moved during the turn: origin refs/heads/main');
  });

  it('§8.3: a new remote ref (a pushed new branch) counts as moved', async () => {
    await begin();
    playReview();
    repo.git('push', '--quiet', 'origin', 'HEAD:refs/heads/side');
    expect(await reasons()).toEqual(['remote_ref_moved']);
  });

  it('§8.3: every ref the remote has counts, branches and tags, whoever moved it and fetched or not', async () => {
    await begin();
    playReview();
    repo.git('tag', 'v1');
    repo.git('push', '--quiet', 'origin', 'v1');
    const tagged = await checkInvariants(repo.dir, start, rules);
    expect(tagged.failures.map((f) => f.reason)).toEqual(['remote_ref_moved']);
    expect(tagged.failures[0]?.message).toBe('moved during the turn: origin refs/tags/v1');

    // Another clone pushes to the remote's main; this clone never fetches it.
    repo.cleanup();
    await begin();
    playReview();
    const other = `${repo.dir}-other`;
    execFileSync('git', ['clone', '--quiet', repo.git('remote', 'get-url', 'origin'), other], { env: { ...process.env, ...GIT_TEST_ENV } });
    execFileSync('git', ['commit', '--quiet', '--allow-empty', '-m', 'elsewhere'], { cwd: other, env: { ...process.env, ...GIT_TEST_ENV } });
    execFileSync('git', ['push', '--quiet', 'origin', 'HEAD:main'], { cwd: other, env: { ...process.env, ...GIT_TEST_ENV } });
    expect((await checkInvariants(repo.dir, start, rules)).failures.map((f) => f.message)).toEqual(['moved during the turn: origin refs/heads/main']);
  });

  it('§8.3: a remote that cannot be read is not a pass', async () => {
    await begin();
    playReview();
    repo.git('remote', 'set-url', 'origin', `${repo.dir}/nowhere.git`);
    const report = await checkInvariants(repo.dir, start, rules);
    expect(report.failures.map((f) => [f.invariant, f.reason])).toEqual([[3, 'remote_unreachable']]);
    expect(report.failures[0]?.message).toMatch(/^origin cannot be read: /);
  });

  it('§8.4: two turn files added in one turn are refused', async () => {
    await begin();
    repo.write(turnPath(2, 'vibe', 'reviewer'), turnText(2, 'vibe', 'reviewer'));
    repo.write(turnPath(3, 'claude', 'implementer'), turnText(3, 'claude', 'implementer'));
    repo.commit('two turns');
    expect(await reasons()).toEqual(['turn_file_extra']);
  });

  it('§8.4: a skipped number is refused', async () => {
    await begin();
    repo.write(turnPath(3, 'vibe', 'reviewer'), turnText(3, 'vibe', 'reviewer'));
    repo.commit('turn 3 too early');
    expect(await reasons()).toEqual(['turn_number_not_next']);
  });

  it('§8.4: a file name that is not NNNN-<participant>-<role>.md is refused', async () => {
    await begin();
    repo.write('.disput/turns/2-vibe-reviewer.md', turnText(2, 'vibe', 'reviewer'));
    repo.commit('bad name');
    expect(await reasons()).toEqual(['file_name_mismatch']);
  });

  it('§8.4: an invalid header is refused with the validator’s reason', async () => {
    await begin();
    repo.write(turnPath(2, 'vibe', 'reviewer'), '# Tour 2 with no header\n');
    repo.commit('no header');
    expect(await reasons()).toEqual(['turn_header_invalid']);
  });

  it('§8.4, rule 2: an existing turn file modified, or deleted, is refused', async () => {
    await begin();
    playReview();
    repo.write(turnPath(1, 'claude', 'implementer'), `${turnText(1, 'claude', 'implementer')}\nAn afterthought.\n`);
    repo.commit('edit turn 1');
    expect(await reasons()).toEqual(['turn_file_changed']);

    repo.cleanup();
    await begin();
    repo.git('rm', '--quiet', turnPath(1, 'claude', 'implementer'));
    repo.write(turnPath(2, 'vibe', 'reviewer'), turnText(2, 'vibe', 'reviewer'));
    repo.commit('drop turn 1');
    const report = await checkInvariants(repo.dir, start, rules);
    expect(report.failures.map((f) => f.reason)).toEqual(['turn_file_changed']);
    expect(report.failures[0]?.message).toContain('deleted');
  });

  it('§8.4, rule 2: the turn\'s history counts, not only its net change — a turn file edited, then restored, is refused', async () => {
    await begin();
    const original = turnText(1, 'claude', 'implementer');
    repo.write(turnPath(1, 'claude', 'implementer'), `${original}\nAn afterthought.\n`);
    const edited = repo.commit('edit turn 1');
    repo.write(turnPath(1, 'claude', 'implementer'), original);
    repo.write(turnPath(2, 'vibe', 'reviewer'), turnText(2, 'vibe', 'reviewer'));
    repo.commit('restore turn 1, turn 2');
    const report = await checkInvariants(repo.dir, start, rules);
    expect(report.failures.map((f) => [f.invariant, f.reason, f.message])).toEqual([
      [4, 'turn_file_changed', `${turnPath(1, 'claude', 'implementer')} was modified in commit ${edited.slice(0, 12)}: a committed turn file is never changed (rule 2)`],
    ]);

    // The turn's own file may be written over several of its commits: it is not committed as a turn until the turn ends.
    repo.cleanup();
    await begin();
    repo.write(turnPath(2, 'vibe', 'reviewer'), 'draft\n');
    repo.commit('turn 2, a draft');
    playReview();
    expect(await reasons()).toEqual([]);
  });

  it('§8.5: a writes_code = false role that changes code is refused; one that writes code is not', async () => {
    await begin();
    repo.write('src/app.txt', 'changed by the reviewer\n');
    playReview();
    const report = await checkInvariants(repo.dir, start, rules);
    expect(report.failures.map((f) => [f.invariant, f.reason])).toEqual([[5, 'role_writes_no_code']]);
    expect(report.failures[0]?.message).toContain('src/app.txt');

    repo.cleanup();
    await begin();
    repo.write('src/app.txt', 'changed by the implementer\n');
    repo.write(turnPath(2, 'claude', 'implementer'), turnText(2, 'claude', 'implementer'));
    repo.commit('turn 2, code');
    expect(await reasons()).toEqual([]);
  });

  it('§8.5: a role disput.toml does not declare is refused', async () => {
    await begin();
    repo.write(turnPath(2, 'vibe', 'security'), turnText(2, 'vibe', 'security'));
    repo.commit('turn 2, undeclared role');
    expect(await reasons()).toEqual(['role_unknown']);
  });

  it('§8.6: the domain’s pending-items hook is consulted and its reason reported', async () => {
    await begin();
    playReview();
    const seen: string[] = [];
    const strict: InvariantRules = {
      ...rules,
      pendingItemsAnswered: (fileName, text) => {
        seen.push(fileName);
        return text.includes('[I-0001-1]') ? { ok: true } : { ok: false, reason: 'answer_missing', message: 'I-0001-1 is pending' };
      },
    };
    const report = await checkInvariants(repo.dir, start, strict);
    expect(seen).toEqual(['0002-vibe-reviewer.md']);
    expect(report.failures).toEqual([{ invariant: 6, reason: 'answer_missing', message: 'I-0001-1 is pending' }]);
  });
});

describe('the folder and the Group agree', () => {
  it('recorded turns match their files; a changed, removed or unrecorded file is reported', async () => {
    await begin();
    const one = { fileName: '0001-claude-implementer.md', text: turnText(1, 'claude', 'implementer') };
    expect(await compareRecordedTurns(repo.dir, repo.head(), [one])).toEqual([]);

    playReview();
    expect(await compareRecordedTurns(repo.dir, repo.head(), [one])).toEqual([{ reason: 'turn_file_unrecorded', fileName: '0002-vibe-reviewer.md' }]);
    const two = { fileName: '0002-vibe-reviewer.md', text: turnText(2, 'vibe', 'reviewer') };
    expect(await compareRecordedTurns(repo.dir, repo.head(), [one, { ...two, text: `${two.text} ` }])).toEqual([{ reason: 'turn_file_differs', fileName: two.fileName }]);

    repo.git('rm', '--quiet', turnPath(1, 'claude', 'implementer'));
    repo.commit('drop turn 1');
    expect(await compareRecordedTurns(repo.dir, repo.head(), [one, two])).toEqual([{ reason: 'turn_file_absent', fileName: one.fileName }]);
  });

  it('past what one cat-file --batch may print, the turns are read in several, byte for byte; a folder in a turn file\'s place differs', async () => {
    await begin();
    const one = { fileName: '0001-claude-implementer.md', text: turnText(1, 'claude', 'implementer') };
    // Five files of 1 MiB each: more than GIT_MAX_OUTPUT_BYTES (4 MiB) together.
    const big = [2, 3, 4, 5, 6].map((n) => ({ fileName: `000${n}-vibe-reviewer.md`, text: `${String(n).repeat(1024 * 1024 - 1)}\n` }));
    expect(big.reduce((sum, file) => sum + file.text.length, 0)).toBeGreaterThan(GIT_MAX_OUTPUT_BYTES);
    for (const file of big) repo.write(`.disput/turns/${file.fileName}`, file.text);
    repo.write('.disput/turns/0007-codex-reviewer.md/inside.md', 'a folder where a turn file was\n');
    repo.commit('turns 2 to 7');
    const entries = (await entriesIn(repo.dir, repo.head(), '.disput/turns')).filter((entry) => entry.type === 'blob');
    expect(entries.map((entry) => entry.size)).toEqual([Buffer.byteLength(one.text), ...big.map((file) => file.text.length)]);
    expect((await blobs(repo.dir, entries as { object: string; size: number }[])).map((bytes) => bytes.toString('utf8'))).toEqual([one.text, ...big.map((file) => file.text)]);
    const seventh = { fileName: '0007-codex-reviewer.md', text: 'a folder where a turn file was\n' };
    expect(await compareRecordedTurns(repo.dir, repo.head(), [one, ...big, seventh])).toEqual([{ reason: 'turn_file_differs', fileName: seventh.fileName }]);
    const changed = big.map((file, i) => (i === 3 ? { ...file, text: `${file.text.slice(0, -2)}x\n` } : file));
    expect(await compareRecordedTurns(repo.dir, repo.head(), [one, ...changed])).toEqual([
      { reason: 'turn_file_differs', fileName: '0005-vibe-reviewer.md' },
      { reason: 'turn_file_unrecorded', fileName: seventh.fileName },
    ]);
  });
});
