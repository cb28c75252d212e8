/**
 * `missionweave disput check`'s work on the repository: under the run lock, with the local files
 * ignored, the §8 invariants on the turn since the recorded `TurnStart`, then the §8.7 checks
 * under the §9 guards, and `last-run.md` written either way. The checks run only on a turn that is
 * a clean commit on top of the old HEAD (§8.1, §8.2): otherwise there is no committed state to
 * run them on, and what they said would not be about the turn.
 *
 * The config arrives as plain data shaped like the domain's `DisputConfig` (roles, checks, guards),
 * so the parsed `disput.toml` is passed as it is once both sides are merged.
 */

import { ensureLocalFilesIgnored, readTurnStart, writeLastRun } from './localFiles.js';
import { checkInvariants, type InvariantReport, type InvariantRules, type TurnStart } from './invariants.js';
import { runChecks, type CheckOutcome, type ToolCheck } from './checks.js';
import { acquireRunLock } from './runLock.js';
import { renderLastRun } from './lastRunReport.js';
import type { CommandOptions, ToolGuards } from './guards.js';

export interface DisputToolConfig {
  readonly roles: readonly { readonly name: string; readonly writesCode: boolean }[];
  readonly checks: readonly ToolCheck[];
  readonly guards: ToolGuards;
}

export interface TurnRules {
  readonly validateTurnFile: InvariantRules['validateTurnFile'];
  readonly pendingItemsAnswered?: InvariantRules['pendingItemsAnswered'];
}

export type LastTurnCheck =
  | { readonly ok: false; readonly reason: 'turn_start_missing' }
  | { readonly ok: boolean; readonly invariants: InvariantReport; readonly checks: readonly CheckOutcome[] | null };

export interface CheckLastTurnOptions extends CommandOptions {
  /** The turn start, when the caller holds it; otherwise the one recorded in `.disput/logs/`. */
  readonly start?: TurnStart;
  /** The time written in `last-run.md`. */
  readonly now?: () => Date;
}

export async function checkLastTurn(repo: string, config: DisputToolConfig, rules: TurnRules, options: CheckLastTurnOptions = {}): Promise<LastTurnCheck> {
  const lock = await acquireRunLock(repo);
  try {
    await ensureLocalFilesIgnored(repo);
    const start = options.start ?? (await readTurnStart(repo));
    if (start === null) return { ok: false, reason: 'turn_start_missing' };
    const invariantRules: InvariantRules = { ...rules, writesCode: (role) => config.roles.find((r) => r.name === role)?.writesCode };
    const invariants = await checkInvariants(repo, start, invariantRules);
    const committed = !invariants.failures.some((f) => f.invariant === 1 || f.invariant === 2);
    const checks = committed ? await runChecks(repo, { oldHead: start.head, newHead: invariants.head }, config.checks, config.guards, options) : null;
    const at = (options.now ?? (() => new Date()))().toISOString();
    await writeLastRun(repo, renderLastRun(at, invariants, checks));
    return { ok: invariants.ok && (checks ?? []).every((c) => c.ok), invariants, checks };
  } finally {
    await lock.release();
  }
}
