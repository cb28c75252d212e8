/**
 * One disput dialogue of `disputRules.e2e.test.ts`: a real git repository in a temporary folder
 * with the project committed, its own Mission (Group) pinning disput on the shared node, and
 * `missionweave disput` run in process through the CLI's `runDisput`, its output captured.
 */

import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, vi } from 'vitest';
import { signCommand } from '../../src/app/issueDocuments.js';
import { readDialogue } from '../../src/cli/disput/dialogue.js';
import { runDisput } from '../../src/cli/disput/disputCommand.js';
import { connect, type NodeLink } from '../../src/cli/disput/nodeLink.js';
import type { RepoCheck } from '../../src/cli/disput/repoChecks.js';
import { DISPUT_URI } from '../../src/domain/disput/disputProfile.js';
import { Home } from '../../src/home/home.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { BACKLOG, configFor, fileNameOf, turnText, type TurnSpec } from '../domain/disput/disputFixtures.js';
import type { McpNode } from './mcpNode.js';
import { postCommands } from './refusals.js';

const HANDLES: Record<string, string> = { claude: 'claude', vibe: 'vibe', codex: 'codex', user: 'alice' };

/** The §8 check let through: what reaches the node is judged by the Authority alone. */
export const AUTHORITY_ONLY: RepoCheck = () => Promise.resolve({ ok: true, reasons: [], problems: [], notes: [], report: {} });

export interface Said {
  readonly code: number;
  readonly line: string;
  readonly json: Record<string, unknown>;
}

/** A fresh Mission pinning disput, joined by the three agents: one dialogue per case. */
async function newGroup(node: McpNode): Promise<string> {
  const suffix = randomUUID();
  const groupId = `urn:missionweave:group:${suffix}`;
  const key = { keyId: node.human.keyId, privateKey: createPrivateKey(readFileSync(node.human.privateKeyFile)) };
  const says = async (kind: string, payload: JsonObject, membershipEpoch?: number): Promise<void> => {
    const command = signCommand({ actor: { type: 'human', id: node.human.id }, kind, groupId, issuedAt: new Date().toISOString(), payload, ...(membershipEpoch === undefined ? {} : { membershipEpoch }) }, key);
    const [answer] = await postCommands(node.node.https, node.ca, [JSON.stringify(command)], 1);
    expect(answer?.status, answer?.body).toBe(201);
  };
  await says('mission.create', {
    missionId: `urn:missionweave:mission:${suffix}`, groupId, mainConversationId: `urn:missionweave:conversation:${suffix}`,
    coordinatorId: node.agents['planner']?.id ?? '', title: 'Review the login', objective: 'One disput dialogue of the rules table.',
    definitionOfDone: [{ criterionId: 'done', description: 'The dialogue is DONE.', evidenceRequired: ['human_review'] }],
    budget: { currency: 'EUR', financialLimit: 10 }, deadline: new Date(Date.now() + 86_400_000).toISOString(),
    pinnedProfiles: [{ profileUri: DISPUT_URI, majorVersion: 0 }],
  });
  for (const handle of ['claude', 'vibe', 'codex']) await says('membership.change', { principal: { type: 'agent', id: node.agents[handle]?.id ?? '' }, roles: ['worker'] }, 1);
  return groupId;
}

const readers = new Map<McpNode, Promise<NodeLink>>();

/** The human decider's link to the node, signed in once per node: it reads the Groups' Events. */
function reader(node: McpNode): Promise<NodeLink> {
  let link = readers.get(node);
  if (link === undefined) {
    link = connect(new Home(node.dir), HANDLES['user'] as string);
    readers.set(node, link);
  }
  return link;
}

/** Signs the reader of `node` out, if it signed in: for the file's `afterAll`, before the node stops. */
export async function closeReader(node: McpNode): Promise<void> {
  const link = readers.get(node);
  readers.delete(node);
  if (link !== undefined) await (await link).close();
}

/** One case's dialogue: a repository with the project committed, and its own Group. */
export class Dialogue {
  private constructor(private readonly node: McpNode, readonly repo: string, readonly groupId: string) {}

