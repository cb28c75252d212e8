/**
 * Sends the outbox: each Command not yet answered, oldest first, with exactly the bytes it was
 * kept as, recording each answer in the projection before the next is sent. Run it after every
 * (re)connect and after adding a Command; a Command sent before a crash and never answered goes
 * out again unchanged, which the Authority treats as a retry of the same Action ID (§19).
 *
 * - accepted: `acked`, with the Event that recorded it;
 * - ACTION_ID_COLLISION: an earlier sending was accepted (its answer was lost): `acked`;
 * - any other refusal the Authority says is final (`retryable: false`): `refused` with its code,
 *   and never sent again — the runtime decides what to do about it (a new Command, a new
 *   Action ID);
 * - AUTH_STALE_SESSION or MEMBERSHIP_STALE, with a `rebase` given: the Command was signed under a
 *   Session that ended or a Membership Epoch that moved on, and never applied (an applied one is
 *   answered with its receipt); it is rebased onto the current epochs under a new Action ID (§19,
 *   outboxRebase.ts), at most COMMAND_RESIGNS times in a row, the new bytes and Action ID
 *   replace the kept ones in the outbox before they are sent, and they are sent — the outcome
 *   names the new Action ID and, in `rebasedFrom`, the one it was first kept under (so does the
 *   outcome of a rebased Command sent again after a restart). A rebase that cannot be made
 *   for good leaves it `refused`; one cut short by the connection leaves it to the next sending;
 * - anything else (the connection dropped, a retryable refusal): the Command stays `sent` and
 *   sending stops there, so later Commands never overtake it; the next run starts from it.
 */

import type { ProtocolEvent } from '../documents.js';
import type { SignedCommandSender } from '../offlineBuffer.js';
import { isAgentError, MissionWeaveError } from '../errors.js';
import { COMMAND_RESIGNS } from '../limits.js';
import { outboxFailpoint } from './outboxFailpoint.js';
import { STALE_REFUSALS, type OutboxRebase } from './outboxRebase.js';
import { OUTBOX_KINDS, type OutboxCommand, type ProjectionOutbox } from './projectionOutbox.js';

export type OutboxOutcome =
  | { readonly actionId: string; readonly outcome: 'acked'; readonly eventId?: string; readonly rebasedFrom?: string }
  | { readonly actionId: string; readonly outcome: 'refused'; readonly code: string; readonly rebasedFrom?: string; readonly why?: string }
  /** Not answered: it is sent again next time, and nothing after it was sent this time. */
  | { readonly actionId: string; readonly outcome: 'unanswered'; readonly error: unknown };

