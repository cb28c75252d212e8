/**
 * The runtime host's side of a restart (§11.5), against the Authority:
 *
 * - `recheckWork`: a WorkItem the runtime would resume (a safe checkpoint) or start (queued) is
 *   read back from the Authority first (`/v1/groups/{g}/view`). If another Agent owns it, its
 *   Ownership Epoch moved, or it ended, it is withdrawn. If it is still `active` under the old
 *   Session's Execution Lease, the host waits (bounded) for the Authority to close that lease
 *   (the next reactor round puts it back to `queued`, `work_lease_close` `session_replaced`), so
 *   the new `work.start` gets a new lease; a lost lease is re-checked the same way.
 * - `reportLost`: a WorkItem that ran without a durable checkpoint (`runtime-session-lost`) is
 *   reported to its Coordinator with `work.block` (§11.4: the blocker and the resolution it
 *   needs), under a fresh Execution Lease taken for that purpose only, since `work.block` cites
 *   one. The WorkItem stays owned and blocked; the Coordinator's `work.unblock` makes it ready
 *   again here (it restarts from scratch: there is no checkpoint).
 */

import type { MissionWeaveAgent } from '../agent.js';
import type { MissionWeaveWorker } from '../worker.js';
import type { WorkItemDocument } from '../workDocuments.js';
import { BLOCKED_LEASE_SECONDS, RECHECK_POLL_MS, RECHECK_WAIT_MS } from './hostLimits.js';
import { authorityWorkItem, type AuthorityWorkItem } from './hostReads.js';
import { RUNTIME_SESSION_LOST } from './projectionWork.js';
import type { AgentRuntime } from './runtime.js';

export interface RecoveryContext {
  readonly agent: MissionWeaveAgent;
  readonly runtime: AgentRuntime;
  readonly worker: MissionWeaveWorker;
  /** WorkItem documents learnt here, for the jobs' contracts. */
  readonly documents: Map<string, WorkItemDocument>;
  readonly log: (line: string) => void;
  readonly pump: () => void;
  /** Told of each WorkItem withdrawn because it is no longer this Agent's, and why (`missionweave mcp` tells its model). */
  readonly withdrawn?: (row: HeldRow, why: string) => void;
  /** Told of each lost WorkItem reported to its Coordinator with `work.block`. */
  readonly reported?: (row: HeldRow, reason: string) => void;
}

export interface HeldRow {
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
}

/** The WorkItem states a run never comes back from. */
export const ENDED_WORK: ReadonlySet<string> = new Set(['submitted', 'verified', 'failed', 'cancelled']);

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why the Authority's WorkItem is no longer this Agent's under `row`'s epoch, or null. */
function notMine(ctx: RecoveryContext, row: HeldRow, item: AuthorityWorkItem | undefined): string | null {
  if (item === undefined) return 'the Authority has no such WorkItem';
  if (item.owner?.agentId !== ctx.agent.agentId) return 'another Agent owns it';
  if (item.owner.ownershipEpoch !== row.ownershipEpoch) return `its Ownership Epoch moved from ${row.ownershipEpoch} to ${item.owner.ownershipEpoch}`;
  if (ENDED_WORK.has(item.state)) return `it is ${item.state}`;
  return null;
}

/** The WorkItem once it is not `active` any more (its old lease closed), or as it is after RECHECK_WAIT_MS. */
async function settled(ctx: RecoveryContext, row: HeldRow): Promise<AuthorityWorkItem | undefined> {
  const until = Date.now() + RECHECK_WAIT_MS;
  for (;;) {
    const item = await authorityWorkItem(ctx.agent, row.groupId, row.workItemId);
    if (item?.state !== 'active' || notMine(ctx, row, item) !== null || Date.now() > until) return item;
    await new Promise((resolve) => setTimeout(resolve, RECHECK_POLL_MS));
  }
}

/** Re-checks held work with the Authority: withdrawn if it is not this Agent's any more, ready when it is. */
export async function recheckWork(ctx: RecoveryContext, row: HeldRow): Promise<void> {
  let item: AuthorityWorkItem | undefined;
  try {
    item = await settled(ctx, row);
  } catch (error) {
    return ctx.log(`re-check of ${row.workItemId} failed, it is started as held: ${messageOf(error)}`);
  }
  const why = notMine(ctx, row, item);
  if (why !== null) {
    ctx.log(`withdrawn ${row.workItemId}: ${why}`);
    ctx.runtime.withdraw(row.workItemId);
    ctx.withdrawn?.(row, why);
    return;
  }
  ctx.documents.set(row.workItemId, (item as AuthorityWorkItem).document);
  if (ctx.runtime.state.work[row.workItemId]?.status === 'blocked' && item?.state === 'queued') ctx.runtime.unblock(row.workItemId);
}

/** Reports work lost with the old runtime's Session to its Coordinator (`work.block`), or withdraws it. */
export async function reportLost(ctx: RecoveryContext, row: HeldRow): Promise<void> {
  try {
    const item = await settled(ctx, row);
    const why = notMine(ctx, row, item);
    if (why !== null) {
      ctx.log(`withdrawn ${row.workItemId}: ${why}`);
      ctx.runtime.withdraw(row.workItemId);
      ctx.withdrawn?.(row, why);
      return;
    }
    const document = (item as AuthorityWorkItem).document;
    ctx.documents.set(row.workItemId, document);
    if (item?.state !== 'queued') return ctx.log(`lost ${row.workItemId} is ${item?.state ?? 'unknown'} at the Authority; not reported`);
    const reason = `${RUNTIME_SESSION_LOST}: the Worker's runtime restarted while this WorkItem ran without a durable checkpoint; work.unblock to run it again from the start`;
    await reportBlocked(ctx, row, document, RUNTIME_SESSION_LOST, reason);
  } catch (error) {
    ctx.log(`report of lost ${row.workItemId} failed: ${messageOf(error)}`);
  }
}

/**
 * Reports owned `queued` work blocked to its Coordinator: `work.block` with `reason` (its typed
 * reason `phase` first), under a fresh Execution Lease taken for that purpose only, since
 * `work.block` cites one. Rejects when the Authority refuses either.
 */
export async function reportBlocked(ctx: RecoveryContext, row: HeldRow, document: WorkItemDocument, phase: string, reason: string): Promise<void> {
  const execution = await ctx.worker.start({ groupId: row.groupId, workItemId: row.workItemId, ownershipEpoch: row.ownershipEpoch, workItem: document });
  execution.stop();
  const membershipEpoch = ctx.worker.epochs.facts(row.groupId)?.membershipEpoch;
  const checkpoint = { phase, createdAt: new Date().toISOString() };
  const payload = { workItemId: row.workItemId, ownershipEpoch: row.ownershipEpoch, executionLeaseId: execution.leaseId, reason: reason.slice(0, 1000), checkpoint, blockedLeaseSeconds: BLOCKED_LEASE_SECONDS };
  // Through the Worker's Commands: the host's and the MCP server's keep it in the outbox first (outboxCommands.ts).
  await ctx.worker.commands.command('work.block', payload, { groupId: row.groupId, workItemId: row.workItemId, ...(membershipEpoch === undefined ? {} : { membershipEpoch }) });
  ctx.log(`reported ${row.workItemId} to its Coordinator: ${phase}`);
  ctx.reported?.(row, reason);
}
