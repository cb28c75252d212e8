/**
 * The real `RepoCheck`: the agent-side disput tool's §8 check (`checkLastTurn`: run lock,
 * invariants §8.1–8.6, `[[checks]]` under `[guards]`, `last-run.md`) given the Group's pinned
 * config and the domain's own turn rules, so the turn is judged locally by the rules the Authority
 * applies after it (docs/disput.md).
 *
 * The old HEAD: the `TurnStart` `next` recorded when it named the player, when it starts from the
 * last recorded turn's commit. Otherwise (no `next` before the turn, or a start left from an
 * earlier turn) the check falls back to the last recorded turn's commit — or, before turn 1, the
 * commit the new turn file's `base` names — with the remotes' refs as they are now: §8.1,
 * §8.2 and §8.4–8.7 are checked the same, but a push made during the turn cannot be seen, so
 * §8.3 is reported unchecked in `notes`, never passed in silence.
 */

import { checkLastTurn, type DisputToolConfig, type TurnRules } from '../../client/disput/checkLastTurn.js';
import { remoteRefs } from '../../client/disput/gitFacts.js';
import { turnStartOf, type TurnStart, type Verdict } from '../../client/disput/invariants.js';
import { readTurnStart } from '../../client/disput/localFiles.js';
import { RunLockedError } from '../../client/disput/runLock.js';
import { checkItems } from '../../domain/disput/checkAnswers.js';
import { parseDisputConfig } from '../../domain/disput/disputConfig.js';
import { isRefusal } from '../../domain/disput/disputRefusals.js';
import { DECIDER_ROLE, type DisputConfig, type DisputState } from '../../domain/disput/disputTypes.js';
import { foldItems } from '../../domain/disput/items.js';
import { fileNameOf, headerBaseOf, parseTurnFile } from '../../domain/disput/turnFile.js';
import type { Refusal } from '../../domain/model.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { CONFIG_PATH, ROOT_CONFIG_PATH, TURNS_DIR, type GitRepo, type RepoCheck, type RepoCheckInput, type RepoCheckResult } from './repoChecks.js';

function refusedVerdict(refusal: Refusal): Verdict {
  return { ok: false, reason: refusal.error.reason ?? refusal.error.code, message: refusal.error.message };
}

/** The domain's turn rules as the tool's hooks: §4 header and name, §8.6 (rule 3) on the recorded items. */
export function domainTurnRules(state: DisputState, config: DisputConfig): TurnRules {
  return {
    validateTurnFile(fileName, text) {
      const file = parseTurnFile(text);
      if (isRefusal(file)) return refusedVerdict(file);
      const expected = fileNameOf(file.header);
      return expected === fileName ? { ok: true } : { ok: false, reason: 'file_name_mismatch', message: `the header calls for ${expected}, not ${fileName}` };
    },
    pendingItemsAnswered(_fileName, text) {
      const file = parseTurnFile(text);
      if (isRefusal(file)) return refusedVerdict(file);
      const items = new Map(foldItems(state.turns).map((item) => [item.id, item]));
      const after = checkItems(config, items, file, { number: file.header.turn, participant: file.header.participant, answers: file.answers, items: file.items });
      return isRefusal(after) ? refusedVerdict(after) : { ok: true };
    },
  };
}

/** The config in force: the Group's pinned one; before turn 1, the folder's, which that turn pins. */
function configInForce(repo: GitRepo, state: DisputState, head: string): DisputConfig | string {
  if (state.config !== null) return state.config;
  const file = repo.configAt(head);
  if (file === undefined) return `no ${CONFIG_PATH} (nor ${ROOT_CONFIG_PATH}) at HEAD and none pinned in the Group`;
  const parsed = parseDisputConfig(file.text);
  return isRefusal(parsed) ? `${file.path} is refused: ${parsed.error.message}` : parsed;
}

/** Where the turn began: see the module comment. */
async function turnStart(input: RepoCheckInput): Promise<{ start?: TurnStart; notes: string[] }> {
  if (input.start !== undefined) return { start: input.start, notes: [] };
  const { repo, state, head, fileName } = input;
  const previous = state.turns.at(-1)?.commit;
  const recorded = await readTurnStart(repo.root);
  if (recorded !== null && (previous === undefined || recorded.head === previous)) return { start: recorded, notes: [] };
  const why = recorded === null ? 'no turn start recorded (`disput next` records it)' : `the recorded turn start ${recorded.head.slice(0, 7)} is not the last recorded turn's commit`;
  const text = fileName === undefined ? undefined : repo.fileAt(head, `${TURNS_DIR}/${fileName}`);
  const base = text === undefined ? undefined : headerBaseOf(text);
  const oldHead = previous ?? (base === undefined ? undefined : repo.resolve(base));
  if (oldHead === undefined) return { notes: [`${why}, and no recorded turn or base commit to start from`] };
  const from = previous === undefined ? `the turn file's base ${oldHead.slice(0, 7)}` : `the last recorded turn's commit ${oldHead.slice(0, 7)}`;
  return { start: turnStartOf(oldHead, await remoteRefs(repo.root)), notes: [`§8.3 unchecked: ${why}; checked from ${from}, and a push during the turn cannot be seen`] };
}

function failed(reason: string, problem: string, notes: readonly string[]): RepoCheckResult {
  return { ok: false, reasons: [reason], problems: [problem], notes, report: { ok: false, reasons: [reason], problems: [problem], notes: [...notes] } };
}

export const disputRepoCheck: RepoCheck = async (input) => {
  const config = configInForce(input.repo, input.state, input.head);
  if (typeof config === 'string') return failed('config_missing', config, []);
  const { start, notes } = await turnStart(input);
  if (start === undefined) return failed('turn_start_missing', notes.join('; '), []);
  // The domain's DisputConfig is the tool's config as it is (roles, checks, guards), plus the §10
  // decider the domain knows without a [[roles]] entry: like the Authority (checkTurn's checkDiff),
  // it writes no code unless disput.toml declares it otherwise.
  const declared = config.roles.some((role) => role.name === DECIDER_ROLE);
  const toolConfig: DisputToolConfig = declared ? config : { ...config, roles: [...config.roles, { name: DECIDER_ROLE, writesCode: false }] };
  let result;
  try {
    result = await checkLastTurn(input.repo.root, toolConfig, domainTurnRules(input.state, config), { start });
  } catch (error) {
    if (error instanceof RunLockedError) return failed(error.reason, error.message, notes);
    throw error;
  }
  if (!('invariants' in result)) return failed(result.reason, 'no turn start', notes);
  const { invariants, checks } = result;
  const reasons = invariants.failures.map((f) => f.reason);
  const problems = invariants.failures.map((f) => `§8.${f.invariant} ${f.reason}: ${f.message}`);
  for (const check of checks ?? []) {
    if (check.ok) continue;
    reasons.push(check.reason as string);
    const after = check.after === undefined || check.after.refused ? 'denied by [guards]' : check.after.timedOut ? 'timed out' : `exit ${String(check.after.code)}`;
    problems.push(`§8.7 ${String(check.reason)}: ${check.name} (${check.policy}) ${after}; see .disput/last-run.md`);
  }
  const report: JsonObject = {
    ok: result.ok,
    reasons,
    problems,
    notes,
    oldHead: start.head,
    checks: checks === null ? null : checks.map((c) => ({ name: c.name, policy: c.policy, ok: c.ok, ...(c.reason === undefined ? {} : { reason: c.reason }) })),
  };
  return { ok: result.ok, reasons, problems, notes, report };
};
