/**
 * disput's §3 rules, §5 lifecycle edges and §7 scheduling steps on REAL git repositories (issue
 * 15, part 4), positive and negative, against one real node started once for the file. Each case
 * is a fresh dialogue: its own Mission (Group) pinning disput, its own repository in a temporary
 * folder, turns committed with git and played with `missionweave disput play` — the CLI's
 * `runDisput`, called in process so the table stays fast (spawning the CLI costs about a second a
 * call; `disputCli.e2e.test.ts` covers the spawned binary).
 *
 * Last, races and refusals outside the rules: two clones playing one turn as one Agent, and
 * `decide` run by an Agent, each answered with its stable reason instead of a crash.
 *
 * A refused turn is played twice: once as an agent runs it (the §8 check first, which judges the
 * turn locally by the domain's own rules, then the Authority), and once with the check seam let
 * through, so the Authority itself is seen refusing with its stable reason; nothing is recorded
 * either time.
 */

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/cli/disput/nodeLink.js';
import { TURN_KIND } from '../src/cli/disput/playTurn.js';
import type { RepoCheck } from '../src/cli/disput/repoChecks.js';
import { Home } from '../src/home/home.js';
import { DISPUT_URI } from '../src/domain/disput/disputProfile.js';
import { BACKLOG_EMPTY, turnText, type TurnSpec } from './domain/disput/disputFixtures.js';
import { AUTHORITY_ONLY, closeReader, Dialogue } from './support/disputDialogue.js';
import { CLI, MCP_NODE_START_MS, startMcpNode, type McpNode } from './support/mcpNode.js';

const runFile = promisify(execFile);

let node: McpNode;
const scratch: string[] = [];
/** A case plays a whole dialogue (up to nine CLI calls, each with git and the node): room for a loaded machine. */
const CASE_TIMEOUT_MS = 120_000;

const LOGIN = { 'src/login.ts': 'export const login = (ok: boolean) => ok;\n' };
const T1: [TurnSpec, Record<string, string>] = [{ n: 1, who: 'claude', role: 'implementer' }, LOGIN];
const ITEMS = ['- [I-0002-1] → @claude : le mot de passe est comparé sans temps constant', '- [I-0002-2] → @claude : pourquoi pas de limite de tentatives ?'];
const T2: [TurnSpec] = [{ n: 2, who: 'vibe', role: 'reviewer', items: ITEMS }];
const ANSWERS_3 = ['- [I-0002-1] ACCEPTÉ : comparaison en temps constant, faite ici', '- [I-0002-2] REJETÉ : la limite est au proxy, pas ici'];
const T3: [TurnSpec, Record<string, string>] = [{ n: 3, who: 'claude', role: 'implementer', answers: ANSWERS_3 }, { 'src/login.ts': 'export const login = (ok: boolean) => ok === true;\n' }];
/** §5: CORRIGÉ follows ACCEPTÉ, in the addressee's next turn (§7.2 keeps the hand with it). */
const T4: [TurnSpec] = [{ n: 4, who: 'claude', role: 'implementer', answers: ['- [I-0002-1] CORRIGÉ (abcdef1) : comparaison en temps constant'] }];

beforeAll(async () => {
  node = await startMcpNode(['claude', 'vibe', 'codex'], [{ profileUri: DISPUT_URI, majorVersion: 0 }]);
}, MCP_NODE_START_MS);

