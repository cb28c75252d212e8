/**
 * A small argument parser for the operator CLI: positionals, `--flag value`, `--flag=value`
 * and boolean `--flag`. Unknown flags are usage errors, reported with exit code 2.
 */

import { UsageError } from '../home/usageError.js';

export { UsageError };

export interface ParsedArgs {
  readonly positionals: string[];
  readonly options: Map<string, string | true>;
}

/** `spec` maps each allowed flag to whether it takes a value; repeated flags keep the last. */
export function parseArgs(argv: readonly string[], spec: Record<string, 'value' | 'boolean' | 'list'>): ParsedArgs & { lists: Map<string, string[]> } {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--') || arg === '-' ) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const kind = spec[name];
    if (kind === undefined) throw new UsageError(`unknown option --${name}`);
    if (kind === 'boolean') {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      options.set(name, true);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (kind === 'list') lists.set(name, [...(lists.get(name) ?? []), value]);
    else options.set(name, value);
  }
  return { positionals, options, lists };
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options.get(name);
  return typeof value === 'string' ? value : undefined;
}
