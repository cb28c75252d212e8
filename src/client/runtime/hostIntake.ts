/**
 * The runtime host's intake (hostAdmission.ts says the rules): offers taken or declined, owned
 * work picked up from the Group's Events and views, `work.unblocked` for held blocked work, and
 * an offer skipped while a stale hold of its WorkItem waited, taken once the hold is withdrawn
 * (`retake`). One WorkItem is handled once at a time: `taking` holds those being accepted or
 * admitted now, each leaving when answered, so it is bounded by the offers and Events in flight.
 */

import type { GroupEvent } from '../documents.js';
import type { OwnedWork, WorkOffer } from '../worker.js';
import { workItemOf } from '../workDocuments.js';
import { admitOwned, ownedInView, ownedQueued, requestOf, type AdmissionContext } from './hostAdmission.js';

export interface IntakeInit {
  readonly context: () => AdmissionContext;
  /** False before the restart is settled and once the host is stopping. */
  readonly open: () => boolean;
  readonly pump: () => void;
}

export class WorkIntake {
  private readonly taking = new Set<string>();

  constructor(private readonly init: IntakeInit) {}

  /** Accepts an offer the runtime would admit now; declines (does not accept) one it would refuse. */
  async take(offer: WorkOffer): Promise<void> {
    const ctx = this.init.context();
    if (!this.init.open() || this.taking.has(offer.workItemId) || ctx.runtime.state.work[offer.workItemId] !== undefined) return;
    const refusal = ctx.runtime.refusalOf(requestOf(offer.groupId, offer.workItem, 0, ctx.effort));
    if (refusal !== null) return ctx.log(`declined ${offer.workItemId}: ${refusal.code}`);
    this.taking.add(offer.workItemId);
    try {
      await admitOwned(ctx, await ctx.worker.accept(offer));
    } finally {
      this.taking.delete(offer.workItemId);
    }
    this.init.pump();
  }

  /** One Event: held blocked work unblocked, or owned `queued` work picked up. */
  async observe(event: GroupEvent): Promise<void> {
    if (!this.init.open()) return;
    const { runtime, agent } = this.init.context();
    const workItem = workItemOf(event);
    const held = workItem === undefined ? undefined : runtime.state.work[workItem.workItemId];
    const owned = ownedQueued(event.groupId, workItem, agent.agentId);
    if (event.kind === 'work.unblocked' && held?.status === 'blocked' && workItem !== undefined) {
      // Unblocked to its owner's queue: ready again here; re-offered (the ownership ran out): not ours.
      if (owned !== undefined) runtime.unblock(workItem.workItemId);
      else {
        runtime.withdraw(workItem.workItemId);
        await this.retake(workItem.workItemId);
      }
      return this.init.pump();
    }
    if (owned !== undefined) await this.pickUp(owned);
  }

  /**
   * The runtime let go of a WorkItem it held (withdrawn: not this Agent's under the Ownership
   * Epoch it held it by): a live offer of it to this Agent, skipped while it was held, is taken
   * now. Without this a re-offer that came while the stale hold waited for its refused start was
   * lost, and nobody ran the WorkItem (test/runtimeHostReoffer.e2e.test.ts).
   */
  async retake(workItemId: string): Promise<void> {
    const offer = this.init.context().worker.offers().find((o) => o.workItemId === workItemId);
    if (offer !== undefined) await this.take(offer);
  }

  /**
   * After a (re)start: every Group's work owned `queued` at the Authority and not held here, then
   * the live offers that arrived (on replay) before the restart was settled.
   */
  async sweep(groupIds: readonly string[]): Promise<void> {
    const ctx = this.init.context();
    for (const groupId of groupIds) {
      const owned = await ownedInView(ctx.agent, groupId).catch((error: unknown) => (ctx.log(`view of ${groupId}: ${error instanceof Error ? error.message : String(error)}`), []));
      for (const item of owned) await this.pickUp(item);
    }
    for (const offer of ctx.worker.offers()) await this.take(offer).catch((error: unknown) => ctx.log(`offer ${offer.workItemId}: ${error instanceof Error ? error.message : String(error)}`));
  }

  /**
   * Owned `queued` work the runtime does not hold (or holds, idle, under an older Ownership Epoch:
   * it was reassigned back here) is admitted; running or held work is left as it is.
   */
  private async pickUp(owned: OwnedWork): Promise<void> {
    const ctx = this.init.context();
    const { runtime } = ctx;
    if (!this.init.open() || this.taking.has(owned.workItemId)) return;
    const held = runtime.state.work[owned.workItemId];
    if (held !== undefined) {
      const row = runtime.projection.work.get(held.groupId, owned.workItemId);
      if (held.status === 'running' || row === undefined || row.ownershipEpoch >= owned.ownershipEpoch) return;
      runtime.withdraw(owned.workItemId);
    }
    this.taking.add(owned.workItemId);
    try {
      if (await admitOwned(ctx, owned)) ctx.log(`picked up ${owned.workItemId} (owned under epoch ${owned.ownershipEpoch})`);
    } finally {
      this.taking.delete(owned.workItemId);
    }
    this.init.pump();
  }
}
