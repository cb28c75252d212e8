/**
 * The rebase of a kept Command whose Session ended, or whose Membership Epoch moved on, before the
 * Authority applied it.
 *
 * A Command kept in the outbox (outboxCommands.ts) carries the Session Epoch it was signed under.
 * When a process is killed between keeping and the answer, or signs while no Session is open
 * (`COMMAND_QUEUED`), the next Session fences it: sent unchanged it is answered with its original
 * receipt if the Authority had applied it (nothing more to do), or refused AUTH_STALE_SESSION if
 * it never reached it. Only then is it rebased. §19 says what a stale fencing error requires: "the
 * current authoritative epoch and a new Command with a new Action ID and signature"; MEMBERSHIP_STALE
 * ("Membership Epoch is fenced", §8: the Membership changed, a new role or scope) is one as much
 * as AUTH_STALE_SESSION, and the in-memory OfflineBuffer rebases on both. So the
 * rebased Command gets a new Action ID; everything else it carried is kept — correlation ID,
 * payload, Evidence, any offline binding (§11.5) — and it is re-signed with an `issuedAt`, Session
 * Epoch and Membership Epoch of the current authenticated session. The Commands the outbox keeps
 * (`work.checkpoint`, `work.submit`, `work.fail`, `work.block`) each cite the current Execution
 * Lease (§11.3), and the new Session revoked the old one, so the rebase first takes a new lease on
 * the same Ownership Epoch (`work.start`) and points the payload's `executionLeaseId` at it, as
 * offlineBuffer.ts does for a buffered checkpoint. The rebased Command releases (or ends with)
 * that lease at once. Refused MEMBERSHIP_STALE under the live Session, the Command keeps its lease
 * (a lease is bound to the Session, not the Membership Epoch, and a Membership change closes
 * none) and is re-signed with the Membership Epoch the Authority holds now (`/v1/me`: the cached
 * one may be the fenced one); none there (the Membership ended), or the same one (the refusal was
 * about another Membership), and it stays refused.
 *
 * Applied at most once (§15.1) with the new Action ID, because:
 * (a) the kept bytes are always sent unchanged first, so a Command the Authority had applied is
 *     answered with its original receipt and is never rebased;
 * (b) a Command refused AUTH_STALE_SESSION or MEMBERSHIP_STALE was fenced: its Session or
 *     Membership Epoch can never be current again (both only grow), so the old bytes, and the old
 *     Action ID, can never be applied later;
 * (c) the rebased bytes, with their new Action ID, replace the old row in the outbox in one
 *     statement (`ProjectionOutbox.rebase`) before they are sent, so a crash leaves exactly one of
 *     the two pending, and a lost answer to the rebased bytes is recovered by sending them again
 *     unchanged (their receipt). A rebase of them after yet another Session or Membership change
 *     happens only if they were refused as stale, that is, never applied.
 * The outbox row keeps the Action ID the Command was first kept under (`rebasedFrom`), which the
 * log and MCP's `work_held` notices name next to the new one.
 *
 * Right after a Session replacement the WorkItem may still be `active` under the old Session's
 * lease until the Authority's reactor closes it (`session_replaced`) and puts it back to `queued`;
 * `work.start` refused for that state is asked again every RECHECK_POLL_MS, for at most
 * RECHECK_WAIT_MS. `active` may also be under this Agent's own lease in the live Session: an
 * earlier rebase of the same Command took it and then failed (`beforeResign` threw: an upload
 * or a publish was cut short) before the Command was re-signed. So each such refusal asks the
 * Authority which lease holds the WorkItem (`currentExecutionLease`); one of this Agent's, in
 * this Session, on the same Ownership Epoch and not expired is the lease the Command cites,
 * without another `work.start` (one would be refused the same way until it expired).
 *
 * A rebase that cannot be made — the WorkItem is not this Agent's under that epoch any more, or
 * not waiting to be started — leaves the Command refused (with its stale code): the runtime's
 * re-check with the Authority (hostRecovery.ts) decides what becomes of the work.
 */

import type { MissionWeaveAgent } from '../agent.js';
import { randomUUID } from 'node:crypto';
import { AgentClientError, MissionWeaveError } from '../errors.js';
import { signWith } from '../signer.js';
import type { WorkLease, WorkLeaseGranted } from '../workDocuments.js';
import { RECHECK_POLL_MS, RECHECK_WAIT_MS } from './hostLimits.js';
import { OUTBOX_KINDS, type OutboxCommand } from './projectionOutbox.js';

/** The new Execution Lease a rebased Command cites: it releases it at once, so a short one is enough. */
export const REBASE_LEASE_SECONDS = 120;

/** The refusals that say a kept Command's epoch is fenced: never applied, so rebased under a new Action ID (§19). */
export const STALE_REFUSALS: ReadonlySet<string> = new Set(['AUTH_STALE_SESSION', 'MEMBERSHIP_STALE']);

/** Re-signs a kept Command `refusal` (one of STALE_REFUSALS) fenced, under the current epochs and a new Action ID; resolves with its new text. */
export type OutboxRebase = (command: OutboxCommand, refusal: MissionWeaveError) => Promise<string>;

