/**
 * `missionweave disput` end to end (issue 15, part 3): a REAL git repository in a temporary
 * folder, a real `serve` process, and every step driven through `missionweave disput …` (in process, and once through the binary).
 * The issue's dialogue — implementer → reviewer with two items → answers → a REJETÉ escalated to
 * the human → the decider's turn → DONE — with `next` naming each player and why, a turn out of
 * order refused with its reason, and the full §8 check behind `play` and `check`: `check` passing
 * on a good turn (and writing `last-run.md`), a turn refused for a failing `must_pass` check, for a
 * remote ref moved during the turn (another clone's push to the bare remote, not fetched) and for a
 * dirty tree, nothing sent each time; and a changed turn file reported against the one the Group
 * recorded.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DISPUT_URI } from '../src/domain/disput/disputProfile.js';
import { BACKLOG, BACKLOG_EMPTY, configFor, fileNameOf, T2, T3, T4, T5, turnText, type TurnSpec } from './domain/disput/disputFixtures.js';
import { runCli } from '../src/cli/runCli.js';
import { CLI, MCP_NODE_START_MS, startMcpNode, type McpNode } from './support/mcpNode.js';

let node: McpNode;
let repo: string;
/** The project's bare remote, and another clone that pushes to it. */
let remote: string;
let other: string;
const HANDLES: Record<string, string> = { claude: 'claude', vibe: 'vibe', codex: 'codex', user: 'alice' };

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
}

/** The project's `[[checks]]`, runnable in a bare temporary folder: no BUG in src/, and src/login.ts still there. */
function withLocalChecks(config: string): string {
  return config.replace('command = "npm test"', 'command = "! grep -rq BUG src"').replace('command = "npm run lint"', 'command = "test -f src/login.ts"');
}

async function recordedTurns(): Promise<unknown> {
  return (await disput('codex', 'status')).json['turns'];
}

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
}

/** A turn as its participant makes it: work, the turn file with `base` = HEAD, one commit. */
function commitTurn(spec: TurnSpec, files: Record<string, string> = {}): string {
  const fileName = fileNameOf(spec);
  write({ ...files, [`.disput/turns/${fileName}`]: turnText({ ...spec, base: git('rev-parse', '--short=7', 'HEAD') }) });
  git('add', '-A');
  git('commit', '-q', '-m', `disput: ${fileName}`);
  const transcript = process.env['MW_DISPUT_TRANSCRIPT'];
  if (transcript !== undefined) appendFileSync(transcript, `# commit ${fileName} (${Object.keys(files).join(', ') || 'the turn file only'})\n\n`);
  return fileName;
}

interface Said {
  readonly code: number | null;
  readonly line: string;
  readonly json: Record<string, unknown>;
  readonly stderr: string;
}

/** What one `disput` command printed and its exit code. */
function said(code: number | null, stdout: string, stderr: string, args: readonly string[], who: string): Said {
  const lines = stdout.trim().split('\n');
  // MW_DISPUT_TRANSCRIPT=FILE keeps what each command printed: the README's session is cut from it.
  const transcript = process.env['MW_DISPUT_TRANSCRIPT'];
  if (transcript !== undefined) appendFileSync(transcript, `$ missionweave disput ${args.join(' ')} --as ${HANDLES[who] ?? who}\n${stdout}${code === 0 ? '' : `(exit ${String(code)})\n`}\n`);
  const json = lines.length > 0 && lines.at(-1)?.startsWith('{') === true ? (JSON.parse(lines.at(-1) as string) as Record<string, unknown>) : {};
  return { code, line: lines[0] ?? '', json, stderr };
}

function disputArgs(who: string, args: readonly string[]): string[] {
  return ['disput', ...args, '--as', HANDLES[who] as string, '--dir', node.dir, '--repo', repo, '--group', node.groupId];
}

/** `missionweave disput …` in process (src/cli/runCli.ts). */
async function disput(who: string, ...args: string[]): Promise<Said> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(disputArgs(who, args), { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) });
  return said(code, stdout, stderr, args, who);
}

