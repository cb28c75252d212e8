/**
 * The Events of offering and owning a WorkItem as the tests expect them (§10.2, §10.3, §11.3),
 * stated from the state before and the Command, never by the deciders' own builders: the offer
 * entries, the ownership and Execution Leases in our lease extension, the owner record.
 */

import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { Principal } from '../../src/protocol/principal.js';
import type { ExpectedEvent } from '../support/specification.js';
import { GROUP, MISSION, SELECTION, T0, WORK } from './fixtures.js';
import { workItemIn } from './workDocuments.js';

/** Our lease extension, as the tests expect it named. */
export const WORK_LEASES = 'urn:missionweave:extension:work-leases';

/** What the Workers' cards pin for the contract's `acme.sql-migration` ≥ 1.4.0: the highest 1.x. */
export const SQL_PINS = [{ id: 'acme.sql-migration', version: '1.5.0' }];

/** `seconds` after the instant `from` (default `T0`). */
export function after(seconds: number, from = T0): string {
  return new Date(Date.parse(from) + seconds * 1000).toISOString();
}

// A WorkItem as stored: its members are JSON, so the tests read them loosely.
type Loose = Record<string, unknown>;

/** The WorkItem of `from` at its next revision with `change`, updated at `now`. */
export function nextWorkItem(from: GroupState, change: object, now = T0, workItemId = WORK): Loose {
  const item: Loose = { ...workItemIn(from, workItemId) };
  return { ...item, revision: (item['revision'] as number) + 1, updatedAt: now, ...change };
}

/** The lease extension's data of `from`'s WorkItem. */
export function leasesIn(from: GroupState, workItemId = WORK): Loose {
  const extensions = (from.workItems.has(workItemId) ? (workItemIn(from, workItemId).extensions ?? {}) : {}) as Record<string, { data: Loose }>;
  return extensions[WORK_LEASES]?.data ?? {};
}

/** `extensions` holding the lease extension with `data` (the WorkItem has no other extension here). */
export function withLeaseData(data: object): { extensions: object } {
  return { extensions: { [WORK_LEASES]: { version: '0.1.0', critical: false, data } } };
}

export function offerEntry(offerId: string, agent: Principal, expiresAt: string, status = 'pending'): object {
  return { offerId, agentId: agent.id, agentCardVersion: 3, expiresAt, status };
}

export interface LeaseSpec {
  readonly leaseId: string;
  readonly holder: Principal;
  readonly ownershipEpoch: number;
  readonly seconds: number;
  readonly now?: string;
  readonly workItemId?: string;
}

/** A fresh WorkItem lease issued at `now` in Session Epoch 1. */
function lease(type: 'ownership' | 'execution', spec: LeaseSpec): Loose {
  const now = spec.now ?? T0;
  const expiresAt = after(spec.seconds, now);
  return {
    leaseId: spec.leaseId,
    leaseType: type,
    missionId: MISSION,
    groupId: GROUP,
    workItemId: spec.workItemId ?? WORK,
    holderAgentId: spec.holder.id,
    sessionEpoch: 1,
    ownershipEpoch: spec.ownershipEpoch,
    ...(type === 'ownership' ? { startBy: expiresAt } : {}),
    issuedAt: now,
    startsAt: now,
    expiresAt,
    state: 'active',
    renewalCount: 0,
  };
}

export const ownershipLease = (spec: LeaseSpec): Loose => lease('ownership', spec);
export const executionLease = (spec: LeaseSpec): Loose => lease('execution', spec);

function workItemEvent(kind: string, workItem: Loose, payload: object): ExpectedEvent {
  const workItemId = workItem['workItemId'] as string;
  return {
    kind,
    payload: { workItemId, workItem, ...payload },
    aggregate: { type: 'work-item', id: workItemId, revision: workItem['revision'] as number },
    workItemId,
  };
}

/** `work.offer.created` of `from`'s WorkItem to `candidates`, its offers then being `offers`. */
export function expectedOffered(
  from: GroupState,
  candidates: readonly Principal[],
  offers: readonly object[],
  options: { offerExpiresAt?: string; change?: object; payload?: object; now?: string; workItemId?: string } = {},
): ExpectedEvent {
  const workItem = nextWorkItem(from, { state: 'offered', offers, selectionBasis: SELECTION, ...options.change }, options.now, options.workItemId);
  return workItemEvent('work.offer.created', workItem, {
    candidateAgentIds: candidates.map((c) => c.id),
    offerExpiresAt: options.offerExpiresAt ?? after(300, options.now),
    selectionBasis: SELECTION,
    ...options.payload,
  });
}

/**
 * `work.offer.accepted` by `winner` in `from`: its pending offer accepted, every other pending
 * offer lost, Ownership Epoch `epoch` under an ownership lease `leaseId` of `seconds` (default 900).
 */
export function expectedAccepted(from: GroupState, winner: Principal, leaseId: string, epoch = 1, now = T0, workItemId = WORK, seconds = 900): ExpectedEvent {
  const item = workItemIn(from, workItemId);
  const offers = (item.offers ?? []).map((o) => (o.status !== 'pending' ? o : { ...o, status: o.agentId === winner.id ? 'accepted' : 'lost_race' }));
  const ownership = ownershipLease({ leaseId, holder: winner, ownershipEpoch: epoch, seconds, now, workItemId });
  const owner = { agentId: winner.id, agentCardVersion: 3, capabilityPins: SQL_PINS, ownershipEpoch: epoch, ownershipLeaseId: leaseId, acceptedAt: now };
  const workItem = nextWorkItem(from, { state: 'queued', offers, owner, ...withLeaseData({ ...leasesIn(from, workItemId), ownership, lastOwnershipEpoch: epoch }) }, now, workItemId);
  return workItemEvent('work.offer.accepted', workItem, {
    assigneeId: winner.id,
    ownershipEpoch: epoch,
    ownershipLeaseExpiresAt: ownership['expiresAt'],
    agentCardVersion: 3,
    ownershipLease: ownership,
  });
}

/** `work.started` in `from` under a new Execution Lease; `ownership` is the ownership lease after. */
export function expectedStarted(from: GroupState, execution: Loose, ownership: Loose = leasesIn(from)['ownership'] as Loose, now = T0): ExpectedEvent {
  const workItem = nextWorkItem(from, { state: 'active', ...withLeaseData({ ...leasesIn(from), ownership, execution }) }, now);
  return workItemEvent('work.started', workItem, {
    ownershipEpoch: execution['ownershipEpoch'],
    executionLease: execution,
    executionLeaseExpiresAt: execution['expiresAt'],
  });
}

/** `work.progressed` renewing `from`'s Execution Lease for `seconds` at `now`. */
export function expectedRenewed(from: GroupState, seconds: number, now: string, ownership: Loose = leasesIn(from)['ownership'] as Loose): ExpectedEvent {
  const current = leasesIn(from)['execution'] as Loose;
  const execution: Loose = { ...current, expiresAt: after(seconds, now), renewalCount: (current['renewalCount'] as number) + 1, lastRenewedAt: now };
  const workItem = nextWorkItem(from, withLeaseData({ ...leasesIn(from), ownership, execution }), now);
  return workItemEvent('work.progressed', workItem, {
    ownershipEpoch: execution['ownershipEpoch'],
    executionLease: execution,
    executionLeaseExpiresAt: execution['expiresAt'],
  });
}
