/**
 * `missionweave mcp --as AGENT --dir DIR [--extension LABEL] [--http PORT] [--slots N] [--url wss://…]`:
 * an MCP server on the Agent's side (issue 14, part 3), so any MCP client — a desktop assistant,
 * an IDE, an agent framework — takes part in Missions as this Agent. It reads the folder's
 * configuration (the node's host and port, the development TLS certificate as the CA) and the
 * Agent's key, connects a MissionWeaveAgent over wss (HELLO, reconnects), subscribes to the
 * Agent's Groups from `GET /v1/me` so Events and work offers flow, and offers the tools of the
 * node's Extension Profiles (`nodeReadSides.ts`), the Mission tools and the WorkItem tools (a MissionWeaveWorker over the same Agent).
 *
 * The WorkItem tools hold their work in the Agent's runtime (issue 31 item 6): the projection
 * `DIR/runtime/AGENT/projection.sqlite`, the one `missionweave worker` uses, opened before
 * anything connects (one writer per file: a worker holding it, or a corrupt file, is one line and
 * an exit code, runtimeOpen.ts). On start the outbox is sent and held work re-checked with the
 * Authority (heldWorkRecovery.ts), so work accepted, started or checkpointed through MCP survives
 * a restart, even a SIGKILL. `--slots` is how many WorkItems the model may have started at once.
 *
 * Over stdio (the default) stdout carries MCP frames and nothing else: every log line goes to
 * stderr. `--http PORT` serves Streamable HTTP on 127.0.0.1 instead (`mcpHttp.ts`). Either ends
 * cleanly on stdin's end (the client closed the pipe), SIGTERM or SIGINT: the MCP sessions close,
 * then the Agent (its last Cursors ACKed). Over stdio the requests already read are answered
 * first (at most `ANSWER_WAIT_MS`), so a client that writes its requests and closes the pipe —
 * `missionweave mcp … <<EOF`, as the README's walk-through does — still gets every answer.
 */

import { readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MissionWeaveAgent } from '../client/agent.js';
import { MissionWeaveWorker } from '../client/worker.js';
import { AgentContext } from '../client/mcp/agentContext.js';
import { HeldWork } from '../client/mcp/heldWork.js';
import { outboxSender, recoverHeldWork } from '../client/mcp/heldWorkRecovery.js';
import { publishKept } from '../client/mcp/keptArtifacts.js';
import { OutboxCommands } from '../client/runtime/outboxCommands.js';
import { createMcpServer } from '../client/mcp/mcpServer.js';
import { mcpTools } from '../client/mcp/mcpTools.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { NODE_READ_SIDES } from './nodeReadSides.js';
import { readSideTools } from './readSide.js';
import { Home } from '../home/home.js';
import { serveMcpHttp } from './mcpHttp.js';
import { nodeWebSocketUrl, unreachable } from './nodeAddress.js';
import { openRuntimeOf, slotsOption } from './runtimeOpen.js';

const USAGE = 'usage: missionweave mcp --as AGENT --dir DIR [--extension LABEL] [--http PORT] [--slots N] [--url wss://HOST:PORT]';
/** A profile's `from.extension` label when neither the call nor `--extension` names one. */
export const DEFAULT_EXTENSION = 'main';
/** How long a stopping stdio server waits for the answers to requests it has already read. */
const ANSWER_WAIT_MS = 30_000;

function log(message: string): void {
  process.stderr.write(`missionweave mcp: ${message}\n`);
}

/** Resolves once the client is gone or the process is told to stop. */
function stopped(watchStdin: boolean): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
    if (watchStdin) {
      process.stdin.once('end', () => resolve('stdin ended'));
      process.stdin.once('close', () => resolve('stdin closed'));
    }
  });
}

/**
 * Counts the requests `transport` has read and not yet answered (wrap it once connected, when its
 * `onmessage` is the server's); the function returned resolves once none is left, or after `limitMs`.
 */
function unanswered(transport: StdioServerTransport): (limitMs: number) => Promise<void> {
  const pending = new Set<string | number>();
  let idle: (() => void) | undefined;
  const receive = transport.onmessage;
  transport.onmessage = (message) => {
    if ('method' in message && 'id' in message) pending.add(message.id);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    if (!('method' in message) && 'id' in message && message.id !== undefined && pending.delete(message.id) && pending.size === 0) idle?.();
  };
  return (limitMs) => {
    if (pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, limitMs);
      idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  };
}

