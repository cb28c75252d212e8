/**
 * `--help` and `--version` for the operator CLI: `missionweave <command> [subcommand] --help`
 * prints that command's entry of the usage (its lines, subcommands included) and exits 0, as
 * does `missionweave --help` with the whole usage; `--version` prints package.json's version.
 */

import { readFileSync } from 'node:fs';

/** Whether `argv` asks for help: `--help` or `-h` as a flag of its own, not the value of one. */
export function asksForHelp(argv: readonly string[]): boolean {
  return argv.some((arg, i) => (arg === '--help' || arg === '-h') && !isValueOf(argv, i));
}

/** Whether `argv[i]` follows a `--flag` that takes it as its value (a flag without `=`, not a boolean we know). */
function isValueOf(argv: readonly string[], i: number): boolean {
  const previous = argv[i - 1];
  return previous !== undefined && previous.startsWith('--') && !previous.includes('=') && !BOOLEAN_FLAGS.has(previous) && previous !== '--help';
}

/** The flags of the commands that take no value, so that `replay G --verify --help` asks for help. */
const BOOLEAN_FLAGS = new Set(['--verify', '--json', '--verbose']);

/**
 * The entry of `command` in `usage`: the lines from the one that starts with `  command ` (or
 * `  command` alone) up to the next entry, each entry's continuation lines indented further.
 */
export function commandUsage(usage: string, command: string): string | undefined {
  const lines = usage.split('\n');
  const start = lines.findIndex((line) => line === `  ${command}` || line.startsWith(`  ${command} `));
  if (start === -1) return undefined;
  let end = start + 1;
  while (end < lines.length && /^ {4,}\S/.test(lines[end] as string)) end++;
  const entry = lines.slice(start, end).map((line) => line.slice(2));
  return `usage: missionweave ${entry.join('\n').trimEnd()}\n`;
}

/** The version in the package's package.json (two folders above this file, in src/ and dist/ alike). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}
