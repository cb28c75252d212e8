/**
 * The epochs an Agent's Commands must carry (§8, §7.2), learnt from the Group's own Events so
 * the work helpers need no bookkeeping from their caller: the Agent's Membership Epoch from its
 * Membership as `mission.created`, `membership.changed` and `mission.coordinator.assigned`
 * carry it, and the Coordinator Epoch from the Mission and its Coordinator Events. A Command
 * signed under an epoch learnt too late is refused (stale Membership, AUTH_STALE_COORDINATOR)
 * and nothing more: the Group Authority is the judge, this is only the best guess.
 *
 * It learns only from Events its Agent is delivered, so an Agent that resumes from a saved
 * Cursor past those Events passes its epochs in (`set`) or as Command options.
 */

import type { EpochFacts } from './commands.js';
import type { GroupEvent } from './documents.js';
import { MAX_TRACKED_GROUPS } from './limits.js';

interface MembershipShape {
  readonly member?: { readonly id?: unknown };
  readonly membershipEpoch?: unknown;
  readonly state?: unknown;
}

export class GroupEpochs {
  private readonly groups = new Map<string, { membershipEpoch?: number; coordinatorEpoch?: number }>();

  constructor(private readonly agentId: string) {}

  /** The epochs known for a Group (an EpochProvider). */
  facts(groupId: string): EpochFacts | undefined {
    return this.groups.get(groupId);
  }

  /** Sets what the caller knows better (after a restart from a saved Cursor, say). */
  set(groupId: string, facts: EpochFacts): void {
    this.update(groupId, facts);
  }

  /** Reads one delivered Event. */
  observe(event: GroupEvent): void {
    const payload = event.payload as Record<string, unknown>;
    const memberships: unknown[] = [];
    if (event.kind === 'membership.changed') memberships.push(payload['membership']);
    if (Array.isArray(payload['memberships'])) memberships.push(...payload['memberships']);
    for (const membership of memberships) this.membership(event.groupId, membership as MembershipShape);
    if (event.kind === 'membership.ended' && this.isMine(payload['membership'] as MembershipShape)) this.update(event.groupId, { membershipEpoch: undefined });
    const coordinatorEpoch = typeof payload['coordinatorEpoch'] === 'number' ? payload['coordinatorEpoch'] : (payload['mission'] as { coordinator?: { coordinatorEpoch?: unknown } } | undefined)?.coordinator?.coordinatorEpoch;
    if (typeof coordinatorEpoch === 'number' && event.kind.startsWith('mission.')) this.update(event.groupId, { coordinatorEpoch });
  }

  private membership(groupId: string, membership: MembershipShape | undefined): void {
    if (membership === undefined || !this.isMine(membership) || typeof membership.membershipEpoch !== 'number') return;
    this.update(groupId, { membershipEpoch: membership.state === 'ended' ? undefined : membership.membershipEpoch });
  }

  private isMine(membership: MembershipShape | undefined): boolean {
    return membership?.member?.id === this.agentId;
  }

  private update(groupId: string, facts: EpochFacts): void {
    const current = this.groups.get(groupId);
    if (current === undefined && this.groups.size >= MAX_TRACKED_GROUPS) this.groups.delete(this.groups.keys().next().value as string);
    const next = { ...current };
    if ('membershipEpoch' in facts) next.membershipEpoch = facts.membershipEpoch;
    if ('coordinatorEpoch' in facts) next.coordinatorEpoch = facts.coordinatorEpoch;
    this.groups.set(groupId, next);
  }
}
