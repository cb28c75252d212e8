/**
 * The §11.5 rebase of a kept Command whose Session ended before the Authority applied it.
 *
 * A Command kept in the outbox (outboxCommands.ts) carries the Session Epoch it was signed under.
 * When a process is killed between keeping and the answer, or signs while no Session is open
 * (`COMMAND_QUEUED`), the next Session fences it: sent unchanged it is answered with its original
 * receipt if the Authority had applied it (nothing more to do), or refused AUTH_STALE_SESSION if
 * it never reached it. Only then is it rebased, as §11.5 says of buffered Commands: everything it
 * carried is kept — Action ID, correlation ID, payload, Evidence, any offline binding — and it is
 * re-signed with an `issuedAt`, Session Epoch and Membership Epoch of the current authenticated
 * session. The Commands the outbox keeps (`work.checkpoint`, `work.submit`, `work.fail`,
 * `work.block`) each cite the current Execution Lease (§11.3), and the new Session revoked the old
 * one, so the rebase first takes a new lease on the same Ownership Epoch (`work.start`) and points
 * the payload's `executionLeaseId` at it, as offlineBuffer.ts does for a buffered checkpoint. The
 * rebased Command releases (or ends with) that lease at once.
 *
 * Applied at most once (§15.1): the Authority keeps receipts of accepted Commands only, and a
 * fenced Session can never be accepted again, so the refused bytes will never apply; the rebased
 * bytes replace them in the outbox (`ProjectionOutbox.rebase`) before they are sent, so a lost
 * answer to them is recovered by sending them again unchanged (their receipt), and a rebase of
 * them after yet another Session differs in content only if they were not applied. Reusing the
 * Action ID, not a new one, is what keeps a retried rebase from applying twice.
 *
 * A rebase that cannot be made — the WorkItem is not this Agent's under that epoch any more, or
 * not waiting to be started — leaves the Command refused (AUTH_STALE_SESSION): the runtime's
 * re-check with the Authority (hostRecovery.ts) decides what becomes of the work.
 */

import type { MissionWeaveAgent } from '../agent.js';
import type { ProtocolEvent } from '../documents.js';
import { AgentClientError } from '../errors.js';
import { signWith } from '../signer.js';
import type { WorkLeaseGranted } from '../workDocuments.js';
import { OUTBOX_KINDS, type OutboxCommand } from './projectionOutbox.js';

/** The new Execution Lease a rebased Command cites: it releases it at once, so a short one is enough. */
export const REBASE_LEASE_SECONDS = 120;

/** Re-signs a fenced kept Command under the current Session; resolves with its new text. */
export type OutboxRebase = (command: OutboxCommand) => Promise<string>;

export interface RebaseContext {
  readonly agent: Pick<MissionWeaveAgent, 'sessionEpoch' | 'signer' | 'command'>;
  /** The Agent's Membership Epoch in a Group now (the Worker's epochs); the kept one otherwise. */
  readonly membershipEpoch: (groupId: string) => number | undefined;
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
    const started: ProtocolEvent = await ctx.agent.command(
      'work.start',
      { workItemId, ownershipEpoch, executionLeaseSeconds: REBASE_LEASE_SECONDS },
      { groupId, workItemId, membershipEpoch },
    );
    const lease = (started.payload as WorkLeaseGranted).executionLease;
    if (lease.sessionEpoch !== sessionEpoch) throw new AgentClientError('CONNECTION_CLOSED', `the Session changed during the rebase (${sessionEpoch} → ${lease.sessionEpoch})`, { groupId, relatedActionId: command.actionId });
    const rebased: Document = { ...original, issuedAt: new Date().toISOString(), sessionEpoch, membershipEpoch, payload: { ...payload, executionLeaseId: lease.leaseId } };
    return JSON.stringify((await signWith('command', rebased, ctx.agent.signer)).document);
  };
}
