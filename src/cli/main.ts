#!/usr/bin/env node
/**
 * The `missionweave` operator CLI. Exit codes: 0 success, 1 the command's negative outcome
 * (invalid document, conformance mismatch, verification failure), 2 usage errors.
 */

import { UsageError } from './args.js';
import { conformanceCommand } from './conformanceCommand.js';
import { validateCommand } from './validateCommand.js';

const USAGE = `usage: missionweave <command> [options]

commands:
  conformance [--spec DIR] [--json]   run the official bundles against this implementation
  validate <object> <file|->          strictly parse and schema-validate one document
`;

type Command = (argv: readonly string[]) => number | Promise<number>;

const COMMANDS: Record<string, Command> = {
  conformance: conformanceCommand,
  validate: validateCommand,
};

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (command === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  try {
    return await command(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`missionweave: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 70;
  },
);
