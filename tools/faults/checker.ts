/**
 * The fault suite's checker: pure functions over the recorded history and the logs read back
 * afterwards. Each returns violations; the suite passes only when there are none.
 *
 * - every Group's sequences run 1..N, and each Command was applied at most once (its Events
 *   form one contiguous run);
 * - every acknowledged Command is in the log, with exactly the Event text it was answered with;
 *   a Command refused for good is not; no Command got both answers;
 * - nothing was acknowledged that was invoked and answered while PostgreSQL was down;
 * - every reader saw, per connection, the Events right after its Cursor, in order, no gap,
 *   byte-identical to the log, and every replay through every node equals the log;
 * - no accepted Command carried a Membership Epoch or Coordinator Epoch that was no longer
 *   current at its place in the log, and every deliberately stale probe was refused.
 */

import { buildKindRegistry } from '#src/domain/coreModules.js';
import { DEFINITE_REFUSALS, outcomeOf, type GroupLog, type History, type Replay } from './history.js';

export interface Violation {
  readonly rule: string;
  readonly detail: string;
}

interface EventFacts {
  readonly kind: string;
  readonly causeId: string | undefined;
  readonly payload: Record<string, unknown>;
}

function factsOf(text: string): EventFacts {
  const event = JSON.parse(text) as { kind: string; cause?: { id?: string }; payload?: Record<string, unknown> };
  return { kind: event.kind, causeId: event.cause?.id, payload: event.payload ?? {} };
}

/** Sequences 1..N, and one contiguous run of Events per Command. */
export function checkLogs(logs: readonly GroupLog[]): Violation[] {
  const violations: Violation[] = [];
  for (const log of logs) {
    log.events.forEach((event, i) => {
      if (event.sequence !== i + 1) violations.push({ rule: 'sequence-gap', detail: `${log.groupId}: position ${i + 1} holds sequence ${event.sequence}` });
    });
    const runs = new Map<string, number[]>();
    for (const event of log.events) {
      const cause = factsOf(event.text).causeId;
      if (cause !== undefined) runs.set(cause, [...(runs.get(cause) ?? []), event.sequence]);
    }
    for (const [cause, sequences] of runs) {
      const contiguous = sequences.every((s, i) => i === 0 || s === (sequences[i - 1] as number) + 1);
      if (!contiguous) violations.push({ rule: 'applied-twice', detail: `${log.groupId}: Command ${cause} has Events at ${sequences.join(',')}` });
    }
  }
  return violations;
}

/** Acknowledged ⇒ logged with the same bytes; refused ⇒ not logged; never both. */
export function checkOperations(history: History, logs: readonly GroupLog[]): Violation[] {
  const violations: Violation[] = [];
  const byCause = new Map<string, Map<number, string>>();
  for (const log of logs) {
    for (const event of log.events) {
      const cause = factsOf(event.text).causeId;
      if (cause === undefined) continue;
      const events = byCause.get(cause) ?? new Map<number, string>();
      events.set(event.sequence, event.text);
      byCause.set(cause, events);
    }
  }
  const answers = new Map<number, History['completions'][number]['answer'][]>();
  for (const c of history.completions) answers.set(c.op, [...(answers.get(c.op) ?? []), c.answer]);
  for (const op of history.operations) {
    const mine = answers.get(op.id) ?? [];
    const logged = byCause.get(op.actionId);
    const acknowledged = mine.filter((a) => a.type === 'event');
    const refused = mine.filter((a) => a.type === 'error' && DEFINITE_REFUSALS.has(a.code));
    // A fenced owner's late Command may be kept (not as a completion): workChecker.ts judges it.
    const epochProbe = op.probe !== undefined && op.probe !== 'fenced-owner';
    if (epochProbe && (logged !== undefined || acknowledged.length > 0)) {
      violations.push({ rule: 'stale-epoch-accepted', detail: `${op.probe} probe ${op.actionId} was accepted` });
    }
    if (acknowledged.length > 0 && logged === undefined) violations.push({ rule: 'acknowledged-lost', detail: `${op.kind} ${op.actionId} was acknowledged but is not in the log` });
    if (acknowledged.length > 0 && refused.length > 0) violations.push({ rule: 'contradictory-answers', detail: `${op.actionId} was both acknowledged and refused` });
    if (refused.length > 0 && acknowledged.length === 0 && logged !== undefined && !epochProbe) {
      violations.push({ rule: 'refused-but-applied', detail: `${op.actionId} was refused (${refused.map((a) => (a.type === 'error' ? a.code : '')).join(',')}) but is in the log` });
    }
    for (const answer of acknowledged) {
      for (const event of answer.type === 'event' ? answer.events : []) {
        if (logged?.get(event.sequence) !== event.text) violations.push({ rule: 'acknowledgement-differs', detail: `${op.actionId}: the Event answered at sequence ${event.sequence} differs from the log` });
      }
    }
  }
  return violations;
}

/** Nothing invoked and answered while the database was down can have been committed. */
export function checkDowntimes(history: History, slackMs = 50): Violation[] {
  const violations: Violation[] = [];
  const invoked = new Map(history.operations.map((op) => [op.id, op]));
  for (const c of history.completions) {
    if (c.answer.type !== 'event') continue;
    const op = invoked.get(c.op);
    if (op === undefined) continue;
    for (const down of history.downtimes) {
      if (op.invokedAt > down.from + slackMs && c.at < down.to) {
        violations.push({ rule: 'acknowledged-while-database-down', detail: `${op.actionId} invoked and acknowledged while PostgreSQL was down` });
      }
    }
  }
  return violations;
}

