/**
 * The fault suite's WorkItem invariants, proved from the committed Event logs alone (§10.3,
 * §11.3, §11.5). Each Group's log is folded WorkItem by WorkItem, in sequence order, and every
 * Event that lets an owner act is judged against the log as it stood just before it:
 *
 * - no WorkItem completed by a fenced owner (`completed-by-fenced-owner`): every `work.submitted`
 *   (every Event that takes a WorkItem into `submitted`) carries the Ownership Epoch of the latest
 *   `work.offer.accepted`, comes from that acceptance's assignee, cites the Execution Lease the
 *   latest `work.started` of that epoch began (same Session Epoch) and no Event has closed since,
 *   and both that lease and the ownership lease were live at the Event's `occurredAt` (the
 *   Authority's clock: §11.3 expiry is judged by it alone, so a lease the reactor had not yet
 *   closed still counts as expired). A `verified` WorkItem must have got there from such a
 *   submission under the same, still current, epoch (§11.5: "a late result from the old owner …
 *   MUST NOT complete the WorkItem"). Renewals (`work.progressed`) and starts are judged the same
 *   way (`renewed-by-fenced-owner`, `started-by-fenced-owner`): a renewal that revived a lapsed
 *   lease would otherwise let a paused Worker's later submission look current; so is every
 *   `artifact.published` (`published-by-fenced-owner`): only the current owner's result may
 *   become a submittable Artifact (§13.1);
 * - no offer won twice (`offer-won-twice`): each `work.offer.accepted` follows a
 *   `work.offer.created` not yet won, by one of its candidates before it expired, and begins an
 *   Ownership Epoch strictly above every earlier one of its WorkItem; no Event lowers the epoch
 *   (a child Mission's promotion may raise it without an offer, §14: a new epoch all the same).
 *
 * Progress reconciled from a bounded offline buffer (§11.5) cites a historical lease by design and
 * is judged by that section's window rules, not here: a `work.progressed` whose Command carries
 * the offline binding is left alone (the suite runs no offline Worker).
 *
 * The lease facts come from the Events' own payloads (`work.started`, `work.progressed`, the
 * released and revoked leases) and, for closures by kinds this checker does not know (the
 * Authority's lease expiry, a Session replacement), from the WorkItem document every WorkItem
 * Event carries: a lease the document no longer holds as active is closed for good.
 */

import type { Lease, WorkItem } from '#src/domain/documents.js';
import { leasesOf } from '#src/domain/workItem/workLeases.js';
import { workRecordOf } from '#src/domain/workItem/workRecord.js';
import { compareInstants, parseTimestamp } from '#src/protocol/timestamp.js';
import type { Violation } from './checker.js';
import { DEFINITE_REFUSALS, outcomeOf, type GroupLog, type History } from './history.js';

interface WorkEvent {
  readonly sequence: number;
  readonly kind: string;
  readonly actorId: string;
  readonly occurredAt: string;
  readonly payload: Record<string, unknown>;
  /** The Command that caused it, from the receipts, when the log has it. */
  readonly command: { readonly sessionEpoch?: number; readonly payload?: Record<string, unknown>; readonly extensions?: Record<string, unknown> } | undefined;
}

const OFFLINE_BINDING = 'urn:missionweaveprotocol:extension:bounded-offline-execution';

interface StartedLease {
  readonly ownershipEpoch: number;
  readonly sessionEpoch: number;
  expiresAt: string;
  closed: boolean;
}

/** What the log says of one WorkItem up to the Event being judged. */
interface Tracked {
  document: WorkItem | undefined;
  /** The highest Ownership Epoch accepted so far (0: never owned) and its assignee. */
  epoch: number;
  owner: string | undefined;
  /** The offer made since the last acceptance, if any. */
  offer: { readonly candidates: readonly string[]; readonly expiresAt: string } | undefined;
  readonly executionLeases: Map<string, StartedLease>;
  /** The epoch of the latest submission judged current, until ownership changes. */
  validSubmission: number | undefined;
}

export interface WorkChecks {
  readonly fencing: Violation[];
  readonly offers: Violation[];
  /** How many Events each invariant judged (a check that judged nothing proves nothing). */
  readonly judged: { submissions: number; verifications: number; renewals: number; starts: number; acceptances: number; publications: number };
}

