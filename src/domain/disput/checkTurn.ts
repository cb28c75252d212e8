/**
 * What the Authority enforces on one turn (issue 15 part 2), in the order a reader would check
 * it: the config in force (pinned by the first turn, changed only by the decider), the file
 * (§4, to the letter), its number and commit (rules 1, 2), who plays it (§6, rule 7, §8.5), that
 * it is their turn (§7), and what it says about items (§5, rule 3, `checkAnswers.ts`). The result
 * is the turn as recorded, or the first refusal with its stable reason.
 */

import { principalKey, type Principal } from '../../protocol/principal.js';
import type { Refusal } from '../model.js';
import { backlogBeforeFirstTurn, summarizeBacklog } from './backlog.js';
import { checkItems } from './checkAnswers.js';
import { parseDisputConfig } from './disputConfig.js';
import { disputLimits } from './disputLimits.js';
import { disputRefusal, isRefusal } from './disputRefusals.js';
import { DECIDER_ROLE, participantOf, roleOf, type BacklogSummary, type DisputConfig, type DisputState, type RecordedTurn, type TurnFile } from './disputTypes.js';
import { foldItems } from './items.js';
import { currentDiff, nextTurn, reviewClosed } from './schedule.js';
import { fileNameOf, parseTurnFile } from './turnFile.js';
import { isCodePath, isReviewRole, triggeredRoles } from './triggers.js';

/** What the turn's Command carries (`disputProfile.ts` reads it from the payload). */
export interface TurnSubmission {
  readonly fileName: string;
  /** The turn file exactly as committed. */
  readonly text: string;
  readonly commit: string;
  /** The paths the turn's commits changed, as `disput check` computed them. */
  readonly changedPaths: readonly string[];
  /** `disput.toml` as committed: with the first turn, or with a decider turn that changes it. */
  readonly config?: string;
  /** `.disput/backlog.md` as committed, when the turn sends it. */
  readonly backlog?: string;
}

export interface CheckedTurn {
  readonly turn: RecordedTurn;
  readonly file: TurnFile;
  /** A config this turn pins. */
  readonly config?: DisputConfig;
  readonly backlog?: BacklogSummary;
}

function configInForce(state: DisputState, submission: TurnSubmission, file: TurnFile): { config: DisputConfig; pins: boolean } | Refusal {
  if (submission.config === undefined) {
    if (state.config === null) return disputRefusal('config_missing', 'the first turn pins disput.toml (payload config)');
    return { config: state.config, pins: false };
  }
  // Issue 15: the pinned config is « changed only by a human decision ».
  if (state.config !== null && file.header.role !== DECIDER_ROLE) return disputRefusal('config_pinned', 'disput.toml is pinned; only a decider turn changes it');
  const config = parseDisputConfig(submission.config, { requirePrincipals: true });
  return isRefusal(config) ? config : { config, pins: true };
}

function checkOrder(state: DisputState, submission: TurnSubmission, file: TurnFile): Refusal | undefined {
  const { header } = file;
  if (submission.fileName !== fileNameOf(header)) return disputRefusal('file_name_mismatch', `the header calls for ${fileNameOf(header)}, not ${submission.fileName.slice(0, 80)}`);
  if (state.turns.some((t) => t.number === header.turn)) return disputRefusal('turn_recorded', `turn ${header.turn} is recorded; a correction is a new turn (rule 2)`, { turn: header.turn });
  const last = state.turns.at(-1);
  const expected = (last?.number ?? 0) + 1;
  if (header.turn !== expected) return disputRefusal('turn_number_not_next', `the next turn is ${expected}, not ${header.turn}`, { expected });
  if (state.turns.length >= disputLimits.maxTurns) return disputRefusal('disput_limit', `a dialogue holds at most ${disputLimits.maxTurns} turns`);
  if (last !== undefined && !last.commit.startsWith(header.base)) return disputRefusal('base_not_previous', `base ${header.base} is not turn ${last.number}'s commit ${last.commit}`);
  if (state.turns.some((t) => t.commit === submission.commit)) return disputRefusal('commit_reused', `commit ${submission.commit} is another turn's (rule 1)`);
  return undefined;
}

function checkPlayer(config: DisputConfig, file: TurnFile, actor: Principal): Refusal | undefined {
  const { participant, role } = file.header;
  const who = participantOf(config, participant);
  if (who === undefined) return disputRefusal('participant_unknown', `${participant} is not a participant of disput.toml`);
  if (who.principal === undefined || principalKey(who.principal) !== principalKey(actor)) return disputRefusal('participant_not_actor', `this actor does not play ${participant}`);
  if (!who.roles.includes(role)) return disputRefusal('role_not_held', `${participant} does not hold ${role}`);
  return undefined;
}