afterAll(async () => {
  await closeReader(node);
  await node?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('§3 rules', () => {
  it('rule 7: the reviewer of a diff is not its author; another participant reviews it', async () => {
    const d = await Dialogue.start(node, scratch);
    // §2: the repository keeps its config in .disput/disput.toml, as the seed lays it out.
    expect(await d.next()).toMatchObject({ step: 'backlog', participant: 'claude', roles: ['implementer'], turn: 1 });
    await d.play(T1);
    await d.refused({ n: 2, who: 'claude', role: 'reviewer' }, 'reviewer_is_author');
    await d.play(T2);
    expect(await d.turns()).toBe(2);
  }, CASE_TIMEOUT_MS);

  it('rule 3: every item addressed to the player gets one answer in the turn, not two, not none', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1, T2);
    const missing = await d.refused({ n: 3, who: 'claude', role: 'implementer', answers: [ANSWERS_3[0] as string] }, 'answer_missing');
    expect(missing['details']).toMatchObject({ items: ['I-0002-2'] });
    await d.refused({ n: 3, who: 'claude', role: 'implementer', answers: [...ANSWERS_3, '- [I-0002-1] ACCEPTÉ : encore'] }, 'answer_duplicate');
    await d.refused({ n: 3, who: 'claude', role: 'implementer', answers: ['- [I-0002-1, I-0002-2] ACCEPTÉ : les deux'] }, 'answer_grouped');
    // §5: the keywords read with or without accents.
    await d.play([{ ...T3[0], answers: ['- [I-0002-1] ACCEPTE : comparaison en temps constant', '- [I-0002-2] REJETE : la limite est au proxy'] }, T3[1]]);
    expect((await d.disput('codex', ['status'])).json).toMatchObject({ turns: 3, byState: { ACCEPTÉ: ['I-0002-1'], REJETÉ: ['I-0002-2'] } });
  }, CASE_TIMEOUT_MS);

  it('§6, §8.5: a writes_code = false role changes .disput/ only', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1);
    await d.refused(T2[0], 'role_writes_no_code', { files: { 'src/login.ts': 'export const login = () => true;\n' } });
    await d.play(T2);
  }, CASE_TIMEOUT_MS);
});

describe('§3 rules, the turn itself', () => {
  it('§4: turns are numbered one after another, each by a participant who holds its role and is the actor', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.refused({ n: 1, who: 'codex', role: 'implementer' }, 'role_not_held', { files: LOGIN });
    await d.refused({ n: 1, who: 'claude', role: 'implementer' }, 'participant_not_actor', { files: LOGIN, as: 'vibe' });
    await d.play(T1);
    await d.refused({ n: 3, who: 'vibe', role: 'reviewer' }, 'turn_number_not_next', { local: 'repo_check_failed' });
    await d.play(T2);
    expect(await d.turns()).toBe(2);
  }, CASE_TIMEOUT_MS);

  it('one new turn at a time: a commit adding two turn files is not played', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1);
    d.write({ '.disput/turns/0003-claude-implementer.md': turnText({ n: 3, who: 'claude', role: 'implementer' }) });
    d.commit(T2[0]);
    const two = await d.disput('vibe', ['play']);
    expect([two.code, two.json['reason'], two.json['files']]).toEqual([1, 'turn_file_not_found', ['0002-vibe-reviewer.md', '0003-claude-implementer.md']]);
    expect(await d.turns()).toBe(1);
  }, CASE_TIMEOUT_MS);

  it('rule 2: a recorded turn is never modified — a second Command for its number is refused, and the folder changed is reported', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1);
    const home = new Home(node.dir);
    const link = await connect(home, 'claude');
    try {
      const text = turnText({ ...T1[0], base: d.git('rev-parse', '--short=7', 'HEAD~1') }).replace('Ce qui a été fait, et pourquoi.', 'Réécrit après coup.');
      const again = await link.submit(d.groupId, TURN_KIND, { fileName: '0001-claude-implementer.md', text, commit: d.git('rev-parse', 'HEAD'), changedPaths: ['.disput/turns/0001-claude-implementer.md'] });
      expect(again.ok).toBe(false);
      if (!again.ok) expect(again.error.details).toMatchObject({ reason: 'turn_recorded' });
    } finally {
      await link.close();
    }
    d.write({ '.disput/turns/0001-claude-implementer.md': 'réécrit\n' });
    d.commit(T2[0]);
    const changed = await d.disput('vibe', ['play']);
    expect(changed.json).toMatchObject({ ok: false, reason: 'repo_check_failed', reasons: expect.arrayContaining(['turn_file_differs']) as unknown });
    expect(await d.turns()).toBe(1);
  }, CASE_TIMEOUT_MS);
});