/** True when `a` lies strictly before `b`; false when either is unreadable. */
function before(a: string | undefined, b: string | undefined): boolean {
  const left = a === undefined ? null : parseTimestamp(a);
  const right = b === undefined ? null : parseTimestamp(b);
  return left !== null && right !== null && compareInstants(left, right) < 0;
}

function liveAt(lease: Lease | undefined, at: string): boolean {
  return lease !== undefined && lease.state === 'active' && before(at, lease.expiresAt);
}

function workEventOf(text: string, commands: ReadonlyMap<string, string>): WorkEvent {
  const event = JSON.parse(text) as { sequence: number; kind: string; actor?: { id?: string }; cause?: { id?: string }; occurredAt?: string; payload?: Record<string, unknown> };
  const commandText = event.cause?.id === undefined ? undefined : commands.get(event.cause.id);
  return {
    sequence: event.sequence,
    kind: event.kind,
    actorId: event.actor?.id ?? '',
    occurredAt: event.occurredAt ?? '',
    payload: event.payload ?? {},
    command: commandText === undefined ? undefined : (JSON.parse(commandText) as WorkEvent['command']),
  };
}

interface Act {
  readonly epoch: unknown;
  readonly leaseId?: unknown;
}

/** Why `act` was not the current owner's, at `event`, under the log so far (empty: it was). */
function fencingProblems(t: Tracked, event: WorkEvent, act: Act): string[] {
  const problems: string[] = [];
  if (act.epoch !== t.epoch) problems.push(`Ownership Epoch ${String(act.epoch)}, current ${t.epoch}`);
  if (event.actorId !== t.owner) problems.push(`sent by ${event.actorId}, owner ${t.owner ?? 'none'}`);
  const leases = t.document === undefined ? {} : leasesOf(workRecordOf(t.document));
  if (!liveAt(leases.ownership, event.occurredAt)) {
    problems.push(`ownership lease ${leases.ownership === undefined ? 'absent' : `${leases.ownership.state}, expiring ${leases.ownership.expiresAt}`} at ${event.occurredAt}`);
  }
  if (act.leaseId === undefined) return problems;
  const started = typeof act.leaseId === 'string' ? t.executionLeases.get(act.leaseId) : undefined;
  if (started === undefined) problems.push(`Execution Lease ${String(act.leaseId)} was never started`);
  else {
    if (started.closed) problems.push(`Execution Lease ${String(act.leaseId)} was already closed`);
    if (started.ownershipEpoch !== act.epoch) problems.push(`Execution Lease of Ownership Epoch ${started.ownershipEpoch}`);
    if (!before(event.occurredAt, started.expiresAt)) problems.push(`Execution Lease expired at ${started.expiresAt}, acted at ${event.occurredAt}`);
    const session = event.command?.sessionEpoch;
    if (session !== undefined && session !== started.sessionEpoch) problems.push(`Session Epoch ${session}, lease's ${started.sessionEpoch}`);
  }
  if (leases.execution?.leaseId !== act.leaseId || !liveAt(leases.execution, event.occurredAt)) problems.push('not the live Execution Lease of the WorkItem');
  return problems;
}

function closeAll(t: Tracked): void {
  for (const lease of t.executionLeases.values()) lease.closed = true;
}

