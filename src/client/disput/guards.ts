/**
 * Seed §9 `[guards]`, applied by the tool to every command it runs: `env` variables are set (over
 * the inherited environment, so `DRY_RUN=true` wins over a stray `DRY_RUN=false`), and a command
 * that matches a `deny` pattern is refused before it starts.
 *
 * A command is one string run as `sh -c <command>`: `disput.toml` writes `command = "npm test"`
 * (the domain's `DisputCheck.command` is a string, and the seed gives no argv form), so the shell
 * is the command's own language. The shell is invoked with the command as one argv entry; the tool
 * never builds a shell line itself.
 *
 * A deny pattern is matched against the command with its whitespace collapsed: `*` stands for any
 * characters, everything else is literal, and the match may sit anywhere in the command but must
 * start and end on a word boundary (`git push` refuses `make && git push origin`, `prod` does not
 * refuse `npm run product-list`). It catches an agent's or a config's mistake, it is no sandbox:
 * `g''it push` gets through, and only the adapters' own hooks (§9) can see every command.
 */

import { withoutRepoEnv } from './gitFacts.js';
import { runBounded, type BoundedRun } from './runBounded.js';
import { CHECK_OUTPUT_TAIL_BYTES, CHECK_TIMEOUT_MS } from './disputToolLimits.js';

export interface ToolGuards {
  readonly env: Readonly<Record<string, string>>;
  readonly deny: readonly string[];
}

export const NO_GUARDS: ToolGuards = { env: {}, deny: [] };

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Word characters for the boundary rule: a command word may hold `-`, `.` and `/`. */
const WORD = 'A-Za-z0-9_./-';

function denyRegExp(pattern: string): RegExp {
  const body = collapse(pattern)
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`(?:^|[^${WORD}])${body}(?:$|[^${WORD}])`);
}

/** The first deny pattern `command` matches, or null. */
export function deniedBy(command: string, deny: readonly string[]): string | null {
  const line = collapse(command);
  return deny.find((pattern) => denyRegExp(pattern).test(line)) ?? null;
}

/** The environment a guarded command runs under: git pointed at its own folder, the guards on top. */
export function guardedEnv(guards: ToolGuards): NodeJS.ProcessEnv {
  return { ...withoutRepoEnv(process.env), ...guards.env };
}

export type GuardedRun = ({ readonly refused: false } & BoundedRun) | { readonly refused: true; readonly pattern: string };

export interface CommandOptions {
  readonly timeoutMs?: number;
  readonly tailBytes?: number;
}

/** Runs `command` in `cwd` under the guards, or refuses it without starting anything. */
export async function runGuarded(cwd: string, command: string, guards: ToolGuards, options: CommandOptions = {}): Promise<GuardedRun> {
  const pattern = deniedBy(command, guards.deny);
  if (pattern !== null) return { refused: true, pattern };
  const run = await runBounded('sh', ['-c', command], {
    cwd,
    env: guardedEnv(guards),
    timeoutMs: options.timeoutMs ?? CHECK_TIMEOUT_MS,
    tailBytes: options.tailBytes ?? CHECK_OUTPUT_TAIL_BYTES,
  });
  return { refused: false, ...run };
}