  /** `scratch` collects the temporary folder, for the file's `afterAll` to remove. */
  static async start(node: McpNode, scratch: string[], backlog = BACKLOG): Promise<Dialogue> {
    const repo = mkdtempSync(join(tmpdir(), 'mw-disput-rules-'));
    scratch.push(repo);
    const d = new Dialogue(node, repo, await newGroup(node));
    d.git('init', '-q', '-b', 'main');
    d.git('config', 'user.name', 'disput rules');
    d.git('config', 'user.email', 'rules@example.invalid');
    const principals = Object.fromEntries(['claude', 'vibe', 'codex'].map((name) => [name, { type: 'agent' as const, id: node.agents[name]?.id ?? '' }]));
    // One [[checks]] entry, a must_pass command that passes at once, so every local play still runs
    // §8.7; the no_regression one (a worktree at the old HEAD, five more git calls and a command
    // per play) is disputCli.e2e's and disputChecks.int's, as the other outcomes of §8.7 are.
    const config = configFor({ ...principals, user: { type: 'human', id: node.human.id } })
      .replace('command = "npm test"', 'command = "true"')
      .replace(/\[\[checks\]\]\nname = "lint"\ncommand = "npm run lint"\npolicy = "no_regression"\n\n/, '');
    expect(config).toContain('policy = "must_pass"');
    expect(config).not.toContain('no_regression');
    // Seed §2: the config lives in .disput/ (a root disput.toml is only the tool's fallback).
    d.write({ '.disput/disput.toml': config, '.disput/backlog.md': backlog, '.gitignore': '.disput/logs/\n.disput/run.lock\n.disput/last-run.md\n', 'src/login.ts': 'export const login = () => false;\n' });
    d.git('add', '-A');
    d.git('commit', '-q', '-m', 'disput: the project');
    return d;
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.repo, encoding: 'utf8' }).trim();
  }

  write(files: Record<string, string>): void {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(this.repo, path)), { recursive: true });
      writeFileSync(join(this.repo, path), text);
    }
  }

  /** A turn as its participant makes it: work, the turn file with `base` = HEAD, one commit. */
  commit(spec: TurnSpec, files: Record<string, string> = {}): void {
    const fileName = fileNameOf(spec);
    this.write({ ...files, [`.disput/turns/${fileName}`]: turnText({ ...spec, base: spec.base ?? this.git('rev-parse', '--short=7', 'HEAD') }) });
    this.git('add', '-A');
    this.git('commit', '-q', '-m', `disput: ${fileName}`);
  }

  async disput(who: string, args: readonly string[], check?: RepoCheck): Promise<Said> {
    let out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += chunk.toString();
      return true;
    });
    let code: number;
    try {
      code = await runDisput([...args, '--as', HANDLES[who] as string, '--dir', this.node.dir, '--repo', this.repo, '--group', this.groupId], check);
    } finally {
      spy.mockRestore();
    }
    const lines = out.trim().split('\n');
    const last = lines.at(-1) ?? '';
    return { code, line: lines[0] ?? '', json: last.startsWith('{') ? (JSON.parse(last) as Record<string, unknown>) : {} };
  }

  async next(): Promise<Record<string, unknown>> {
    const said = await this.disput('claude', ['next']);
    expect(said.code).toBe(0);
    return said.json;
  }

  async turns(): Promise<number> {
    return (await this.disput('codex', ['status'])).json['turns'] as number;
  }

  /**
   * The turns the Group recorded, as `status` counts them (the same `readDialogue` over the same
   * Events), read through the decider's one sign-in for the file instead of a `status` run each
   * time: what `refused` compares before and after, twice per refusal.
   */
  async recordedTurns(): Promise<number> {
    return readDialogue(await (await reader(this.node)).events(this.groupId)).state.turns.length;
  }

  /** Commits and plays each turn; every one must be recorded. */
  async play(...turns: readonly [TurnSpec, Record<string, string>?][]): Promise<void> {
    for (const [spec, files] of turns) {
      this.commit(spec, files);
      const said = await this.disput(spec.who, ['play']);
      expect(said.code, `turn ${spec.n}: ${said.line}`).toBe(0);
    }
  }

  /**
   * Commits `spec` and plays it, as an agent runs it and then with the Authority alone: refused
   * both times, the Authority with `reason`, nothing recorded; the commit is then taken back.
   */
  async refused(spec: TurnSpec, reason: string, options: { files?: Record<string, string>; as?: string; local?: string } = {}): Promise<Record<string, unknown>> {
    const before = await this.recordedTurns();
    this.commit(spec, options.files);
    const player = options.as ?? spec.who;
    const local = await this.disput(player, ['play']);
    expect(local.code, local.line).toBe(1);
    expect(local.json['ok']).toBe(false);
    // The agent's own check judges by the Authority's rules: the same reason, found before sending
    // (or the §8 invariant that catches the same fault first, `local`).
    expect(JSON.stringify(local.json)).toContain(options.local ?? reason);
    const authority = await this.disput(player, ['play'], AUTHORITY_ONLY);
    expect(authority.code, authority.line).toBe(1);
    expect(authority.json).toMatchObject({ ok: false, reason, details: { reason } });
    expect(await this.recordedTurns()).toBe(before);
    this.git('reset', '-q', '--hard', 'HEAD~1');
    return authority.json;
  }
}