/** One Event of one WorkItem: judged against `t`, then folded into it. */
function judge(t: Tracked, event: WorkEvent, where: string, out: WorkChecks): void {
  const next = event.payload['workItem'] as WorkItem | undefined;
  const p = event.payload;
  const cited = event.command?.payload ?? {};
  const fenced = (rule: string, act: Act) => {
    const problems = fencingProblems(t, event, act);
    if (problems.length > 0) out.fencing.push({ rule, detail: `${where}: ${event.kind} ${problems.join('; ')}` });
    return problems.length === 0;
  };
  const intoSubmitted = event.kind === 'work.submitted' || (next?.state === 'submitted' && t.document?.state !== 'submitted');
  if (event.kind === 'work.offer.created') {
    t.offer = { candidates: (p['candidateAgentIds'] as string[] | undefined) ?? [], expiresAt: String(p['offerExpiresAt']) };
  } else if (event.kind === 'work.offer.accepted') {
    out.judged.acceptances++;
    const epoch = Number(p['ownershipEpoch']);
    const assignee = String(p['assigneeId'] ?? event.actorId);
    const problems: string[] = [];
    if (t.offer === undefined) problems.push('no offer left to win (already won, or never made)');
    else {
      if (!t.offer.candidates.includes(assignee)) problems.push(`${assignee} was not a candidate`);
      if (!before(event.occurredAt, t.offer.expiresAt)) problems.push(`the offer expired at ${t.offer.expiresAt}`);
    }
    if (!(epoch > t.epoch)) problems.push(`Ownership Epoch ${epoch} after ${t.epoch}`);
    if (problems.length > 0) out.offers.push({ rule: 'offer-won-twice', detail: `${where}: ${problems.join('; ')}` });
    closeAll(t);
    t.epoch = Math.max(t.epoch, epoch);
    t.owner = assignee;
    t.offer = undefined;
    t.validSubmission = undefined;
  } else if (event.kind === 'work.started') {
    out.judged.starts++;
    fenced('started-by-fenced-owner', { epoch: p['ownershipEpoch'] });
    const lease = p['executionLease'] as Lease | undefined;
    if (lease !== undefined) {
      closeAll(t);
      t.executionLeases.set(lease.leaseId, { ownershipEpoch: Number(p['ownershipEpoch']), sessionEpoch: lease.sessionEpoch, expiresAt: String(p['executionLeaseExpiresAt'] ?? lease.expiresAt), closed: false });
    }
  } else if (event.kind === 'work.progressed' && event.command?.extensions?.[OFFLINE_BINDING] !== undefined) {
    // Reconciled offline progress: §11.5's window rules, not currency (see above).
  } else if (event.kind === 'work.progressed') {
    out.judged.renewals++;
    const lease = p['executionLease'] as Lease | undefined;
    fenced('renewed-by-fenced-owner', { epoch: p['ownershipEpoch'], leaseId: cited['executionLeaseId'] ?? lease?.leaseId });
    const started = lease === undefined ? undefined : t.executionLeases.get(lease.leaseId);
    if (started !== undefined) started.expiresAt = String(p['executionLeaseExpiresAt'] ?? lease?.expiresAt);
  } else if (event.kind === 'artifact.published') {
    out.judged.publications++;
    fenced('published-by-fenced-owner', { epoch: p['ownershipEpoch'], leaseId: p['executionLeaseId'] });
  } else if (intoSubmitted) {
    out.judged.submissions++;
    const released = p['releasedExecutionLease'] as Lease | undefined;
    const epoch = p['ownershipEpoch'] ?? cited['ownershipEpoch'];
    if (fenced('completed-by-fenced-owner', { epoch, leaseId: cited['executionLeaseId'] ?? released?.leaseId ?? null })) t.validSubmission = Number(epoch);
    closeAll(t);
  } else if (next?.state === 'verified' && t.document?.state === 'submitted') {
    out.judged.verifications++;
    const ownerEpoch = next.owner?.ownershipEpoch;
    if (t.validSubmission === undefined || t.validSubmission !== t.epoch || ownerEpoch !== t.epoch) {
      out.fencing.push({ rule: 'completed-by-fenced-owner', detail: `${where}: verified with no current submission (submitted under ${String(t.validSubmission)}, current epoch ${t.epoch}, owner's ${String(ownerEpoch)})` });
    }
  }
  if (next === undefined) return;
  // Leases closed by any Event, known kind or not: the document no longer holds them as active.
  const { execution } = leasesOf(workRecordOf(next));
  for (const [leaseId, lease] of t.executionLeases) if (execution?.leaseId !== leaseId || execution.state !== 'active') lease.closed = true;
  const ownerEpoch = next.owner?.ownershipEpoch;
  if (ownerEpoch !== undefined && ownerEpoch < t.epoch) {
    out.offers.push({ rule: 'offer-won-twice', detail: `${where}: ${event.kind} left the WorkItem under Ownership Epoch ${ownerEpoch}, after ${t.epoch}` });
  } else if (ownerEpoch !== undefined && ownerEpoch > t.epoch) {
    // A new epoch without an offer: a child Mission's promotion hands the WorkItem to the Parent
    // Coordinator (§14). It is a new owner all the same; any later acceptance must exceed it.
    closeAll(t);
    t.epoch = ownerEpoch;
    t.offer = undefined;
    t.validSubmission = undefined;
  }
  if (next.owner === undefined) t.owner = undefined;
  else if (ownerEpoch === t.epoch) t.owner = next.owner.agentId;
  t.document = next;
}

