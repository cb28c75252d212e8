/**
 * A real node for `missionweave mcp` tests: `init` on a free port (so the MCP server finds the
 * node from the folder's configuration, as an operator's would), Agents and a human added with
 * the CLI (its dispatch, `runCli`, in process: six commands cost six node starts as processes,
 * and the binary has its own smoke tests in cliBinary.e2e.test.ts), `serve` started as a process, a Mission pinning Parley v1 created and joined by the
 * human over HTTPS (signed Commands to `POST /v1/commands`), and MCP clients — the official
 * SDK's `Client` — over stdio (spawning `node dist/cli/main.js mcp`) or Streamable HTTP.
 */

import { spawn } from 'node:child_process';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'vitest';
import { signCommand } from '../../src/app/issueDocuments.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { cliInProcess, lastJson, serve, type ServeProcess } from './nodeProcess.js';
import { postCommands } from './refusals.js';

export const CLI = join(process.cwd(), 'dist', 'cli', 'main.js');

export interface CliPrincipal {
  readonly id: string;
  readonly keyId: string;
  readonly privateKeyFile: string;
}

export interface McpNode {
  readonly dir: string;
  readonly db: TestDatabase;
  /** The node process serving now (a new one after `start`). */
  readonly node: ServeProcess;
  readonly ca: string;
  readonly groupId: string;
  readonly human: CliPrincipal;
  readonly agents: Readonly<Record<string, CliPrincipal>>;
  /** The human's signed Command over HTTPS: the status and the parsed answer. */
  humanSays(kind: string, payload: JsonObject, membershipEpoch?: number): Promise<{ status: number; body: JsonObject }>;
  /** Stops the node (SIGTERM) and leaves it down: its clients see the Authority unreachable. */
  stop(): Promise<void>;
  /** Serves again from the same folder and database on the same port (after `stop`). */
  start(): Promise<ServeProcess>;
  close(): Promise<void>;
}

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface McpNodeOptions {
  /** `--capability` values per Agent handle (the planner's default is project.planning@1.0.0). */
  readonly capabilities?: Readonly<Record<string, readonly string[]>>;
  /** Agents added to the node that do not join the Mission. */
  readonly bystanders?: readonly string[];
  /** Members of `mission.create`'s payload that replace the defaults (title, objective, budget, deadline…). */
  readonly mission?: JsonObject;
  /** The scratch folder's name prefix. */
  readonly prefix?: string;
}

/**
 * The `beforeAll` limit of a file that starts an MCP node: a test database (on Citus, cloned on
 * every node), then six CLI processes one after another (`init`, the Agents, the human) and
 * `serve`. On the Citus cluster under load (load average 13-15, 2026-12-05) disputRules' start ran
 * past the 120 s it had.
 */
export const MCP_NODE_START_MS = 300_000;

/**
 * The node, its Principals (`workers` join as workers, `planner` coordinates) and a Mission
 * pinning Parley (or `pinnedProfiles`; none when empty).
 */
