/**
 * The rebase of a kept Command whose Session ended before the Authority applied it.
 *
 * A Command kept in the outbox (outboxCommands.ts) carries the Session Epoch it was signed under.
 * When a process is killed between keeping and the answer, or signs while no Session is open
 * (`COMMAND_QUEUED`), the next Session fences it: sent unchanged it is answered with its original
 * receipt if the Authority had applied it (nothing more to do), or refused AUTH_STALE_SESSION if
 * it never reached it. Only then is it rebased. §19 says what a stale fencing error requires: "the
 * current authoritative epoch and a new Command with a new Action ID and signature". So the
 * rebased Command gets a new Action ID; everything else it carried is kept — correlation ID,
 * payload, Evidence, any offline binding (§11.5) — and it is re-signed with an `issuedAt`, Session
 * Epoch and Membership Epoch of the current authenticated session. The Commands the outbox keeps
 * (`work.checkpoint`, `work.submit`, `work.fail`, `work.block`) each cite the current Execution
 * Lease (§11.3), and the new Session revoked the old one, so the rebase first takes a new lease on
 * the same Ownership Epoch (`work.start`) and points the payload's `executionLeaseId` at it, as
 * offlineBuffer.ts does for a buffered checkpoint. The rebased Command releases (or ends with)
 * that lease at once.
 *
 * Applied at most once (§15.1) with the new Action ID, because:
 * (a) the kept bytes are always sent unchanged first, so a Command the Authority had applied is
 *     answered with its original receipt and is never rebased;
 * (b) a Command refused AUTH_STALE_SESSION was fenced: its Session can never be accepted again,
 *     so the old bytes, and the old Action ID, can never be applied later;
 * (c) the rebased bytes, with their new Action ID, replace the old row in the outbox in one
 *     statement (`ProjectionOutbox.rebase`) before they are sent, so a crash leaves exactly one of
 *     the two pending, and a lost answer to the rebased bytes is recovered by sending them again
 *     unchanged (their receipt). A rebase of them after yet another Session happens only if they
 *     were refused AUTH_STALE_SESSION, that is, never applied.
 * The outbox row keeps the Action ID the Command was first kept under (`rebasedFrom`), which the
 * log and MCP's `work_held` notices name next to the new one.
 *
 * Right after a Session replacement the WorkItem may still be `active` under the old Session's
 * lease until the Authority's reactor closes it (`session_replaced`) and puts it back to `queued`;
 * `work.start` refused for that state is asked again every RECHECK_POLL_MS, for at most
 * RECHECK_WAIT_MS.
 *
 * A rebase that cannot be made — the WorkItem is not this Agent's under that epoch any more, or
 * not waiting to be started — leaves the Command refused (AUTH_STALE_SESSION): the runtime's
 * re-check with the Authority (hostRecovery.ts) decides what becomes of the work.
 */

import type { MissionWeaveAgent } from '../agent.js';
import type { ProtocolEvent } from '../documents.js';
import { randomUUID } from 'node:crypto';
import { AgentClientError, MissionWeaveError } from '../errors.js';
import { signWith } from '../signer.js';
import type { WorkLeaseGranted } from '../workDocuments.js';
import { RECHECK_POLL_MS, RECHECK_WAIT_MS } from './hostLimits.js';
import { OUTBOX_KINDS, type OutboxCommand } from './projectionOutbox.js';

/** The new Execution Lease a rebased Command cites: it releases it at once, so a short one is enough. */
export const REBASE_LEASE_SECONDS = 120;

/** Re-signs a fenced kept Command under the current Session and a new Action ID; resolves with its new text. */
export type OutboxRebase = (command: OutboxCommand) => Promise<string>;

export interface RebaseContext {
  readonly agent: Pick<MissionWeaveAgent, 'sessionEpoch' | 'signer' | 'command'>;
  /** The Agent's Membership Epoch in a Group now (the Worker's epochs); the kept one otherwise. */
  readonly membershipEpoch: (groupId: string) => number | undefined;
  /**
   * Runs once the new lease is granted, before the Command is re-signed to cite it: a kept
   * `work.submit`'s Artifacts are uploaded and published under that lease (mcp/keptArtifacts.ts),
   * since a submission cites only published ones. A throw fails the rebase as a refused
   * `work.start` would.
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
  return async (command) => {
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
    const membershipEpoch = ctx.membershipEpoch(groupId) ?? (original['membershipEpoch'] as number);
    const started = await startAfterReplacement(ctx, { groupId, workItemId, ownershipEpoch, membershipEpoch });
    const lease = (started.payload as WorkLeaseGranted).executionLease;
    if (lease.sessionEpoch !== sessionEpoch) throw new AgentClientError('CONNECTION_CLOSED', `the Session changed during the rebase (${sessionEpoch} → ${lease.sessionEpoch})`, { groupId, relatedActionId: command.actionId });
    await ctx.beforeResign?.(command, { groupId, workItemId, ownershipEpoch, membershipEpoch, executionLeaseId: lease.leaseId });
    const rebased: Document = { ...original, actionId: `urn:uuid:${randomUUID()}`, issuedAt: new Date().toISOString(), sessionEpoch, membershipEpoch, payload: { ...payload, executionLeaseId: lease.leaseId } };
    return JSON.stringify((await signWith('command', rebased, ctx.agent.signer)).document);
  };
}

interface StartOf {
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly membershipEpoch: number;
}

/** `work.start` of a new lease, asked again while the old Session's lease still holds the WorkItem `active`. */
async function startAfterReplacement(ctx: RebaseContext, { groupId, workItemId, ownershipEpoch, membershipEpoch }: StartOf): Promise<ProtocolEvent> {
  const until = Date.now() + RECHECK_WAIT_MS;
  for (;;) {
    try {
      return await ctx.agent.command('work.start', { workItemId, ownershipEpoch, executionLeaseSeconds: REBASE_LEASE_SECONDS }, { groupId, workItemId, membershipEpoch });
    } catch (error) {
      const active = error instanceof MissionWeaveError && error.code === 'INVALID_STATE_TRANSITION' && error.details?.['state'] === 'active';
      if (!active || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, RECHECK_POLL_MS));
    }
  }
}
