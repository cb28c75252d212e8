/**
 * `missionweave worker --as AGENT --dir DIR --handler ./handler.mjs [--slots N] [--url wss://…]`:
 * runs the Agent's runtime (issue 31 item 6) with a user module as its job handler, so an
 * Agent takes part in Missions without writing a runtime. The module's default export is
 * `async function (job)` (src/client/runtime/job.ts): one call per run of one WorkItem.
 *
 * The runtime's projection is `DIR/runtime/AGENT/projection.sqlite`: Cursors, held work and
 * checkpoints survive the process, so a worker killed mid-run and started again resumes each
 * WorkItem from its last safe checkpoint (after re-checking it with the Authority), reports the
 * work that had none to its Coordinator, and sends its outbox. It serves every Group `/v1/me`
 * lists it as an active worker in. SIGINT or SIGTERM stops it: running jobs yield at their next
 * safe checkpoint (within the grace) or are released, then the Agent and the projection close.
 * Log lines go to stderr; the first is a JSON ready line. A projection another process holds, or
 * a corrupt one, is one line and an exit code (69, 65), the file left as it is (runtimeOpen.ts).
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MissionWeaveAgent } from '../client/agent.js';
import { RuntimeHost } from '../client/runtime/hostRuntime.js';
import { armOutboxFailpoint } from '../client/runtime/outboxFailpoint.js';
import type { JobHandler } from '../client/runtime/job.js';
import { Home } from '../home/home.js';
import { NoInputError } from '../home/usageError.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { nodeWebSocketUrl, unreachable } from './nodeAddress.js';
import { openRuntimeOf, slotsOption } from './runtimeOpen.js';

const USAGE = 'usage: missionweave worker --as AGENT --dir DIR --handler MODULE [--slots N] [--url wss://HOST:PORT]';

function log(message: string): void {
  process.stderr.write(`missionweave worker: ${message}\n`);
}

function stopped(): Promise<string> {
  return new Promise((done) => {
    process.once('SIGTERM', () => done('SIGTERM'));
    process.once('SIGINT', () => done('SIGINT'));
  });
}

async function loadHandler(path: string): Promise<JobHandler> {
  const file = resolve(path);
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') throw new NoInputError(`no handler module at ${file}`);
    throw error;
  }
  if (typeof module.default !== 'function') throw new UsageError(`${file} must export a default function (job) => …`);
  return module.default as JobHandler;
}

export async function workerCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { as: 'value', dir: 'value', handler: 'value', slots: 'value', url: 'value' });
  const handle = stringOption(args, 'as');
  const handlerPath = stringOption(args, 'handler');
  if (handle === undefined || handlerPath === undefined || args.positionals.length > 0) throw new UsageError(USAGE);
  const slots = slotsOption(stringOption(args, 'slots'));
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  const config = home.config();
  const principal = home.principal(handle);
  if (principal.type !== 'agent') throw new UsageError(`${handle} is a ${principal.type}: a worker is an Agent`);
  if (principal.privateKeyFile === undefined) throw new UsageError(`${handle}'s private key is held elsewhere`);
  const given = stringOption(args, 'url');
  if (given !== undefined && !given.startsWith('wss://')) throw new UsageError(`--url is the node's WebSocket endpoint, wss://HOST:PORT/v1/ws (got ${given})`);
  const handler = await loadHandler(handlerPath);

  const url = nodeWebSocketUrl(home, given);
  const ca = readFileSync(home.path(config.tls.certFile));
  const die = process.env['MW_TEST_OUTBOX_DIE'];
  if (die !== undefined) armOutboxFailpoint(die); // the outbox restart tests only (outboxFailpoint.ts)
  const runtime = openRuntimeOf(home, handle, principal.id, slots, 'worker');
  try {
    const agent = new MissionWeaveAgent({ url, ca, agentId: principal.id, keyId: principal.keyId, privateKey: home.privateKey(principal.privateKeyFile), cursorStore: runtime.cursorStore });
    agent.onError((error) => log(`${error.code}: ${error.message}`));
    agent.onConnectionChange((change) => log(`session ${change.state}${change.sessionEpoch === undefined ? '' : ` (epoch ${change.sessionEpoch})`}`));
    const host = new RuntimeHost({ agent, runtime, handler, log });
    const ending = stopped();
    try {
      await host.start();
    } catch (error) {
      await agent.close().catch(() => undefined);
      throw unreachable(error, home, url);
    }
    const { work } = runtime.recovery;
    log(JSON.stringify({ agentId: principal.id, slots, projection: runtime.projection.path, resumable: work.resumable.length, queued: work.queued.length, lost: work.lost.length }));
    log(`stopping: ${await ending}`);
    await host.stop();
  } finally {
    runtime.close();
  }
  return 0;
}
