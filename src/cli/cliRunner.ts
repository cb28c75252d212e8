/**
 * The CLI's dispatch as a value, for the node's operator route (operatorRoute.ts) to run commands
 * in process: runCli.ts hands itself over here when loaded, so that the route does not import
 * the dispatch that loads `serve`, which loads the route (no import cycle).
 */

import type { CliIo } from './cliIo.js';

type Runner = (argv: readonly string[], io: CliIo) => Promise<number>;

let runner: Runner | undefined;

export function setCliRunner(run: Runner): void {
  runner = run;
}

export function cliRunner(): Runner {
  if (runner === undefined) throw new Error('the CLI dispatch is not loaded');
  return runner;
}
