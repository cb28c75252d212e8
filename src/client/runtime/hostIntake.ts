/**
 * The runtime host's intake (hostAdmission.ts says the rules): offers taken or declined, owned
 * work picked up from the Group's Events and views, `work.unblocked` for held blocked work, and
 * an offer skipped while a stale hold of its WorkItem waited, taken once the hold is withdrawn
 * (`retake`). One WorkItem is handled once at a time: `taking` holds those being accepted or
 * admitted now, each leaving when answered, so it is bounded by the offers and Events in flight.
 * A pick-up asked for while its WorkItem is being taken is kept (`deferred`, at most one per
 * WorkItem in `taking`) and, unless the runtime holds the work by then, done when that ends if the
 * Authority says the work is this Agent's `queued` now: an offer replayed on start, or seen while
 * another client of the Agent accepted it, is accepted here too and refused (the WorkItem is
 * `queued` already), and the pick-up its view or Event asked for meanwhile is what runs it; the
 * Authority is asked because that Event may be a replayed one, its WorkItem long since finished.
 * So is an Event's pick-up of work the runtime does not hold: the Event may have come late, after
 * the run here submitted the WorkItem and the runtime let it go (runtimeHostIntake.e2e).
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
  /** The WorkItem as work this Agent owns `queued` at the Authority now (hostAdmission.ts `ownedNow`), or undefined. */
  readonly ownedNow: (groupId: string, workItemId: string) => Promise<OwnedWork | undefined>;
}

export class WorkIntake {
  private readonly taking = new Set<string>();
  /** Owned work whose pick-up came while its WorkItem was in `taking`: picked up when that ends. */
  private readonly deferred = new Map<string, OwnedWork>();

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
      await this.taken(offer.workItemId);
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
    if (owned === undefined) return;
    if (runtime.state.work[owned.workItemId] !== undefined || this.taking.has(owned.workItemId)) return this.pickUp(owned);
    // Not held here: the Event may be a late or replayed one whose WorkItem ran here and ended since.
    const now = await this.init.ownedNow(owned.groupId, owned.workItemId);
    if (now !== undefined) await this.pickUp(now);
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
    if (!this.init.open()) return;
    if (this.taking.has(owned.workItemId)) {
      // Done when the WorkItem's taking ends: that accept may be refused, the work being this Agent's already.
      const kept = this.deferred.get(owned.workItemId);
      if (kept === undefined || kept.ownershipEpoch < owned.ownershipEpoch) this.deferred.set(owned.workItemId, owned);
      return;
    }
    if (runtime.state.work[owned.workItemId] !== undefined) {
      if (this.keeps(owned)) return;
      runtime.withdraw(owned.workItemId);
    }
    this.taking.add(owned.workItemId);
    try {
      if (await admitOwned(ctx, owned)) ctx.log(`picked up ${owned.workItemId} (owned under epoch ${owned.ownershipEpoch})`);
    } finally {
      await this.taken(owned.workItemId);
    }
    this.init.pump();
  }

  /** Whether the runtime holds the WorkItem as it is: running, or under `owned`'s Ownership Epoch or a newer one. */
  private keeps(owned: OwnedWork): boolean {
    const { runtime } = this.init.context();
    const held = runtime.state.work[owned.workItemId];
    if (held === undefined) return false;
    const row = runtime.projection.work.get(held.groupId, owned.workItemId);
    return held.status === 'running' || row === undefined || row.ownershipEpoch >= owned.ownershipEpoch;
  }

  /**
   * The WorkItem's taking ended: the pick-up asked for meanwhile, if any, is done now when the
   * runtime does not hold the work already and the Authority says it is this Agent's `queued`.
   * Its failure is logged, so that the taking's own failure is the one its caller sees.
   */
  private async taken(workItemId: string): Promise<void> {
    this.taking.delete(workItemId);
    const asked = this.deferred.get(workItemId);
    if (asked === undefined) return;
    this.deferred.delete(workItemId);
    if (!this.init.open() || this.keeps(asked)) return;
    try {
      const owned = await this.init.ownedNow(asked.groupId, workItemId);
      if (owned !== undefined) await this.pickUp(owned);
    } catch (error) {
      this.init.context().log(`pick-up of ${workItemId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
