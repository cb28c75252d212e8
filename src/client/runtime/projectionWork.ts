/**
 * The WorkItems this Agent owns, as the runtime last knew them, with their latest durable
 * checkpoint (§11.3, §11.5). Each row carries the Ownership Epoch it is held under and, while it
 * runs, its Execution Lease ID; a checkpoint is kept with the epoch and lease it was taken under.
 *
 *   own ─▶ queued ──start──▶ running ──pause (after a checkpoint)──▶ paused ──start──▶ running
 *                              │ └──block──▶ blocked ──requeue──▶ queued
 *                              └── finish (submitted, failed, reassigned): the row goes
 *
 * An older Ownership Epoch, or a lease that is not the current one, is refused (`stale`): a
 * delayed call from a superseded execution cannot overwrite the current one's checkpoint.
 * Preemption is cooperative: `pause` is refused unless a checkpoint was taken under the current
 * lease. A higher epoch (the WorkItem reassigned back to this Agent) starts over as queued and
 * keeps the latest checkpoint to resume from.
 *
 * `recover()` is the storage side of a restart (§11.5). The new Session revoked every lease, so
 * nothing is running any more: work that ran with a checkpoint under its current epoch becomes
 * paused (ready again once the Authority confirms its Ownership Epoch and grants a new lease);
 * work that ran without one becomes blocked with `runtime-session-lost`, to be reported to its
 * Coordinator. It is one transaction, and a second restart finds the same outcome.
 */

import type { ProjectionContext } from './projectionContext.js';
import { byteLength } from './projectionContext.js';

export type WorkStatus = 'queued' | 'running' | 'paused' | 'blocked';

/** Why a restart blocked work that was running without a durable checkpoint. */
export const RUNTIME_SESSION_LOST = 'runtime-session-lost';

export interface WorkCheckpoint {
  readonly data: Buffer;
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
  readonly at: string;
}

export interface ProjectedWork {
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly status: WorkStatus;
  /** While running. */
  readonly executionLeaseId?: string;
  readonly blockedReason?: string;
  readonly checkpoint?: WorkCheckpoint;
  readonly updatedAt: string;
}

export interface WorkRecovery {
  /** Ran, or was paused, with a durable checkpoint: ready again after the Authority confirms. */
  readonly resumable: readonly ProjectedWork[];
  /** Owned and not started: ready again after the Authority confirms the Ownership Epoch. */
  readonly queued: readonly ProjectedWork[];
  /** Ran without a durable checkpoint: now blocked with `runtime-session-lost`. */
  readonly lost: readonly ProjectedWork[];
  /** Blocked before the restart, for the reason it gave. */
  readonly blocked: readonly ProjectedWork[];
}

interface WorkRow {
  group_id: string;
  work_item_id: string;
  ownership_epoch: number;
  execution_lease_id: string | null;
  status: WorkStatus;
  blocked_reason: string | null;
  checkpoint: Buffer | null;
  checkpoint_ownership_epoch: number | null;
  checkpoint_lease_id: string | null;
  checkpoint_at: string | null;
  updated_at: string;
}

function workOf(row: WorkRow): ProjectedWork {
  return {
    groupId: row.group_id,
    workItemId: row.work_item_id,
    ownershipEpoch: row.ownership_epoch,
    status: row.status,
    ...(row.execution_lease_id === null ? {} : { executionLeaseId: row.execution_lease_id }),
    ...(row.blocked_reason === null ? {} : { blockedReason: row.blocked_reason }),
    ...(row.checkpoint === null
      ? {}
      : { checkpoint: { data: row.checkpoint, ownershipEpoch: row.checkpoint_ownership_epoch ?? 0, executionLeaseId: row.checkpoint_lease_id ?? '', at: row.checkpoint_at ?? '' } }),
    updatedAt: row.updated_at,
  };
}

/** The Ownership Epoch and Execution Lease a call claims to act under. */
export interface ExecutionClaim {
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
}

export class ProjectionWork {
  constructor(private readonly context: ProjectionContext) {}