export interface RebaseContext {
  readonly agent: Pick<MissionWeaveAgent, 'agentId' | 'sessionEpoch' | 'signer' | 'command'>;
  /** The Agent's Membership Epoch in a Group now (the Worker's epochs); the kept one otherwise. */
  readonly membershipEpoch: (groupId: string) => number | undefined;
  /** The Agent's Membership Epoch in a Group as the Authority holds it now (`/v1/me`); undefined without an active Membership. */
  readonly currentMembershipEpoch: (groupId: string) => Promise<number | undefined>;
  /** The Execution Lease the Authority holds a WorkItem under now (its view, `/v1/groups/{g}/view`); undefined when none. */
  readonly currentExecutionLease: (groupId: string, workItemId: string) => Promise<WorkLease | undefined>;
  /**
   * Runs before the Command is re-signed, with the lease it will cite (a new one, or the same one
   * when a MEMBERSHIP_STALE refusal is rebased in the same Session): a kept
   * `work.submit`'s Artifacts are uploaded and published under that lease (mcp/keptArtifacts.ts),
   * since a submission cites only published ones. A throw fails the rebase as a refused
   * `work.start` would; a rebase of the Command again in the same Session cites the lease taken
   * (`currentExecutionLease`).
   */
  readonly beforeResign?: (command: OutboxCommand, lease: RebaseLease) => Promise<void>;
}

/** What a rebased Command cites: the WorkItem, its epochs and the new Execution Lease. */
export interface RebaseLease {
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly membershipEpoch: number;
  readonly executionLeaseId: string;
}

type Document = Record<string, unknown>;

/** The rebase of the outbox's kinds under the live Session of `ctx.agent`. */
export function sessionRebase(ctx: RebaseContext): OutboxRebase {
  return async (command, refusal) => {
    const original = JSON.parse(command.bytes.toString('utf8')) as Document;
    const payload = original['payload'] as Document;
    const { groupId, kind } = command;
    const workItemId = payload['workItemId'];
    const ownershipEpoch = payload['ownershipEpoch'];
    if (!OUTBOX_KINDS.has(kind) || typeof workItemId !== 'string' || typeof ownershipEpoch !== 'number') {
      throw new AgentClientError('INVALID_ARGUMENT', `a kept ${kind} is not rebased: only the Commands that end a run under an Execution Lease are`, { groupId, relatedActionId: command.actionId });
    }
    const sessionEpoch = ctx.agent.sessionEpoch;
    if (sessionEpoch === undefined) throw new AgentClientError('CONNECTION_CLOSED', 'no open Session to rebase onto', { groupId, relatedActionId: command.actionId });
    if (!STALE_REFUSALS.has(refusal.code)) throw refusal;
    let membershipEpoch = ctx.membershipEpoch(groupId) ?? (original['membershipEpoch'] as number);
    let leaseId: unknown = payload['executionLeaseId'];
    if (refusal.code === 'MEMBERSHIP_STALE') {
      const current = await ctx.currentMembershipEpoch(groupId);
      // No active Membership, or not this epoch that was fenced: nothing to rebase onto.
      if (current === undefined || current === original['membershipEpoch']) throw refusal;
      membershipEpoch = current;
    }
    if (refusal.code !== 'MEMBERSHIP_STALE' || original['sessionEpoch'] !== sessionEpoch) {
      const lease = await startAfterReplacement(ctx, { groupId, workItemId, ownershipEpoch, membershipEpoch });
      if (lease.sessionEpoch !== sessionEpoch) throw new AgentClientError('CONNECTION_CLOSED', `the Session changed during the rebase (${sessionEpoch} → ${lease.sessionEpoch})`, { groupId, relatedActionId: command.actionId });
      leaseId = lease.leaseId;
    }
    if (typeof leaseId === 'string') await ctx.beforeResign?.(command, { groupId, workItemId, ownershipEpoch, membershipEpoch, executionLeaseId: leaseId });
    const rebased: Document = { ...original, actionId: `urn:uuid:${randomUUID()}`, issuedAt: new Date().toISOString(), sessionEpoch, membershipEpoch, payload: { ...payload, ...(leaseId === undefined ? {} : { executionLeaseId: leaseId }) } };
    return JSON.stringify((await signWith('command', rebased, ctx.agent.signer)).document);
  };
}

interface StartOf {
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly membershipEpoch: number;
}

/**
 * `work.start` of a new lease, asked again while the old Session's lease still holds the WorkItem
 * `active`; the lease that holds it, when that is this Agent's own in the live Session (an earlier
 * rebase of the Command took it).
 */
async function startAfterReplacement(ctx: RebaseContext, start: StartOf): Promise<WorkLease> {
  const { groupId, workItemId, ownershipEpoch, membershipEpoch } = start;
  const until = Date.now() + RECHECK_WAIT_MS;
  for (;;) {
    try {
      const started = await ctx.agent.command('work.start', { workItemId, ownershipEpoch, executionLeaseSeconds: REBASE_LEASE_SECONDS }, { groupId, workItemId, membershipEpoch });
      return (started.payload as WorkLeaseGranted).executionLease;
    } catch (error) {
      const active = error instanceof MissionWeaveError && error.code === 'INVALID_STATE_TRANSITION' && error.details?.['state'] === 'active';
      if (!active) throw error;
      const own = ownLease(ctx, start, await ctx.currentExecutionLease(groupId, workItemId));
      if (own !== undefined) return own;
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, RECHECK_POLL_MS));
    }
  }
}

/** `lease` when it is an active, unexpired Execution Lease of this Agent on the WorkItem and Ownership Epoch, in the live Session. */
function ownLease(ctx: RebaseContext, { groupId, workItemId, ownershipEpoch }: StartOf, lease: WorkLease | undefined): WorkLease | undefined {
  if (lease === undefined || lease.leaseType !== 'execution' || lease.state !== 'active') return undefined;
  if (lease.holderAgentId !== ctx.agent.agentId || lease.sessionEpoch !== ctx.agent.sessionEpoch) return undefined;
  if (lease.groupId !== groupId || lease.workItemId !== workItemId || lease.ownershipEpoch !== ownershipEpoch) return undefined;
  return Date.parse(lease.expiresAt) > Date.now() ? lease : undefined;
}
