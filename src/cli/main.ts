#!/usr/bin/env node
/**
 * The `missionweave` operator CLI binary: the dispatch is `runCli.ts`; its exit codes are
 * exitCodes.ts's (docs/cli.md).
 */

import { runCli } from './runCli.js';

// Exit explicitly, with the command's status, rather than wait for every handle still open to
// close. Writes to pipes and files are synchronous on Linux, so nothing is lost.
runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`missionweave: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(70);
  },
);
