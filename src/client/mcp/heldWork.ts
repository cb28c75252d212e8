/**
 * The WorkItems `missionweave mcp`'s work tools hold for their Agent (issue 14, part 3): each
 * one this MCP server accepted (queued, owned under an Ownership Epoch, §10.3) and, once
 * started, its WorkExecution, whose LeaseKeeper renews the Execution Lease in the background
 * between the model's calls (§11.3). A checkpoint releases the lease and the WorkItem waits
 * here, still owned, to be started again.
 *
 * Bounded by MAX_HELD_WORK: the oldest entry that no longer holds anything (ended, lost) is
 * forgotten first; when every entry is live, the oldest is, and a lease it still renewed is left
 * to the Authority's clock. What the Agent accepted before this process started is not here:
 * the tools know only the work they were given.
 */

import { MAX_HELD_WORK } from '../limits.js';
import type { OwnedWork } from '../worker.js';
import type { WorkExecution } from '../workExecution.js';
import { workLeasesOf, type WorkItemDocument } from '../workDocuments.js';

export interface HeldEntry {
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly workItem: WorkItemDocument;
  /** The current (or last) execution; absent while queued. */
  readonly execution?: WorkExecution;
}

/** Still holding something on the Authority: a renewed lease, or ownership waiting to start. */
function live(entry: HeldEntry): boolean {
  if (entry.execution !== undefined) return entry.execution.leaseStatus === 'keeping';
  return entry.workItem.state === 'queued';
}

export class HeldWork {
  private readonly entries = new Map<string, HeldEntry>();

  constructor(private readonly limit: number = MAX_HELD_WORK) {}

  /** Accepted, or checkpointed back to the queue: owned, waiting for `work.start`. */
  owned(owned: Pick<OwnedWork, 'groupId' | 'workItemId' | 'ownershipEpoch' | 'workItem'>): void {
    this.put({ groupId: owned.groupId, workItemId: owned.workItemId, ownershipEpoch: owned.ownershipEpoch, workItem: owned.workItem });
  }

  /** Started: the execution keeps its lease renewed until it ends. */
  running(execution: WorkExecution): void {
    this.put({ groupId: execution.groupId, workItemId: execution.workItemId, ownershipEpoch: execution.ownershipEpoch, workItem: execution.workItem, execution });
  }

  get(workItemId: string): HeldEntry | undefined {
    return this.entries.get(workItemId);
  }

  /** Oldest first. */
  list(): readonly HeldEntry[] {
    return [...this.entries.values()];
  }

  private put(entry: HeldEntry): void {
    // Re-inserted, so the Map's order stays the order of last use.
    this.entries.delete(entry.workItemId);
    this.entries.set(entry.workItemId, entry);
    while (this.entries.size > this.limit) this.evict();
  }

  private evict(): void {
    const ended = [...this.entries.values()].find((entry) => !live(entry));
    const victim = ended ?? (this.entries.values().next().value as HeldEntry);
    victim.execution?.stop();
    this.entries.delete(victim.workItemId);
  }
}

/** When the ownership lease ends: the start-by deadline while queued (§11.3). */
export function ownershipExpiresAt(workItem: WorkItemDocument): string | undefined {
  return workLeasesOf(workItem).ownership?.expiresAt;
}
