/**
 * The bounded offline execution binding (§11.5) on a `work.checkpoint` the runtime keeps while
 * the Authority cannot be reached (outboxCommands.ts). "Each buffered Command MUST carry the
 * critical `urn:missionweaveprotocol:extension:bounded-offline-execution` binding": the Agent,
 * Group, WorkItem, original Session Epoch, Ownership Epoch, historical Execution Lease, disconnect
 * time, buffer time, grace deadline, historical lease expiry and the usage delta. The rebase on
 * reconnect (outboxRebase.ts) keeps it unchanged; the Authority judges the checkpoint against it
 * (domain/workItem/reconcileOffline.ts).
 *
 * The historical lease is known from the Agent's own Events (`work.started` and its renewals
 * carry the lease), the disconnection from its connection changes. The grace deadline is
 * OUTBOX_OFFLINE_GRACE_SECONDS after the disconnection and never past the lease's expiry; a
 * checkpoint after it, or of a lease this process never saw, is not kept (CONNECTION_CLOSED).
 * The usage delta is zero: the runtime does not meter a handler's use. `work.submit`,
 * `work.fail` and `work.block` carry no binding: the Authority interprets it on progress and
 * checkpoints only, and they are issued afresh under the current lease by the rebase.
 */

import type { MissionWeaveAgent } from '../agent.js';
import type { GroupEvent } from '../documents.js';
import { AgentClientError } from '../errors.js';
import { MAX_OUTBOX_KNOWN_LEASES, OUTBOX_OFFLINE_GRACE_SECONDS } from '../limits.js';
import type { WorkLease } from '../workDocuments.js';
import { NO_USAGE, OFFLINE_EXECUTION_EXTENSION, OFFLINE_EXECUTION_VERSION } from '../../protocol/offlineExecution.js';
import { formatTimestamp } from '../../protocol/timestamp.js';

export class OfflineBinder {
  private readonly leases = new Map<string, WorkLease>();
  private disconnectedAt: string | undefined;

  constructor(agent: Pick<MissionWeaveAgent, 'onEvent' | 'onConnectionChange'>, private readonly now: () => number = Date.now) {
    agent.onEvent((event) => this.observe(event));
    agent.onConnectionChange((change) => {
      if (change.state === 'open') this.disconnectedAt = undefined;
      else this.disconnectedAt ??= formatTimestamp(this.now());
    });
  }

  /** The `extensions` member of a `work.checkpoint` kept offline now, or a refusal to keep it. */
  extensions(agentId: string, groupId: string, payload: Readonly<Record<string, unknown>>, bufferedAt: string): Record<string, unknown> {
    const leaseId = payload['executionLeaseId'];
    const lease = typeof leaseId === 'string' ? this.leases.get(leaseId) : undefined;
    const disconnectedAt = this.disconnectedAt ?? bufferedAt;
    if (lease === undefined || lease.ownershipEpoch === undefined || lease.workItemId === undefined) {
      throw new AgentClientError('CONNECTION_CLOSED', `the Authority cannot be reached and Execution Lease ${String(leaseId)} is not known here: the checkpoint was not kept`, { groupId });
    }
    const grace = Math.min(Date.parse(disconnectedAt) + OUTBOX_OFFLINE_GRACE_SECONDS * 1000, Date.parse(lease.expiresAt));
    if (Date.parse(bufferedAt) >= grace) {
      throw new AgentClientError('CONNECTION_CLOSED', `the offline grace period ended at ${formatTimestamp(grace)}: the checkpoint was not kept (§11.5)`, { groupId });
    }
    const binding = {
      agentId,
      groupId,
      workItemId: lease.workItemId,
      sessionEpoch: lease.sessionEpoch,
      ownershipEpoch: lease.ownershipEpoch,
      executionLeaseId: lease.leaseId,
      disconnectedAt,
      bufferedAt,
      graceDeadline: formatTimestamp(grace),
      executionLeaseExpiresAt: lease.expiresAt,
      resourceUsageDelta: NO_USAGE,
    };
    return { [OFFLINE_EXECUTION_EXTENSION]: { version: OFFLINE_EXECUTION_VERSION, critical: true, data: binding } };
  }

  private observe(event: GroupEvent): void {
    const lease = (event.payload as { executionLease?: WorkLease }).executionLease;
    if (lease?.leaseType !== 'execution' || typeof lease.leaseId !== 'string') return;
    this.leases.delete(lease.leaseId);
    this.leases.set(lease.leaseId, lease);
    while (this.leases.size > MAX_OUTBOX_KNOWN_LEASES) this.leases.delete(this.leases.keys().next().value as string);
  }
}