  /** Records ownership under `ownershipEpoch` (accepted, not started). */
  own(groupId: string, workItemId: string, ownershipEpoch: number): ProjectedWork {
    const { context } = this;
    return context.write(() => {
      const row = this.row(groupId, workItemId);
      if (row !== undefined) {
        if (ownershipEpoch === row.ownership_epoch) return workOf(row);
        if (ownershipEpoch < row.ownership_epoch) throw this.stale(row, `Ownership Epoch ${ownershipEpoch} is older than ${row.ownership_epoch}`);
        this.update(groupId, workItemId, { ownership_epoch: ownershipEpoch, status: 'queued', execution_lease_id: null, blocked_reason: null });
        return workOf(this.row(groupId, workItemId) as WorkRow);
      }
      const { n } = context.db.prepare('SELECT count(*) AS n FROM work').get() as { n: number };
      const limit = context.limits.maxProjectedWork;
      if (n >= limit) throw context.refuse('work-full', `${n} WorkItems are tracked, the bound maxProjectedWork (${limit})`, groupId);
      context.db
        .prepare(`INSERT INTO work (group_id, work_item_id, ownership_epoch, status, updated_at) VALUES (?, ?, ?, 'queued', ?)`)
        .run(groupId, workItemId, ownershipEpoch, context.now());
      return workOf(this.row(groupId, workItemId) as WorkRow);
    });
  }

  /** Starts (or resumes) queued or paused work under a new Execution Lease. */
  start(groupId: string, workItemId: string, claim: ExecutionClaim): ProjectedWork {
    return this.change(groupId, workItemId, (row) => {
      if (claim.ownershipEpoch !== row.ownership_epoch) throw this.stale(row, `it is owned under Ownership Epoch ${row.ownership_epoch}, not ${claim.ownershipEpoch}`);
      if (row.status === 'running' && row.execution_lease_id === claim.executionLeaseId) return;
      if (row.status !== 'queued' && row.status !== 'paused') throw this.stale(row, `it is ${row.status}; only queued or paused work starts`);
      this.update(groupId, workItemId, { status: 'running', execution_lease_id: claim.executionLeaseId });
    });
  }

