#!/usr/bin/env node
/**
 * The `missionweave` operator CLI binary: the dispatch is `runCli.ts`; its exit codes are
 * exitCodes.ts's (docs/cli.md).
 *
 * The fast path first: with a node running for the home, `command`, `replay`, `audit`,
 * `registry` and `tree` are sent to it (operatorForward.ts) before the dispatch, with its usage
 * text, its error reports and every command's modules, is even loaded. Anything else, and a
 * forwarded command the node does not take, goes through `runCli` as before (which tries the node
 * again and reports any error the way every command does).
 */

import { asksForHelp } from './cliHelp.js';
import { OPERATOR_VERBS } from './operatorApi.js';

const argv = process.argv.slice(2);

async function forwarded(): Promise<number | undefined> {
  const [name, ...rest] = argv.filter((arg) => arg !== '--verbose');
  if (name === undefined || !OPERATOR_VERBS.has(name) || asksForHelp(rest)) return undefined;
  try {
    return await (await import('./operatorForward.js')).forwardToNode(name, rest);
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const code = await forwarded();
  if (code !== undefined) return code;
  return (await import('./runCli.js')).runCli(argv);
}

// Exit explicitly, with the command's status, rather than wait for every handle still open to
// close. Writes to pipes and files are synchronous on Linux, so nothing is lost.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`missionweave: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(70);
  },
);