describe('§5 lifecycle edges', () => {
  it('ACCEPTÉ, REJETÉ, CORRIGÉ are the addressee\'s; CLOS, ROUVERT, ESCALADÉ the author\'s', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1, T2);
    await d.refused({ n: 3, who: 'claude', role: 'implementer', answers: ['- [I-0002-1] CLOS : fait', '- [I-0002-2] REJETÉ : au proxy'] }, 'answer_not_author');
    await d.play(T3, T4);
    await d.refused({ n: 5, who: 'vibe', role: 'reviewer', answers: ['- [I-0002-1] ACCEPTÉ : bien', '- [I-0002-2] CLOS : soit'] }, 'answer_not_addressee');
    await d.refused({ n: 5, who: 'vibe', role: 'reviewer', answers: ['- [I-0002-1] ESCALADÉ → @user : non', '- [I-0002-2] CLOS : soit'] }, 'item_transition_invalid');
    await d.play([{ n: 5, who: 'vibe', role: 'reviewer', answers: ['- [I-0002-1] CLOS : vérifié', '- [I-0002-2] CLOS : soit'] }]);
    expect((await d.disput('codex', ['status'])).json).toMatchObject({ byState: { CLOS: ['I-0002-1', 'I-0002-2'] } });
  }, CASE_TIMEOUT_MS);

  it('ROUVERT follows CORRIGÉ (back to the addressee) instead of CLOS; CORRIGÉ follows ACCEPTÉ only; a CLOS item is not reopened', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1, T2, T3, T4, [{ n: 5, who: 'vibe', role: 'reviewer', answers: ['- [I-0002-1] ROUVERT : toujours pas en temps constant', '- [I-0002-2] CLOS : soit'] }]);
    expect(await d.next()).toMatchObject({ step: 'item_pending', participant: 'claude', item: 'I-0002-1' });
    const fix = { 'src/login.ts': 'export const login = (ok: boolean) => ok !== false;\n' };
    await d.play([{ n: 6, who: 'claude', role: 'implementer', answers: ['- [I-0002-1] ACCEPTÉ : timingSafeEqual'] }, fix], [{ n: 7, who: 'claude', role: 'implementer', answers: ['- [I-0002-1] CORRIGÉ (abcdef2) : timingSafeEqual'] }]);
    await d.refused({ n: 8, who: 'vibe', role: 'reviewer', answers: ['- [I-0002-1] CLOS : vérifié', '- [I-0002-2] ROUVERT : finalement non'] }, 'item_transition_invalid');
    expect((await d.disput('codex', ['status'])).json).toMatchObject({ turns: 7, byState: { CORRIGÉ: ['I-0002-1'], CLOS: ['I-0002-2'] } });
  }, CASE_TIMEOUT_MS);

  it('ESCALADÉ goes to the decider, who plays next and settles it', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1, T2, T3, T4);
    await d.refused({ n: 5, who: 'vibe', role: 'reviewer', answers: ['- [I-0002-1] CLOS : vérifié', '- [I-0002-2] ESCALADÉ → @nobody : à trancher'] }, 'addressee_unknown');
    await d.play([{ n: 5, who: 'vibe', role: 'reviewer', answers: ['- [I-0002-1] CLOS : vérifié', '- [I-0002-2] ESCALADÉ → @user : à trancher'] }]);
    expect(await d.next()).toMatchObject({ step: 'item_pending', participant: 'user', roles: ['decider'], item: 'I-0002-2' });
    const decided = await d.disput('user', ['decide', 'La limite reste au proxy.', '--answer', '[I-0002-2] CLOS : la limite reste au proxy']);
    expect(decided.code, decided.line).toBe(0);
    expect((await d.disput('codex', ['status'])).json).toMatchObject({ turns: 6, byState: { CLOS: ['I-0002-1', 'I-0002-2'] } });
  }, CASE_TIMEOUT_MS);
});