/** Both WorkItem invariants over every Group's log. */
export function checkWork(logs: readonly GroupLog[]): WorkChecks {
  const out: WorkChecks = { fencing: [], offers: [], judged: { submissions: 0, verifications: 0, renewals: 0, starts: 0, acceptances: 0, publications: 0 } };
  for (const log of logs) {
    const items = new Map<string, Tracked>();
    for (const { text } of log.events) {
      const event = workEventOf(text, log.commands);
      const workItemId = event.payload['workItemId'];
      if (typeof workItemId !== 'string' || !(event.kind.startsWith('work.') || event.kind === 'artifact.published' || 'workItem' in event.payload)) continue;
      let t = items.get(workItemId);
      if (t === undefined) {
        t = { document: undefined, epoch: 0, owner: undefined, offer: undefined, executionLeases: new Map(), validSubmission: undefined };
        items.set(workItemId, t);
      }
      judge(t, event, `${log.groupId}@${event.sequence} ${workItemId}`, out);
    }
  }
  return out;
}

/** No WorkItem submitted, renewed, started, verified or given a published Artifact by a fenced owner. */
export function checkFencedCompletions(logs: readonly GroupLog[]): Violation[] {
  return checkWork(logs).fencing;
}

/** One acceptance per offer, Ownership Epochs strictly increasing. */
export function checkOfferWins(logs: readonly GroupLog[]): Violation[] {
  return checkWork(logs).offers;
}

export interface LateCommands {
  readonly violations: Violation[];
  /** A resumed Worker's late renewals and submissions: sent, refused, and kept (not completing). */
  readonly sent: number;
  readonly refused: number;
  readonly kept: number;
  /** The refusals by error code (which check stopped them). */
  readonly refusedWith: Record<string, number>;
}

/**
 * The `fenced-owner` probes (a resumed Worker's Commands under the lease it held before its
 * pause): refused, or kept without completing anything; none of their Events may take a WorkItem
 * into `submitted` or `verified`.
 */
export function checkLateCommands(history: History, logs: readonly GroupLog[]): LateCommands {
  const late = history.operations.filter((op) => op.probe === 'fenced-owner');
  const wanted = new Set(late.map((op) => op.actionId));
  const completing = new Set<string>();
  for (const log of logs) {
    for (const { text } of log.events) {
      const event = JSON.parse(text) as { cause?: { id?: string }; payload?: { workItem?: { state?: string } } };
      const cause = event.cause?.id;
      const state = event.payload?.workItem?.state;
      if (cause !== undefined && wanted.has(cause) && (state === 'submitted' || state === 'verified')) completing.add(cause);
    }
  }
  const answers = new Map<number, History['completions'][number]['answer'][]>();
  for (const c of history.completions) answers.set(c.op, [...(answers.get(c.op) ?? []), c.answer]);
  const outcomes = late.map((op) => outcomeOf(answers.get(op.id) ?? []));
  const refusedWith: Record<string, number> = {};
  for (const op of late) {
    const answer = (answers.get(op.id) ?? []).find((a) => a.type === 'error' && DEFINITE_REFUSALS.has(a.code));
    if (answer?.type === 'error') refusedWith[answer.code] = (refusedWith[answer.code] ?? 0) + 1;
  }
  return {
    violations: late.filter((op) => completing.has(op.actionId)).map((op) => ({ rule: 'completed-by-fenced-owner', detail: `${op.actorId}'s late ${op.kind} ${op.actionId} completed its WorkItem` })),
    sent: late.length,
    refused: outcomes.filter((o) => o === 'refused').length,
    kept: outcomes.filter((o) => o === 'applied').length,
    refusedWith,
  };
}