export async function startMcpNode(workers: readonly string[], pinnedProfiles: readonly JsonObject[] = [{ profileUri: 'urn:missionweave:profile:parley:1', majorVersion: 1 }], options: McpNodeOptions = {}): Promise<McpNode> {
  const scratch = mkdtempSync(join(tmpdir(), options.prefix ?? 'mw-mcp-'));
  const dir = join(scratch, 'node');
  const db = await createTestDatabase();
  const run = async (...args: string[]) => {
    const result = await cliInProcess(db.url, ...args);
    expect(result.code, result.stderr).toBe(0);
    return lastJson(result.stdout) as unknown as CliPrincipal;
  };
  await run('init', '--dir', dir, '--port', String(await freePort()));
  const add = (handle: string, capabilities: readonly string[] = []) => run('agent', 'add', handle, '--dir', dir, ...(options.capabilities?.[handle] ?? capabilities).flatMap((c) => ['--capability', c]));
  const agents: Record<string, CliPrincipal> = { planner: await add('planner', ['project.planning@1.0.0']) };
  for (const handle of [...workers, ...(options.bystanders ?? [])]) agents[handle] = await add(handle);
  const human = await run('human', 'add', 'alice', '--dir', dir);
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { server: { port: number } };
  let node: ServeProcess | undefined = await serve(db.url, dir, config.server.port);
  const served = node;
  const ca = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
  const key = { keyId: human.keyId, privateKey: createPrivateKey(readFileSync(human.privateKeyFile)) };
  const suffix = randomUUID();
  const groupId = `urn:missionweave:group:${suffix}`;
  const humanSays = async (kind: string, payload: JsonObject, membershipEpoch?: number) => {
    const command = signCommand({ actor: { type: 'human', id: human.id }, kind, groupId, issuedAt: new Date().toISOString(), payload, ...(membershipEpoch === undefined ? {} : { membershipEpoch }) }, key);
    const [answer] = await postCommands(served.https, ca, [JSON.stringify(command)], 1);
    return { status: answer?.status ?? 0, body: JSON.parse(answer?.body ?? '{}') as JsonObject };
  };
  const created = await humanSays('mission.create', {
    missionId: `urn:missionweave:mission:${suffix}`, groupId, mainConversationId: `urn:missionweave:conversation:${suffix}`,
    coordinatorId: agents['planner']?.id ?? '', title: 'Choose an index', objective: 'Agree the index of the orders table.',
    definitionOfDone: [{ criterionId: 'index', description: 'An agreed index.', evidenceRequired: ['human_review'] }],
    budget: { currency: 'EUR', financialLimit: 10 }, deadline: new Date(Date.now() + 86_400_000).toISOString(),
    ...(pinnedProfiles.length === 0 ? {} : { pinnedProfiles: [...pinnedProfiles] }),
    ...options.mission,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  for (const handle of workers) {
    const joined = await humanSays('membership.change', { principal: { type: 'agent', id: agents[handle]?.id ?? '' }, roles: ['worker'] }, 1);
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  }
  return {
    dir, db, ca, groupId, human, agents, humanSays,
    get node(): ServeProcess {
      if (node === undefined) throw new Error('the node is stopped');
      return node;
    },
    async stop() {
      const stopping = node;
      node = undefined;
      await stopping?.kill('SIGTERM');
    },
    async start() {
      if (node !== undefined) throw new Error('the node is already serving');
      node = await serve(db.url, dir, config.server.port);
      return node;
    },
    async close() {
      await node?.kill('SIGTERM');
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** An MCP client over stdio, spawning `missionweave mcp --as handle` (`transport.pid`); `stderr()` is what the server logged. */
export async function stdioClient(dir: string, handle: string, extra: readonly string[] = []): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--as', handle, '--dir', dir, ...extra], stderr: 'pipe' });
  let logged = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    logged += chunk.toString('utf8');
  });
  const client = new Client({ name: `test-${handle}`, version: '1.0.0' });
  SERVER_STDERR.set(client, () => logged);
  await client.connect(transport).catch((error: unknown) => {
    throw withServerStderr(client, `mcp --as ${handle} did not start`, error);
  });
  return { client, transport, stderr: () => logged };
}

/** What each stdio MCP server wrote on stderr, by its client: a failed call says it. */
const SERVER_STDERR = new WeakMap<Client, () => string>();

function withServerStderr(client: Client, what: string, error: unknown): Error {
  const logged = SERVER_STDERR.get(client)?.() ?? '';
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`${what}: ${message}${logged === '' ? '' : `; the server's stderr ended with:\n${logged.slice(-4000)}`}`, { cause: error });
}

/** `missionweave mcp --http 0` as a process; resolves with the MCP URL its ready line names. */
export function httpServer(dir: string, handle: string): Promise<{ url: string; stop: () => Promise<string> }> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--as', handle, '--dir', dir, '--http', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let logged = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcp --http did not become ready: ${logged}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`mcp --http exited with ${String(code)}: ${logged}`)));
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      logged += `${line}\n`;
      const ready = /"mcp":"(http:[^"]+)"/.exec(line);
      if (ready === null) return;
      clearTimeout(timer);
      resolve({
        url: ready[1] as string,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
          return logged;
        },
      });
    });
  });
}

export interface ToolAnswer {
  readonly isError: boolean;
  readonly body: Record<string, unknown> & { payload?: Record<string, unknown> };
}

/** One tool call: whether it was refused, and its structured content. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args }).catch((error: unknown) => {
    throw withServerStderr(client, name, error);
  });
  return { isError: result.isError === true, body: (result.structuredContent ?? {}) as ToolAnswer['body'] };
}