describe('§3.5, §3.6 and DONE: what the turn file says of itself', () => {
  it('§3.5: status USER asks its question under « Décision requise », and only USER does', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.refused({ ...T1[0], status: 'USER' }, 'decision_missing', { files: T1[1] });
    await d.refused({ ...T1[0], decision: 'Quelle licence ?' }, 'decision_unexpected', { files: T1[1] });
    await d.play([{ ...T1[0], status: 'USER', decision: 'Quelle licence choisir ?' }, T1[1]]);
    expect(await d.turns()).toBe(1);
  }, CASE_TIMEOUT_MS);

  it('§3.6: a turn\'s base is the previous turn\'s commit (HEAD at its start), not another', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1);
    await d.refused({ ...T2[0], base: 'abcdef1' }, 'base_not_previous', { local: 'base' });
    await d.play(T2);
  }, CASE_TIMEOUT_MS);

  it('status DONE is refused while an item stays unresolved', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1, T2);
    await d.refused({ ...T3[0], status: 'DONE' }, 'done_with_pending_items', { files: T3[1] });
    await d.play(T3);
  }, CASE_TIMEOUT_MS);
});

describe('§7 scheduling steps', () => {
  it('1. a turn with status USER stops everything until the decider plays', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1, T2, [{ ...T3[0], status: 'USER', decision: 'Faut-il une limite de tentatives ici ?' }, T3[1]]);
    expect(await d.next()).toMatchObject({ step: 'status_user', participant: 'user', roles: ['decider'] });
    const stopped = await d.refused({ n: 4, who: 'vibe', role: 'reviewer', answers: ['- [I-0002-2] CLOS : soit'] }, 'not_your_turn');
    expect(stopped['details']).toMatchObject({ participant: 'user', step: 'status_user' });
    const decided = await d.disput('user', ['decide', 'Pas de limite ici : le proxy la porte.']);
    expect(decided.code, decided.line).toBe(0);
    // The oldest item, ACCEPTÉ, waits for its CORRIGÉ: its addressee plays (§7.2).
    expect(await d.next()).toMatchObject({ step: 'item_pending', participant: 'claude', item: 'I-0002-1' });
  }, CASE_TIMEOUT_MS);

  it('2. the oldest pending item first: its addressee answers before any review', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1, T2);
    expect(await d.next()).toMatchObject({ step: 'item_pending', participant: 'claude', item: 'I-0002-1' });
    const early = await d.refused({ n: 3, who: 'codex', role: 'reviewer' }, 'not_your_turn');
    expect(early['details']).toMatchObject({ participant: 'claude', step: 'item_pending' });
  }, CASE_TIMEOUT_MS);

  it('3. the roles a code change triggers, in disput.toml order, each held by someone other than its author; then anti ping-pong', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play([{ n: 1, who: 'claude', role: 'implementer' }, { 'src/auth/token.ts': 'export const token = 1;\n' }]);
    expect(await d.next()).toMatchObject({ step: 'triggered', participant: 'vibe', roles: ['reviewer'] });
    const security = await d.refused({ n: 2, who: 'codex', role: 'security' }, 'not_your_turn');
    expect(security['details']).toMatchObject({ participant: 'vibe', roles: ['reviewer'], step: 'triggered' });
    await d.play([{ n: 2, who: 'vibe', role: 'reviewer' }]);
    expect(await d.next()).toMatchObject({ step: 'triggered', participant: 'codex', roles: ['security'] });
    await d.play([{ n: 3, who: 'codex', role: 'security' }]);
    expect(await d.next()).toMatchObject({ step: 'backlog' });
    // Anti ping-pong: two review turns on this diff opened no item and set no REJETÉ; it is closed.
    await d.refused({ n: 4, who: 'vibe', role: 'reviewer', items: ['- [I-0004-1] → @claude : encore un point'] }, 'review_closed');
  }, CASE_TIMEOUT_MS);

  it('4. the backlog\'s top open non-[USER] task goes to the implementer who implemented least recently', async () => {
    const d = await Dialogue.start(node, scratch);
    const ticked = '# Backlog\n\n- [x] Ajouter la connexion\n- [ ] [USER] Choisir la licence\n- [ ] Écrire la doc\n';
    await d.play([T1[0], { ...LOGIN, '.disput/backlog.md': ticked }], [{ n: 2, who: 'vibe', role: 'reviewer' }]);
    expect(await d.next()).toMatchObject({ step: 'backlog', participant: 'vibe', roles: ['implementer'], task: 'Écrire la doc' });
    // DONE means done: not while the backlog holds an open task (§7.4); it would be recorded and then ignored.
    const notDone = await d.refused({ n: 3, who: 'vibe', role: 'implementer', status: 'DONE' }, 'done_with_pending_work');
    expect(notDone['details']).toMatchObject({ step: 'backlog', task: 'Écrire la doc' });
    const again = await d.refused({ n: 3, who: 'claude', role: 'implementer' }, 'not_your_turn', { files: { 'src/doc.ts': 'export {};\n' } });
    expect(again['details']).toMatchObject({ participant: 'vibe', step: 'backlog' });
    await d.play([{ n: 3, who: 'vibe', role: 'implementer' }, { 'src/doc.ts': 'export {};\n' }]);
    // Within the role too: codex, who never played, reviews before claude.
    expect(await d.next()).toMatchObject({ step: 'triggered', participant: 'codex', roles: ['reviewer'] });
  }, CASE_TIMEOUT_MS);

  it('5. DONE: nothing pending, nothing triggered, no open task — only the decider may play', async () => {
    const d = await Dialogue.start(node, scratch);
    await d.play(T1, [{ n: 2, who: 'vibe', role: 'reviewer' }]);
    await d.play([{ n: 3, who: 'vibe', role: 'implementer' }, { 'src/login.ts': 'export const login = (ok: boolean) => ok === true;\n', '.disput/backlog.md': BACKLOG_EMPTY }], [{ n: 4, who: 'codex', role: 'reviewer' }]);
    expect(await d.next()).toMatchObject({ step: 'done', roles: [] });
    await d.refused({ n: 5, who: 'claude', role: 'implementer' }, 'dialogue_done', { files: { 'src/more.ts': 'export {};\n' } });
    // decide is the human decider's (§10): an Agent is answered with the reason, not failed.
    const agentDecides = await d.disput('claude', ['decide', 'Terminé.']);
    expect([agentDecides.code, agentDecides.json['reason'], agentDecides.json['code']]).toEqual([1, 'participant_not_actor', 'AUTH_FORBIDDEN']);
    expect(agentDecides.line).toMatch(/^refused: AUTH_FORBIDDEN participant_not_actor — decide writes the decider's turn/);
    expect(d.git('status', '--porcelain')).toBe('');
    const decided = await d.disput('user', ['decide', 'Terminé.', '--status', 'DONE']);
    expect(decided.code, decided.line).toBe(0);
  }, CASE_TIMEOUT_MS);
});