function eventIdOf(event: unknown): string | undefined {
  const eventId = (event as { eventId?: unknown } | null)?.eventId;
  return typeof eventId === 'string' ? eventId : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether a kept Command was refused as stale (STALE_REFUSALS) and is of a kind the outbox rebases. */
function staleRefusal(error: unknown, command: OutboxCommand): error is MissionWeaveError {
  return error instanceof MissionWeaveError && STALE_REFUSALS.has(error.code) && OUTBOX_KINDS.has(command.kind);
}

/** A kept Command `refusal` fenced (AUTH_STALE_SESSION, MEMBERSHIP_STALE), rebased onto the current epochs and sent (outboxRebase.ts). */
async function sendRebased(outbox: ProjectionOutbox, command: OutboxCommand, sender: SignedCommandSender, rebase: OutboxRebase, refusal: MissionWeaveError, rebases: number): Promise<OutboxOutcome> {
  const { actionId } = command;
  const from = command.rebasedFrom === undefined ? {} : { rebasedFrom: command.rebasedFrom };
  let text: string;
  try {
    text = await rebase(command, refusal);
  } catch (error) {
    // Cut short by the connection: the next sending tries again; refused for good: so is the Command.
    const final = (error instanceof MissionWeaveError && !error.retryable) || (isAgentError(error) && error.code === 'INVALID_ARGUMENT');
    if (!final) return { actionId, outcome: 'unanswered', error };
    outbox.markRefused(actionId, refusal.code);
    return { actionId, outcome: 'refused', code: refusal.code, ...from, why: `not rebased: ${messageOf(error)}` };
  }
  return sendOne(outbox, outbox.rebase(actionId, text), sender, rebase, rebases);
}

async function sendOne(outbox: ProjectionOutbox, command: OutboxCommand, sender: SignedCommandSender, rebase?: OutboxRebase, rebases = 0): Promise<OutboxOutcome> {
  const { actionId } = command;
  const from = command.rebasedFrom === undefined ? {} : { rebasedFrom: command.rebasedFrom };
  outbox.markSent(actionId);
  try {
    const eventId = eventIdOf(await sender.sendSigned(command.bytes.toString('utf8')));
    outbox.markAcked(actionId, eventId);
    return eventId === undefined ? { actionId, outcome: 'acked', ...from } : { actionId, outcome: 'acked', eventId, ...from };
  } catch (error) {
    if (isAgentError(error) && error.code === 'ACTION_ID_COLLISION') {
      outbox.markAcked(actionId);
      return { actionId, outcome: 'acked', ...from };
    }
    if (rebase !== undefined && rebases < COMMAND_RESIGNS && staleRefusal(error, command)) return sendRebased(outbox, command, sender, rebase, error, rebases + 1);
    if (error instanceof MissionWeaveError && !error.retryable) {
      outbox.markRefused(actionId, error.code);
      return { actionId, outcome: 'refused', code: error.code, ...from };
    }
    return { actionId, outcome: 'unanswered', error };
  }
}

/** What `sendKept` does when the Session is replaced while the Command is in flight. */
export interface InFlightRebase {
  readonly rebase: OutboxRebase;
  /** The Action IDs being sent now (OutboxCommands.inFlight): a rebased one joins them while it is sent. */
  readonly busy: Set<string>;
}

/**
 * Sends one kept Command now (just added: outboxCommands.ts) and records its answer; resolves with
 * its primary Event, rejects with the refusal or the failure that left it unanswered. With
 * `inFlight`, a Command whose Session was replaced before it was applied (the Agent sent the same
 * bytes again after its reconnect and they were refused AUTH_STALE_SESSION), or whose Membership
 * Epoch moved on before it arrived (MEMBERSHIP_STALE), is rebased onto the current epochs under a
 * new Action ID (§19), at most COMMAND_RESIGNS times, and the rebased one's Event is the answer;
 * one the Authority had applied was answered with its receipt and is not rebased.
 */
export async function sendKept(outbox: ProjectionOutbox, command: OutboxCommand, sender: SignedCommandSender, inFlight?: InFlightRebase, rebases = 0): Promise<ProtocolEvent> {
  const { actionId } = command;
  outbox.markSent(actionId);
  try {
    const event = await sender.sendSigned(command.bytes.toString('utf8'));
    outboxFailpoint('answered', command.kind);
    outbox.markAcked(actionId, eventIdOf(event));
    return event;
  } catch (error) {
    if (inFlight !== undefined && staleRefusal(error, command) && rebases < COMMAND_RESIGNS) return sendKeptRebased(outbox, command, sender, inFlight, error, rebases + 1);
    if (error instanceof MissionWeaveError && !error.retryable && error.code !== 'ACTION_ID_COLLISION') outbox.markRefused(actionId, error.code);
    throw error;
  }
}

async function sendKeptRebased(outbox: ProjectionOutbox, command: OutboxCommand, sender: SignedCommandSender, inFlight: InFlightRebase, refusal: MissionWeaveError, rebases: number): Promise<ProtocolEvent> {
  let text: string;
  try {
    text = await inFlight.rebase(command, refusal);
  } catch (error) {
    // Refused for good: so is the Command (the host re-checks the work); cut short: left to the next sending.
    if ((error instanceof MissionWeaveError && !error.retryable) || (isAgentError(error) && error.code === 'INVALID_ARGUMENT')) outbox.markRefused(command.actionId, refusal.code);
    throw error;
  }
  const rebased = outbox.rebase(command.actionId, text);
  inFlight.busy.add(rebased.actionId);
  try {
    return await sendKept(outbox, rebased, sender, inFlight, rebases);
  } finally {
    inFlight.busy.delete(rebased.actionId);
  }
}

/**
 * Sends every unanswered Command in order until one is left unanswered; says what became of each
 * sent. `busy` names Commands this process is sending now (sendKept): they are left to it;
 * `rebase` re-signs a kept run-ending Command fenced by a new Session or Membership Epoch (outboxRebase.ts).
 */
export async function sendOutbox(outbox: ProjectionOutbox, sender: SignedCommandSender, busy: ReadonlySet<string> = new Set(), rebase?: OutboxRebase): Promise<OutboxOutcome[]> {
  const outcomes: OutboxOutcome[] = [];
  for (const command of outbox.toSend()) {
    if (busy.has(command.actionId)) continue;
    const outcome = await sendOne(outbox, command, sender, rebase);
    outcomes.push(outcome);
    if (outcome.outcome === 'unanswered') break;
  }
  return outcomes;
}

/** One line for a log: `ACTION: acked (rebased from ORIGINAL)`, `ACTION: refused CODE`, `ACTION: unanswered (why)`. */
export function outcomeText(outcome: OutboxOutcome): string {
  const rebased = outcome.outcome !== 'unanswered' && outcome.rebasedFrom !== undefined ? ` (rebased from ${outcome.rebasedFrom})` : '';
  if (outcome.outcome === 'acked') return `${outcome.actionId}: acked${rebased}`;
  if (outcome.outcome === 'refused') return `${outcome.actionId}: refused ${outcome.code}${rebased}${outcome.why === undefined ? '' : ` (${outcome.why})`}`;
  return `${outcome.actionId}: unanswered (${messageOf(outcome.error)})`;
}