  /** Keeps a durable checkpoint of running work, under its current epoch and lease. */
  checkpoint(groupId: string, workItemId: string, claim: ExecutionClaim, data: string | Uint8Array): ProjectedWork {
    const bytes = Buffer.from(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    this.context.bound(`the checkpoint of ${workItemId}`, byteLength(bytes), this.context.limits.maxCheckpointBytes, 'maxCheckpointBytes', groupId);
    return this.change(groupId, workItemId, (row) => {
      this.current(row, claim);
      this.update(groupId, workItemId, {
        checkpoint: bytes,
        checkpoint_ownership_epoch: claim.ownershipEpoch,
        checkpoint_lease_id: claim.executionLeaseId,
        checkpoint_at: this.context.now(),
      });
    });
  }

  /** Pauses running work at the checkpoint just taken (preemption); its lease is released. */
  pause(groupId: string, workItemId: string, claim: ExecutionClaim): ProjectedWork {
    return this.change(groupId, workItemId, (row) => {
      this.current(row, claim);
      if (row.checkpoint_lease_id !== claim.executionLeaseId) throw this.stale(row, 'no checkpoint was taken under the current lease; work is paused only at a durable checkpoint');
      this.update(groupId, workItemId, { status: 'paused', execution_lease_id: null });
    });
  }

  /** Blocks work (§11.4) with the resolution it needs; its lease is released. */
  block(groupId: string, workItemId: string, reason: string): ProjectedWork {
    return this.change(groupId, workItemId, () => this.update(groupId, workItemId, { status: 'blocked', execution_lease_id: null, blocked_reason: reason }));
  }

  /** Returns blocked or paused work to its Group's queue. */
  requeue(groupId: string, workItemId: string): ProjectedWork {
    return this.change(groupId, workItemId, (row) => {
      if (row.status === 'running') throw this.stale(row, 'it is running; pause or block it first');
      this.update(groupId, workItemId, { status: 'queued', execution_lease_id: null, blocked_reason: null });
    });
  }

  /** Forgets the WorkItem: submitted, failed, cancelled or reassigned to another Agent. */
  finish(groupId: string, workItemId: string): void {
    this.context.write(() => this.context.db.prepare('DELETE FROM work WHERE group_id = ? AND work_item_id = ?').run(groupId, workItemId));
  }

  get(groupId: string, workItemId: string): ProjectedWork | undefined {
    return this.context.read(() => {
      const row = this.row(groupId, workItemId);
      return row === undefined ? undefined : workOf(row);
    });
  }

  list(groupId?: string): ProjectedWork[] {
    const { db } = this.context;
    return this.context.read(() =>
      ((groupId === undefined
        ? db.prepare('SELECT * FROM work ORDER BY group_id, work_item_id').all()
        : db.prepare('SELECT * FROM work WHERE group_id = ? ORDER BY work_item_id').all(groupId)) as WorkRow[]).map(workOf),
    );
  }

  /** After a restart: nothing runs any more; see the file's comment. */
  recover(): WorkRecovery {
    const { db } = this.context;
    return this.context.write(() => {
      const at = this.context.now();
      const pause = db.prepare(`UPDATE work SET status = 'paused', execution_lease_id = NULL, updated_at = ? WHERE group_id = ? AND work_item_id = ?`);
      const lose = db.prepare(`UPDATE work SET status = 'blocked', execution_lease_id = NULL, blocked_reason = ?, updated_at = ? WHERE group_id = ? AND work_item_id = ?`);
      const outcome = { resumable: [] as ProjectedWork[], queued: [] as ProjectedWork[], lost: [] as ProjectedWork[], blocked: [] as ProjectedWork[] };
      for (const row of db.prepare('SELECT * FROM work ORDER BY group_id, work_item_id').all() as WorkRow[]) {
        if (row.status !== 'running') {
          (row.status === 'paused' ? outcome.resumable : row.status === 'queued' ? outcome.queued : outcome.blocked).push(workOf(row));
          continue;
        }
        const safe = row.checkpoint !== null && row.checkpoint_ownership_epoch === row.ownership_epoch;
        if (safe) pause.run(at, row.group_id, row.work_item_id);
        else lose.run(RUNTIME_SESSION_LOST, at, row.group_id, row.work_item_id);
        const settled: WorkRow = { ...row, execution_lease_id: null, updated_at: at, ...(safe ? { status: 'paused' } : { status: 'blocked', blocked_reason: RUNTIME_SESSION_LOST }) };
        (safe ? outcome.resumable : outcome.lost).push(workOf(settled));
      }
      return outcome;
    });
  }

  private change(groupId: string, workItemId: string, apply: (row: WorkRow) => void): ProjectedWork {
    return this.context.write(() => {
      const row = this.row(groupId, workItemId);
      if (row === undefined) throw this.context.refuse('stale', `WorkItem ${workItemId} of Group ${groupId} is not owned here`, groupId);
      apply(row);
      return workOf(this.row(groupId, workItemId) as WorkRow);
    });
  }

  /** Refuses a claim that is not the running execution's epoch and lease. */
  private current(row: WorkRow, claim: ExecutionClaim): void {
    if (row.status !== 'running') throw this.stale(row, `it is ${row.status}, not running`);
    if (claim.ownershipEpoch !== row.ownership_epoch || claim.executionLeaseId !== row.execution_lease_id) {
      throw this.stale(row, `it runs under Ownership Epoch ${row.ownership_epoch} and lease ${row.execution_lease_id ?? '-'}, not ${claim.ownershipEpoch} and ${claim.executionLeaseId}`);
    }
  }

  private stale(row: WorkRow, why: string): Error {
    return this.context.refuse('stale', `WorkItem ${row.work_item_id}: ${why}`, row.group_id);
  }

  private row(groupId: string, workItemId: string): WorkRow | undefined {
    return this.context.db.prepare('SELECT * FROM work WHERE group_id = ? AND work_item_id = ?').get(groupId, workItemId) as WorkRow | undefined;
  }

  private update(groupId: string, workItemId: string, columns: Partial<Omit<WorkRow, 'group_id' | 'work_item_id' | 'updated_at'>>): void {
    const names = Object.keys(columns);
    this.context.db
      .prepare(`UPDATE work SET ${names.map((name) => `${name} = ?`).join(', ')}, updated_at = ? WHERE group_id = ? AND work_item_id = ?`)
      .run(...names.map((name) => columns[name as keyof typeof columns]), this.context.now(), groupId, workItemId);
  }
}