/** The same through the built binary, `node dist/cli/main.js disput …`. */
function disputBinary(who: string, ...args: string[]): Said {
  const result = spawnSync(process.execPath, [CLI, ...disputArgs(who, args)], { encoding: 'utf8', timeout: 30_000 });
  return said(result.status, result.stdout, result.stderr, args, who);
}

async function played(who: string): Promise<Said> {
  const said = await disput(who, 'play');
  expect(said.code, `${said.line}\n${JSON.stringify(said.json)}\n${said.stderr}`).toBe(0);
  return said;
}

async function expectNext(participant: string | undefined, roles: readonly string[], step: string): Promise<Said> {
  const said = await disput('claude', 'next');
  expect(said.code, said.stderr).toBe(0);
  expect(said.json).toMatchObject({ step, roles });
  expect(said.json['participant']).toBe(participant);
  return said;
}

beforeAll(async () => {
  node = await startMcpNode(['claude', 'vibe', 'codex'], [{ profileUri: DISPUT_URI, majorVersion: 0 }]);
  repo = mkdtempSync(join(tmpdir(), 'mw-disput-repo-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'disput test');
  git('config', 'user.email', 'disput@example.invalid');
  const principals = Object.fromEntries(['claude', 'vibe', 'codex'].map((name) => [name, { type: 'agent' as const, id: node.agents[name]?.id ?? '' }]));
  write({
    '.disput/disput.toml': withLocalChecks(configFor({ ...principals, user: { type: 'human', id: node.human.id } })),
    '.disput/backlog.md': BACKLOG,
    '.gitignore': '.disput/logs/\n.disput/run.lock\n.disput/last-run.md\n',
    'src/login.ts': 'export const login = () => false;\n',
  });
  git('add', '-A');
  git('commit', '-q', '-m', 'disput: the project');
  remote = mkdtempSync(join(tmpdir(), 'mw-disput-remote-'));
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  git('remote', 'add', 'origin', remote);
  git('push', '-q', '-u', 'origin', 'main');
  other = mkdtempSync(join(tmpdir(), 'mw-disput-other-'));
  execFileSync('git', ['clone', '-q', remote, other]);
}, MCP_NODE_START_MS);

afterAll(async () => {
  await node?.close();
  for (const dir of [repo, remote, other]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

it('plays the issue\'s dialogue to DONE through the CLI, refusing a turn out of order with its reason', async () => {
  const first = await expectNext('claude', ['implementer'], 'backlog');
  expect(first.line).toBe('turn 1: claude plays implementer — the backlog\'s top task: Ajouter la connexion');

  expect(first.json['turnStart']).toBe(git('rev-parse', 'HEAD'));

  commitTurn({ n: 1, who: 'claude', role: 'implementer' }, { 'src/login.ts': 'export const login = (ok: boolean) => ok;\n' });
  // `check`: the same §8 check `play` applies, printed, with `last-run.md` written.
  const checked = await disput('claude', 'check');
  expect(checked.code, `${checked.line}\n${JSON.stringify(checked.json)}`).toBe(0);
  expect(checked.line).toMatch(/^check passed: 0001-claude-implementer\.md at [0-9a-f]{7}$/);
  expect(checked.json).toMatchObject({ ok: true, fileName: '0001-claude-implementer.md', reasons: [], notes: [], disagreements: [], checks: [{ name: 'tests', ok: true }, { name: 'lint', ok: true }] });
  expect(readFileSync(join(repo, '.disput/last-run.md'), 'utf8')).toMatch(/^# disput check — OK/);
  const t1 = await played('claude');
  expect(t1.json['events']).toEqual([
    { kind: 'ext.missionweave.disput.config_pinned', sequence: 5 },
    { kind: 'ext.missionweave.disput.turn_recorded', sequence: 6 },
  ]);
  expect(t1.line).toMatch(/^recorded 0001-claude-implementer\.md at [0-9a-f]{7}: /);

  // codex, a reviewer too, plays before vibe: the Authority refuses it, saying whose turn it is.
  commitTurn({ n: 2, who: 'codex', role: 'reviewer' });
  const early = await disput('codex', 'play');
  expect(early.code).toBe(1);
  expect(early.json).toMatchObject({ ok: false, code: 'INVALID_STATE_TRANSITION', reason: 'not_your_turn', details: { reason: 'not_your_turn', participant: 'vibe' } });
  expect(early.line).toMatch(/^refused: INVALID_STATE_TRANSITION not_your_turn — /);
  git('reset', '-q', '--hard', 'HEAD~1');

  await expectNext('vibe', ['reviewer'], 'triggered');
  commitTurn(T2);
  await played('vibe');
  const status = await disput('claude', 'status');
  expect(status.json).toMatchObject({ differences: [], turns: 2, byState: { OUVERT: ['I-0002-1', 'I-0002-2'] }, backlog: { open: 3, next: 'Ajouter la connexion' } });

  expect((await expectNext('claude', ['implementer', 'reviewer'], 'item_pending')).json['item']).toBe('I-0002-1');
  // §8.7: a `must_pass` check that fails refuses the turn before anything is sent.
  commitTurn(T3, { 'src/login.ts': 'export const login = (ok: boolean) => ok; // BUG\n', '.disput/backlog.md': BACKLOG_EMPTY });
  const failing = await disput('claude', 'play');
  expect(failing.code).toBe(1);
  expect(failing.json).toMatchObject({ ok: false, reason: 'repo_check_failed', reasons: ['check_failed'] });
  expect(failing.line).toMatch(/^refused: repo_check_failed — /);
  expect(String(failing.json['problems'])).toContain('§8.7 check_failed: tests (must_pass) exit 1');
  expect(await recordedTurns()).toBe(2);
  git('reset', '-q', '--hard', 'HEAD~1');

  // §8.1: a dirty tree is refused by the same check.
  commitTurn(T3, { 'src/login.ts': 'export const login = (ok: boolean) => ok === true;\n', '.disput/backlog.md': BACKLOG_EMPTY });
  write({ 'src/stray.ts': 'x\n' });
  const dirty = await disput('claude', 'play');
  expect(dirty.code).toBe(1);
  expect(dirty.json).toMatchObject({ ok: false, reason: 'repo_check_failed', reasons: ['tree_dirty'], problems: ['§8.1 tree_dirty: uncommitted: src/stray.ts'] });
  rmSync(join(repo, 'src/stray.ts'));
  await played('claude');
  // §5: I-0002-1 was ACCEPTÉ (fixed in that turn's code); its addressee keeps the hand and names the fix.
  expect((await expectNext('claude', ['implementer', 'reviewer'], 'item_pending')).json['item']).toBe('I-0002-1');
  commitTurn(T4);
  await played('claude');

  // §8.3, rule 6: a remote ref that moves during the turn (here another clone pushes; this one
  // never fetches, the remote itself is asked) refuses the turn; the turn start `next` recorded is
  // the witness.
  await expectNext('vibe', ['implementer', 'reviewer'], 'item_pending');
  commitTurn(T5);
  writeFileSync(join(other, 'elsewhere.txt'), 'poussé ailleurs\n');
  execFileSync('git', ['add', 'elsewhere.txt'], { cwd: other });
  execFileSync('git', ['-c', 'user.name=other', '-c', 'user.email=other@example.invalid', 'commit', '-q', '-m', 'elsewhere'], { cwd: other });
  execFileSync('git', ['push', '-q', 'origin', 'HEAD:main'], { cwd: other });
  const pushed = await disput('vibe', 'play');
  expect(pushed.code).toBe(1);
  expect(pushed.json).toMatchObject({ ok: false, reason: 'repo_check_failed', reasons: ['remote_ref_moved'], problems: ['§8.3 remote_ref_moved: moved during the turn: origin refs/heads/main'] });
  expect(await recordedTurns()).toBe(4);
  // The turn is played again from a fresh start, the moved ref now part of it.
  git('reset', '-q', '--hard', 'HEAD~1');
  await expectNext('vibe', ['implementer', 'reviewer'], 'item_pending');
  commitTurn(T5);
  await played('vibe');
  const escalated = await expectNext('user', ['decider'], 'item_pending');
  expect(escalated.json['item']).toBe('I-0002-2');

  // A decision the Authority would refuse (no answer to the escalated item, rule 3) is neither written nor committed.
  const before = git('rev-parse', 'HEAD');
  write({ 'notes.txt': 'brouillon\n' });
  const untidy = await disput('user', 'decide', 'Tranché.', '--answer', '[I-0002-2] CLOS : tranché');
  expect([untidy.code, untidy.json['reason'], String(untidy.json['problems'])]).toEqual([1, 'repo_check_failed', '§8.1 the working tree is not clean: ?? notes.txt']);
  rmSync(join(repo, 'notes.txt'));
  const unanswered = await disput('user', 'decide', 'Sans réponse.');
  expect(unanswered.code).toBe(1);
  expect(unanswered.json).toMatchObject({ ok: false, reason: 'answer_missing', details: { items: ['I-0002-2'] } });
  expect([git('rev-parse', 'HEAD'), git('status', '--porcelain')]).toEqual([before, '']);

  const decided = await disput('user', 'decide', 'La limite de tentatives reste au proxy.', '--answer', '[I-0002-2] CLOS : la limite reste au proxy', '--status', 'DONE');
  expect(decided.code, `${decided.line}\n${JSON.stringify(decided.json)}`).toBe(0);
  expect(decided.json).toMatchObject({ ok: true, fileName: '0006-user-decider.md', commit: git('rev-parse', 'HEAD') });
  expect(git('log', '-1', '--format=%s')).toBe('disput: 0006-user-decider');

  const done = await expectNext(undefined, [], 'done');
  expect(done.line).toMatch(/^DONE — /);
  expect((await disput('vibe', 'status')).json).toMatchObject({ turns: 6, byState: { CLOS: ['I-0002-1', 'I-0002-2'] }, backlog: { next: null } });

  // §3.2: a recorded turn file changed in the folder is reported against the Group's copy.
  write({ '.disput/turns/0002-vibe-reviewer.md': 'réécrit\n' });
  git('commit', '-q', '-am', 'rewrite history');
  const unreachable = disputBinary('user', 'status', '--url', 'https://127.0.0.1:1');
  expect([unreachable.code, unreachable.stderr]).toEqual([1, expect.stringMatching(/^missionweave disput: cannot reach the node as alice: .*ECONNREFUSED/)]);

  const changed = await disput('vibe', 'play');
  expect(changed.code).toBe(1);
  expect(changed.json['differences']).toEqual(['0002-vibe-reviewer.md: the folder\'s file differs from the recorded one']);
  const reported = await disput('codex', 'status');
  expect(reported.json['differences']).toEqual(['0002-vibe-reviewer.md: the folder\'s file differs from the recorded one']);
  expect(reported.line).toContain('the folder disagrees with the Group: 0002-vibe-reviewer.md');
  // A refusal is one line with its reason and exit 1, never a stack trace: decide is the human's (§10).
  const agentDecides = await disput('claude', 'decide', 'Je décide.');
  expect([agentDecides.code, agentDecides.json['reason'], agentDecides.stderr]).toEqual([1, 'participant_not_actor', '']);
  const disagrees = await disput('codex', 'check');
  expect(disagrees.code).toBe(1);
  expect(disagrees.json['disagreements']).toEqual([{ reason: 'turn_file_differs', fileName: '0002-vibe-reviewer.md' }]);
  expect(disagrees.line).toMatch(/^check failed: no new turn file at [0-9a-f]{7}: .*turn_file_differs/);
}, 150_000);