function checkDiff(state: DisputState, config: DisputConfig, file: TurnFile, changedPaths: readonly string[]): Refusal | undefined {
  const { participant, role } = file.header;
  const diff = currentDiff(state.turns);
  // Rule 7: « Le reviewer d'un tour DOIT être un autre participant que l'auteur de ce tour. »
  if (diff !== undefined && diff.turn.triggered.includes(role) && diff.turn.participant === participant) {
    return disputRefusal('reviewer_is_author', `${participant} wrote turn ${diff.turn.number}'s code and cannot review it as ${role}`);
  }
  const declared = roleOf(config, role);
  if (declared?.writesCode !== true && changedPaths.some(isCodePath)) {
    return disputRefusal('role_writes_no_code', `${role} has writes_code = false: it changes .disput/ only`, { paths: changedPaths.filter(isCodePath).slice(0, 10) });
  }
  if (isReviewRole(config, role) && reviewClosed(config, state.turns) && role !== DECIDER_ROLE) {
    return disputRefusal('review_closed', 'two review turns opened no item and set no REJETÉ: the review of this diff is closed (§7)');
  }
  return undefined;
}

function checkSchedule(state: DisputState, config: DisputConfig, file: TurnFile, sent: BacklogSummary | undefined): Refusal | undefined {
  const { participant, role } = file.header;
  // §10: the human decides whenever it chooses; its turn stops nothing and skips no rule here.
  if (role === DECIDER_ROLE) return undefined;
  // Before any turn sent one, the first turn's own backlog says who starts (§7.4), read as it
  // stood before that turn: the task the turn itself ticked was open when it began.
  const next = nextTurn({ config, turns: state.turns, backlog: state.backlog ?? sent ?? null });
  if (next.participant === undefined) return disputRefusal('dialogue_done', `the dialogue is DONE (${next.why}); only the ${DECIDER_ROLE} may play`);
  if (next.participant !== participant || !next.roles.includes(role)) {
    return disputRefusal('not_your_turn', `@${next.participant} plays next as ${next.roles.join(' or ')}: ${next.why}`, { participant: next.participant, roles: [...next.roles], step: next.step });
  }
  return undefined;
}

function checkStatus(file: TurnFile): Refusal | undefined {
  if (file.header.status === 'USER' && (file.decision === undefined || file.decision.length === 0)) return disputRefusal('decision_missing', 'status USER asks its question under « ## Décision requise »');
  if (file.header.status !== 'USER' && file.decision !== undefined) return disputRefusal('decision_unexpected', '« ## Décision requise » goes with status USER only');
  return undefined;
}

/**
 * Status DONE says what §7.5 says: nothing is left. The seed's statuses mirror its schedule (USER
 * is §7.1's stop, DONE its last step), so a DONE turn is refused while §7, with this turn
 * recorded, would still name a player — a review its code change triggers (§7.3), the backlog's
 * open task (§7.4) — instead of being recorded and then ignored by `next`. Unresolved items are
 * `checkItems`' `done_with_pending_items`, found first.
 */
function checkDone(config: DisputConfig, state: DisputState, turn: RecordedTurn, sent: BacklogSummary | undefined): Refusal | undefined {
  if (turn.status !== 'DONE') return undefined;
  const after = nextTurn({ config, turns: [...state.turns, turn], backlog: sent ?? state.backlog });
  if (after.participant === undefined) return undefined;
  const where = { step: after.step, participant: after.participant, roles: [...after.roles], ...(after.task === undefined ? {} : { task: after.task }) };
  return disputRefusal('done_with_pending_work', `status DONE, but @${after.participant} plays next as ${after.roles.join(' or ')}: ${after.why} (§7)`, where);
}

export function checkTurn(state: DisputState, submission: TurnSubmission, actor: Principal, now: string): CheckedTurn | Refusal {
  const file = parseTurnFile(submission.text);
  if (isRefusal(file)) return file;
  const inForce = configInForce(state, submission, file);
  if (isRefusal(inForce)) return inForce;
  const { config } = inForce;
  const backlog = submission.backlog === undefined ? undefined : summarizeBacklog(submission.backlog);
  const firstBacklog = state.turns.length === 0 && state.backlog === null && submission.backlog !== undefined ? backlogBeforeFirstTurn(submission.backlog) : backlog;
  const refusal =
    checkOrder(state, submission, file) ??
    checkPlayer(config, file, actor) ??
    checkDiff(state, config, file, submission.changedPaths) ??
    checkSchedule(state, config, file, firstBacklog) ??
    checkStatus(file);
  if (refusal !== undefined) return refusal;
  const { header } = file;
  const turn: RecordedTurn = {
    number: header.turn,
    fileName: submission.fileName,
    participant: header.participant,
    role: header.role,
    status: header.status,
    base: header.base,
    commit: submission.commit,
    answers: file.answers.map(({ text: _text, ...answer }) => answer),
    items: file.items.map(({ text: _text, ...item }) => item),
    codeChanged: submission.changedPaths.some(isCodePath),
    triggered: triggeredRoles(config, submission.changedPaths),
    recordedAt: now,
  };
  const items = checkItems(config, new Map(foldItems(state.turns).map((item) => [item.id, item])), file, turn);
  if (isRefusal(items)) return items;
  const unfinished = checkDone(config, state, turn, backlog);
  if (unfinished !== undefined) return unfinished;
  return {
    turn,
    file,
    ...(inForce.pins ? { config } : {}),
    ...(backlog === undefined ? {} : { backlog }),
  };
}