/** Per reader connection: the Events right after the Cursor, in order, equal to the log. */
export function checkDeliveries(history: History, logs: readonly GroupLog[]): Violation[] {
  const violations: Violation[] = [];
  const texts = new Map(logs.map((log) => [log.groupId, new Map(log.events.map((e) => [e.sequence, e.text]))]));
  for (const segment of history.segments) {
    let expected = segment.afterSequence + 1;
    for (const event of segment.received) {
      if (event.sequence !== expected) {
        violations.push({ rule: 'delivery-out-of-order', detail: `${segment.reader} on ${segment.groupId}: expected ${expected}, got ${event.sequence}` });
        break;
      }
      if (texts.get(segment.groupId)?.get(event.sequence) !== event.text) {
        violations.push({ rule: 'delivery-differs', detail: `${segment.reader} on ${segment.groupId}: sequence ${event.sequence} differs from the log` });
      }
      expected++;
    }
  }
  return violations;
}

/** Every replay through every node is the log, byte for byte. */
export function checkReplays(replays: readonly Replay[], logs: readonly GroupLog[]): Violation[] {
  const violations: Violation[] = [];
  const byGroup = new Map(logs.map((log) => [log.groupId, log]));
  for (const replay of replays) {
    const log = byGroup.get(replay.groupId);
    const same = log !== undefined && log.events.length === replay.events.length && log.events.every((e, i) => replay.events[i]?.sequence === e.sequence && replay.events[i]?.text === e.text);
    if (!same) violations.push({ rule: 'replay-differs', detail: `${replay.groupId} replayed through ${replay.via} differs from the log (${replay.events.length} vs ${log?.events.length ?? 0} Events)` });
  }
  return violations;
}

/** The core kinds, built once for this tool (a composition root). */
const CORE_KINDS = buildKindRegistry([]);

/** Kinds only the current Coordinator may send, under its current epoch (from their entries). */
function coordinatorOnly(kind: string): boolean {
  const authority = CORE_KINDS.groupKind(kind)?.authority;
  return authority !== undefined && authority.length > 0 && authority.every((a) => a === 'coordinator');
}

interface MembershipLike {
  readonly member?: { id?: string };
  readonly membershipEpoch?: number;
}

/** Folds the log: every accepted Command's epochs must be the current ones at its place. */
export function checkEpochs(logs: readonly GroupLog[]): Violation[] {
  const violations: Violation[] = [];
  for (const log of logs) {
    const memberships = new Map<string, number>();
    let coordinatorEpoch = 0;
    let previousCause: string | undefined;
    for (const event of log.events) {
      const facts = factsOf(event.text);
      // A Command is judged against the state before its first Event.
      const command = facts.causeId === undefined || facts.causeId === previousCause ? undefined : log.commands.get(facts.causeId);
      if (command !== undefined) {
        const envelope = JSON.parse(command) as { kind: string; actor: { id: string }; membershipEpoch?: number; coordinatorEpoch?: number };
        const current = memberships.get(envelope.actor.id);
        if (envelope.membershipEpoch !== undefined && current !== undefined && envelope.membershipEpoch !== current) {
          violations.push({ rule: 'stale-epoch-accepted', detail: `${log.groupId}@${event.sequence}: ${envelope.kind} carried Membership Epoch ${envelope.membershipEpoch}, current ${current}` });
        }
        if (coordinatorOnly(envelope.kind) && envelope.coordinatorEpoch !== coordinatorEpoch) {
          violations.push({ rule: 'stale-epoch-accepted', detail: `${log.groupId}@${event.sequence}: ${envelope.kind} carried Coordinator Epoch ${String(envelope.coordinatorEpoch)}, current ${coordinatorEpoch}` });
        }
      }
      previousCause = facts.causeId;
      const changed = [facts.payload['membership'], ...((facts.payload['memberships'] as unknown[] | undefined) ?? [])] as (MembershipLike | undefined)[];
      for (const m of changed) if (m?.member?.id !== undefined && m.membershipEpoch !== undefined) memberships.set(m.member.id, m.membershipEpoch);
      // Every Event that carries the Mission document carries its current Coordinator Epoch.
      const mission = facts.payload['mission'] as { coordinator?: { coordinatorEpoch?: number } } | undefined;
      const epoch = mission?.coordinator?.coordinatorEpoch;
      if (epoch !== undefined) coordinatorEpoch = epoch;
    }
  }
  return violations;
}

/** Operations whose answers never settled whether they were applied. */
export function unresolved(history: History): number {
  return unresolvedOperations(history).length;
}

/** An unsettled Operation: its last answer (`none`, `lost: why` or an error code), when, and how many copies were answered. */
export interface UnresolvedOperation {
  readonly op: History['operations'][number];
  readonly last: string;
  readonly lastAt: number | undefined;
  readonly copies: number;
}

/** The unsettled Operations, for the report. */
export function unresolvedOperations(history: History): UnresolvedOperation[] {
  const completions = new Map<number, History['completions'][number][]>();
  for (const c of history.completions) completions.set(c.op, [...(completions.get(c.op) ?? []), c]);
  return history.operations.filter((op) => outcomeOf((completions.get(op.id) ?? []).map((c) => c.answer)) === 'unknown').map((op) => {
    const mine = completions.get(op.id) ?? [];
    const last = mine.at(-1);
    const answer = last?.answer;
    const said = answer === undefined ? 'none' : answer.type === 'error' ? answer.code : answer.type === 'lost' ? `lost: ${answer.reason}` : answer.type;
    return { op, last: said, lastAt: last?.at, copies: mine.length };
  });
}
