/**
 * `POST /v1/operator/cli`: the node runs one operator CLI command for the home it serves — one of
 * `command`, `replay`, `audit`, `registry`, `tree` — on its own open database pool
 * (`lendAuthority` in src/server.ts), and answers `{"code":N,"stdout":…,"stderr":…}` exactly as the
 * command would have printed and exited in the operator's shell. The CLI sends it there when a
 * node runs for the home (operatorForward.ts), so each command takes milliseconds, not the seconds
 * of starting PostgreSQL. Only from this machine (a loopback peer) and only with the home's
 * operator token (src/home/operatorToken.ts) as a Bearer credential; one command at a time (a
 * command writes through the process's streams, cliIo.ts); its output is bounded
 * (OPERATOR_OUTPUT_LIMIT): beyond it the answer says `tooLarge` and the CLI runs the command itself.
 * Run here with MW_CLI_LOCAL=1, so that the command does not send itself to this node again.
 */

import { timingSafeEqual } from 'node:crypto';
import { wireError } from '../app/wireError.js';
import { parseStrictJson } from '../protocol/strictJson.js';
import type { Route, RouteCall } from '../transport/routeTable.js';
import { bearerToken } from '../transport/readerAuth.js';
import { cliRunner } from './cliRunner.js';
import { OPERATOR_PATH, OPERATOR_VERBS } from './operatorApi.js';

/** A command line, paths and an inline payload included. */
const MAX_REQUEST_BYTES = 1024 * 1024;
/** What one command may print through the node; a longer replay runs in the operator's process. */
export const OPERATOR_OUTPUT_LIMIT = 32 * 1024 * 1024;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The operator route of a node serving a home whose operator token is `token`. */
export function operatorRoutes(token: string): Route[] {
  let turn: Promise<unknown> = Promise.resolve();
  async function run({ request, io }: RouteCall): Promise<void> {
    if (!LOOPBACK.test(request.socket.remoteAddress ?? '') || !sameToken(bearerToken(request), token)) {
      return io.fail(wireError('AUTH_REQUIRED', 'the operator route answers this machine only, with the home\'s operator.token as a Bearer credential'));
    }
    const read = await io.read(MAX_REQUEST_BYTES);
    if (read.kind === 'tooLarge') return io.tooLarge(MAX_REQUEST_BYTES);
    if (read.kind === 'aborted') return undefined;
    let argv: unknown;
    try {
      argv = (parseStrictJson(read.bytes) as { argv?: unknown }).argv;
    } catch (error) {
      return io.fail(wireError('PROTOCOL_VIOLATION', (error as Error).message));
    }
    if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === 'string') || !OPERATOR_VERBS.has(argv[0] as string)) {
      return io.fail(wireError('SCHEMA_VALIDATION_FAILED', `argv must be a command line of ${[...OPERATOR_VERBS].join(', ')}`));
    }
    const output = { stdout: '', stderr: '', size: 0 };
    const sink = (stream: 'stdout' | 'stderr') => (text: string): void => {
      output.size += text.length;
      if (output.size <= OPERATOR_OUTPUT_LIMIT) output[stream] += text;
    };
    const done = turn.then(() => cliRunner()(argv as string[], { stdout: sink('stdout'), stderr: sink('stderr'), env: { MW_CLI_LOCAL: '1' } }));
    turn = done.catch(() => undefined);
    const code = await done;
    if (output.size > OPERATOR_OUTPUT_LIMIT) return io.send(200, '{"tooLarge":true}');
    io.send(200, JSON.stringify({ code, stdout: output.stdout, stderr: output.stderr }));
  }
  return [{ method: 'POST', path: OPERATOR_PATH, auth: 'handler', handle: run }];
}