describe('races and refusals are answers, not crashes', () => {
  it('two plays of one turn from two clones as one Agent: one records it, the other answers session_replaced', async () => {
    const d = await Dialogue.start(node, scratch);
    d.commit(T1[0], T1[1]);
    const clone = mkdtempSync(join(tmpdir(), 'mw-disput-clone-'));
    scratch.push(clone);
    execFileSync('git', ['clone', '-q', d.repo, clone]);
    let rival: { code: number | null; stdout: string } | undefined;
    const whileChecking: RepoCheck = async (input) => {
      // The other clone plays the same turn while this run checks it: its session replaces this one's.
      rival = await runFile(process.execPath, [CLI, 'disput', 'play', '--as', 'claude', '--dir', node.dir, '--repo', clone, '--group', d.groupId]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code?: number; stdout?: string }) => ({ code: error.code ?? null, stdout: error.stdout ?? '' }),
      );
      return AUTHORITY_ONLY(input);
    };
    const said = await d.disput('claude', ['play'], whileChecking);
    expect(rival?.code, rival?.stdout).toBe(0);
    expect([said.code, said.json['reason']]).toEqual([1, 'session_replaced']);
    expect(said.line).toMatch(/^refused: \S+ session_replaced — another run opened a session as this Agent/);
    expect(await d.turns()).toBe(1);
  }, CASE_TIMEOUT_MS);
});