export async function mcpCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { as: 'value', dir: 'value', extension: 'value', http: 'value', slots: 'value', url: 'value' });
  const handle = stringOption(args, 'as');
  if (handle === undefined || args.positionals.length > 0) throw new UsageError(USAGE);
  const httpText = stringOption(args, 'http');
  if (httpText !== undefined && (!/^\d{1,5}$/.test(httpText) || Number(httpText) > 65535)) throw new UsageError('--http must be a port, 0–65535');
  const extension = stringOption(args, 'extension') ?? DEFAULT_EXTENSION;
  if (extension.length === 0 || extension.length > 64) throw new UsageError('--extension is a label of 1 to 64 characters');
  const slots = slotsOption(stringOption(args, 'slots'));
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  const config = home.config();
  const principal = home.principal(handle);
  if (principal.type !== 'agent') throw new UsageError(`${handle} is a ${principal.type}: the MCP server speaks for an Agent`);
  if (principal.privateKeyFile === undefined) throw new UsageError(`${handle}'s private key is held elsewhere`);

  const given = stringOption(args, 'url');
  if (given !== undefined && !given.startsWith('wss://')) throw new UsageError(`--url is the node's WebSocket endpoint, wss://HOST:PORT/v1/ws (got ${given})`);
  const url = nodeWebSocketUrl(home, given);
  const ca = readFileSync(home.path(config.tls.certFile));
  const runtime = openRuntimeOf(home, handle, principal.id, slots, 'mcp');
  try {
    return await serveTools({ url, ca, extension, httpText, runtime, home, principal });
  } finally {
    runtime.close();
  }
}

interface Serving {
  readonly url: string;
  readonly ca: Buffer;
  readonly extension: string;
  readonly httpText: string | undefined;
  readonly runtime: ReturnType<typeof openRuntimeOf>;
  readonly home: Home;
  readonly principal: ReturnType<Home['principal']>;
}

async function serveTools({ url, ca, extension, httpText, runtime, home, principal }: Serving): Promise<number> {
  // No Cursor store: each start replays the Groups, so the Worker sees every open offer again.
  const agent = new MissionWeaveAgent({ url, ca, agentId: principal.id, keyId: principal.keyId, privateKey: home.privateKey(principal.privateKeyFile as string) });
  agent.onError((error) => log(`${error.code}: ${error.message}`));
  agent.onConnectionChange((change) => log(`session ${change.state}${change.sessionEpoch === undefined ? '' : ` (epoch ${change.sessionEpoch})`}`));
  // The Worker listens before any subscription, so it sees every offer the Groups' replay
  // delivers; the held work learns of unblocked WorkItems.
  // Its Commands that end a run are kept in the projection's outbox before they are sent (outboxCommands.ts).
  // One in flight when a new Session replaces the old, or kept and fenced by one, is rebased onto it (§11.5, outboxRebase.ts).
  // A work_submit kept offline keeps its Artifacts too; the rebase publishes them under its new lease first (keptArtifacts.ts).
  const commands = new OutboxCommands(agent, () => runtime.projection.outbox, (groupId): number | undefined => worker.epochs.facts(groupId)?.membershipEpoch, publishKept(agent, () => runtime.projection));
  const worker: MissionWeaveWorker = new MissionWeaveWorker(agent, { commands });
  const held = new HeldWork({ agent, worker, runtime, log });
  agent.onEvent((event) => held.observe(event));
  const flush = outboxSender(runtime, agent, log, commands, held, commands.rebase);
  let connected = false;
  agent.onConnectionChange((change) => {
    if (change.state === 'open' && connected) void flush();
  });
  try {
    await agent.connect();
  } catch (error) {
    throw unreachable(error, home, url);
  }
  connected = true;
  try {
    await flush();
    const context = new AgentContext({ agent, origin: new URL(url.replace(/^wss:/, 'https:')), ca, extension });
    const me = await context.groups();
    const groups = (me['groups'] as { groupId: string; membershipState: string; membershipEpoch?: number }[]).filter((g) => g.membershipState === 'active');
    for (const group of groups) if (group.membershipEpoch !== undefined) worker.epochs.set(group.groupId, { membershipEpoch: group.membershipEpoch });
    for (const group of groups) await agent.subscribe(group.groupId);
    void held.recoverWith(recoverHeldWork);

    const tools = mcpTools(held, await readSideTools(NODE_READ_SIDES));
    const newServer = () => createMcpServer(context, tools, { log });
    const { work } = runtime.recovery;
    const ready = { agentId: agent.agentId, groups: groups.length, tools: tools.length, projection: runtime.projection.path, held: { resumable: work.resumable.length, queued: work.queued.length, lost: work.lost.length, blocked: work.blocked.length } };
    if (httpText !== undefined) {
      const http = await serveMcpHttp(Number(httpText), newServer, log);
      log(JSON.stringify({ ...ready, mcp: http.url }));
      log(`stopping: ${await stopped(false)}`);
      await http.close();
    } else {
      const server = newServer();
      const ending = stopped(true);
      const transport = new StdioServerTransport();
      await server.connect(transport);
      const answered = unanswered(transport);
      log(JSON.stringify({ ...ready, mcp: 'stdio' }));
      log(`stopping: ${await ending}`);
      await answered(ANSWER_WAIT_MS);
      await server.close();
    }
  } finally {
    held.close();
    worker.close();
    await agent.close();
  }
  return 0;
}
