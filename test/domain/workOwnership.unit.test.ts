/**
 * The offer half of the WorkItem state machine (§10.2, §10.3), one given/when/then per row and
 * per refusal: `work.offer` (durable, expiring, bounded offers to eligible Workers; an expired
 * owner fenced first) and `work.accept_offer` (the first valid acceptance wins a new Ownership
 * Epoch, every other offer loses), with offer expiry. Execution is in `workExecution.unit`.
 */

import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/protocol/principal.js';
import { satisfiesVersion } from '../../src/domain/workItem/capabilityMatch.js';
import { MAX_OFFER_CANDIDATES, MAX_OFFER_ENTRIES } from '../../src/domain/workItem/workLimits.js';
import { evolveGroup } from '../support/coreDecider.js';
import type { DelegationGrant } from '../../src/domain/workItem/workItemDocuments.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import {
  AUTHORITY,
  CHILD_GROUP,
  CHILD_MISSION,
  COORD,
  COORD2,
  MISSION,
  RUNNABLE_CONTRACT,
  SELECTION,
  SQL_CAPABILITIES,
  T0,
  WORK,
  WORKER,
  WORKER2,
  activeWork,
  agent,
  at,
  command,
  expectStateValid,
  groupSpec,
  history,
  offeredWork,
  queuedWork,
  stateOf,
  steps,
  workGroup,
} from './fixtures.js';
import { expectedAccepted, expectedOffered, leasesIn, offerEntry, withLeaseData } from './expectedOwnership.js';
import { FENCE_REASON, ID, acceptOffer, longCoordinator, offer, patched, thenAt, worldWith } from './ownershipCommands.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { workItemIn } from './workDocuments.js';

describe('capability versions (§6.1)', () => {
  it('a card version meets a minimum of the same major version, by SemVer precedence', () => {
    expect(satisfiesVersion('1.4.0', '1.4.0')).toBe(true);
    expect(satisfiesVersion('1.10.0', '1.9.3')).toBe(true);
    expect(satisfiesVersion('1.4.0+build.7', '1.4.0')).toBe(true);
    expect(satisfiesVersion('1.4.0', '1.4.0-rc.1')).toBe(true);
    expect(satisfiesVersion('1.4.0-rc.2', '1.4.0-rc.10')).toBe(false);
    expect(satisfiesVersion('1.4.0-rc.10', '1.4.0-rc.2')).toBe(true);
    expect(satisfiesVersion('1.4.0-rc.1', '1.4.0')).toBe(false);
    expect(satisfiesVersion('1.3.9', '1.4.0')).toBe(false);
    expect(satisfiesVersion('2.0.0', '1.4.0')).toBe(false);
    expect(satisfiesVersion('not-a-version', '1.4.0')).toBe(false);
  });
});

describe('work.offer (§10.2: open, offered, queued, active, blocked or failed, with no live owner → offered)', () => {
  const open = workGroup();

  it('offers an open WorkItem to its candidates: a pending offer each, expiring with the offer', () => {
    const s = stateOf(open);
    groupSpec
      .given(open)
      .when(offer(s, [WORKER, WORKER2]))
      .then([expectedOffered(s, [WORKER, WORKER2], [offerEntry(`${ID}1`, WORKER, at(300)), offerEntry(`${ID}2`, WORKER2, at(300))])], (afterState) => expectStateValid(afterState!));
  });

  it('lets the offer expire when asked, but never after the contract deadline', () => {
    const s = stateOf(open);
    groupSpec.given(open).when(offer(s, [WORKER], { offerExpiresInSeconds: 60 })).then([expectedOffered(s, [WORKER], [offerEntry(`${ID}1`, WORKER, at(60))], { offerExpiresAt: at(60) })]);
    const deadline = RUNNABLE_CONTRACT.deadline;
    groupSpec
      .given(open)
      .when(offer(s, [WORKER], { offerExpiresInSeconds: 31_536_000 }))
      .then([expectedOffered(s, [WORKER], [offerEntry(`${ID}1`, WORKER, deadline)], { offerExpiresAt: deadline })]);
  });

  it('refuses an offer once the contract deadline has passed (INVALID_STATE_TRANSITION)', () => {
    const events = longCoordinator(open);
    groupSpec.given(events).when(offer(stateOf(events), [WORKER]), { now: '2026-09-21T00:00:00.000Z' }).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.contractDeadlinePassed);
  });

  it('extends a candidate’s pending offer under its own offer ID and withdraws the offers of Agents left out', () => {
    const events = offeredWork();
    const s = stateOf(events);
    const [first, second] = workItemIn(s, WORK).offers!;
    groupSpec
      .given(events)
      .when(offer(s, [WORKER]), { now: at(100) })
      .then([expectedOffered(s, [WORKER], [{ ...second, status: 'withdrawn' }, { ...first, expiresAt: at(400) }], { now: at(100) })]);
  });

  it('records pending offers past their expiry as expired and makes new ones', () => {
    const events = offeredWork();
    const s = stateOf(events);
    const [first, second] = workItemIn(s, WORK).offers!;
    groupSpec
      .given(events)
      .when(offer(s, [WORKER]), { now: at(400) })
      .then([expectedOffered(s, [WORKER], [{ ...first, status: 'expired' }, { ...second, status: 'expired' }, offerEntry(`${ID}1`, WORKER, at(700))], { now: at(400) })]);
  });

  it(`keeps at most ${MAX_OFFER_ENTRIES} offer entries, pruning the oldest closed ones`, () => {
    const rounds = Array.from({ length: MAX_OFFER_ENTRIES + 6 }, (_, i) => steps.offer([i % 2 === 0 ? WORKER : WORKER2]));
    const events = history(rounds, open);
    const offers = workItemIn(stateOf(events), WORK).offers!;
    expect(offers).toHaveLength(MAX_OFFER_ENTRIES);
    expect(offers.filter((o) => o.status === 'pending').map((o) => o.agentId)).toEqual([WORKER2.id]);
    expect(offers[offers.length - 1]).toMatchObject({ agentId: WORKER2.id, status: 'pending' });
    expectStateValid(stateOf(events));
  });

  it('fences an owner whose ownership expired first: its leases close, the owner goes, the epoch is remembered', () => {
    const events = longCoordinator(queuedWork());
    const s = stateOf(events);
    const ownership = leasesIn(s)['ownership'] as object;
    const previous = workItemIn(s, WORK).offers!;
    const fenced = { ...ownership, state: 'expired', closedAt: at(901), closureReason: FENCE_REASON };
    groupSpec
      .given(events)
      .when(offer(s, [WORKER2]), { now: at(901) })
      .then(
        [
          expectedOffered(s, [WORKER2], [...previous, offerEntry(`${ID}1`, WORKER2, at(1201))], {
            now: at(901),
            change: { owner: undefined, ...withLeaseData({ lastOwnershipEpoch: 1 }) },
            payload: { fencedOwnershipLease: fenced },
          }),
        ],
        (afterState) => expectStateValid(afterState!),
      );
  });

  it('refuses a WorkItem whose owner’s lease is live (WORK_ALREADY_OWNED), queued or active', () => {
    for (const events of [queuedWork(), activeWork()]) {
      groupSpec.given(events).when(offer(stateOf(events), [WORKER2])).thenFails('WORK_ALREADY_OWNED', WORK_REASONS.liveOwner);
    }
  });

  it('re-offers a failed WorkItem, clearing the owner it had', () => {
    const events = patched(queuedWork(), { state: 'failed', ...withLeaseData({ lastOwnershipEpoch: 1 }) });
    const s = stateOf(events);
    const previous = workItemIn(s, WORK).offers!;
    groupSpec
      .given(events)
      .when(offer(s, [WORKER2]))
      .then([expectedOffered(s, [WORKER2], [...previous, offerEntry(`${ID}1`, WORKER2, at(300))], { change: { owner: undefined } })]);
  });

  it('refuses a submitted, verified or cancelled WorkItem (INVALID_STATE_TRANSITION)', () => {
    for (const state of ['submitted', 'verified', 'cancelled']) {
      const events = patched(open, { state });
      groupSpec.given(events).when(offer(stateOf(events), [WORKER])).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
    }
  });

  it('refuses a WorkItem a running child Mission does, and allows it once that Mission is over', () => {
    const child = {
      missionId: CHILD_MISSION,
      groupId: CHILD_GROUP,
      parentWorkItemId: WORK,
      coordinatorId: COORD2.id,
      title: 'Child',
      objective: 'A part of the work.',
      definitionOfDone: [{ criterionId: 'c1', description: 'done', evidenceRequired: ['human_review'] }],
      budget: { currency: 'EUR', financialLimit: 10 },
      deadline: '2026-09-10T00:00:00Z',
    };
    const events = history([(s) => command(s!, COORD, 'mission.create_child', child)], open);
    const s = stateOf(events);
    groupSpec.given(events).when(offer(s, [WORKER])).thenFails('INVALID_STATE_TRANSITION', 'child-mission-running');
    const running = { missionId: CHILD_MISSION, groupId: CHILD_GROUP, state: 'active', missionOwner: COORD };
    groupSpec.given(events).when(offer(s, [WORKER]), { missions: [running] }).thenFails('INVALID_STATE_TRANSITION', 'child-mission-running');
    // Once the Group Authority has settled the failed child, the Coordinator's blocked lease is
    // released and the WorkItem may be offered again (no Mission facts needed).
    const failedChild = { ...running, state: 'failed', parent: { missionId: MISSION, workItemId: WORK } };
    const settled = history([(st) => command(st!, AUTHORITY, 'ext.missionweave.core.child_mission_settle', { parentWorkItemId: WORK, childMissionId: CHILD_MISSION })], events, { missions: [failedChild] });
    const over = groupSpec.given(settled).when(offer(stateOf(settled), [WORKER]), { missions: [] }).decision;
    expect(over.ok).toBe(true);
  });

  it('refuses an unknown WorkItem (INVALID_COMMAND)', () => {
    groupSpec.given(open).when(command(stateOf(open), COORD, 'work.offer', { workItemId: 'urn:x:none', candidateAgentIds: [WORKER.id], selectionBasis: SELECTION })).thenFails('INVALID_COMMAND', 'work-item-unknown');
  });

  it(`refuses more than ${MAX_OFFER_CANDIDATES} candidates (INVALID_COMMAND)`, () => {
    const many = Array.from({ length: MAX_OFFER_CANDIDATES + 1 }, (_, i): Principal => ({ type: 'agent', id: `urn:missionweave:agent:w-${i}` }));
    groupSpec.given(open).when(offer(stateOf(open), many)).thenFails('INVALID_COMMAND', WORK_REASONS.tooManyCandidates);
  });

  it('refuses a candidate that is not an active Worker of the Group, or whose card is inactive or lacks the capability (AUTH_FORBIDDEN)', () => {
    const s = stateOf(open);
    const withReviewer = history([steps.addMember(COORD2, 'reviewer')], open);
    groupSpec.given(withReviewer).when(offer(stateOf(withReviewer), [WORKER, COORD2])).thenFails('AUTH_FORBIDDEN', WORK_REASONS.candidateNotWorker);
    groupSpec.given(open).when(offer(s, [COORD2])).thenFails('AUTH_FORBIDDEN', WORK_REASONS.candidateNotWorker);
    groupSpec.given(open).when(offer(s, [WORKER]), worldWith(agent(WORKER, 'revoked', SQL_CAPABILITIES))).thenFails('AUTH_FORBIDDEN', WORK_REASONS.candidateCardInactive);
    for (const versions of [['2.0.0'], ['1.3.9'], ['1.4.0-rc.1'], []]) {
      const card = agent(WORKER, 'active', new Map([['acme.sql-migration', versions]]));
      groupSpec.given(open).when(offer(s, [WORKER]), worldWith(card)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.candidateLacksCapability);
    }
  });

  it('counts an offer under a Delegation Grant as a use of that Grant, once', () => {
    const open = workGroup();
    const grant = { grantId: 'urn:x:grant', granteeAgentId: WORKER2.id, usedBy: [], revision: 1 } as unknown as DelegationGrant;
    const s = { ...stateOf(open), delegationGrants: new Map([[grant.grantId, grant]]) };
    const offered = expectedOffered(s, [WORKER], [offerEntry(`${ID}1`, WORKER, at(300))], { payload: { delegationGrantId: grant.grantId } });
    const event = (payload: object) => ({ kind: 'work.offer.created', payload: JSON.parse(JSON.stringify(payload)) as JsonObject, actor: WORKER2, occurredAt: T0, sequence: s.lastSequence + 1, eventId: 'urn:x:e' });
    const once = evolveGroup(s, event(offered.payload));
    expect(once.delegationGrants.get(grant.grantId)).toMatchObject({ usedBy: [WORK], revision: 2 });
    expect(evolveGroup(once, event(offered.payload)).delegationGrants.get(grant.grantId)).toMatchObject({ usedBy: [WORK], revision: 2 });
    expect(evolveGroup(s, event({ ...offered.payload, delegationGrantId: undefined })).delegationGrants.get(grant.grantId)).toMatchObject({ usedBy: [] });
  });

  it('is the Coordinator’s or a delegate’s: another member is refused, a delegate’s Grant is judged, the Coordinator cites none', () => {
    const s = stateOf(open);
    groupSpec.given(open).when(offer(s, [WORKER], {}, WORKER2)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(open).when(offer(s, [WORKER], { delegationGrantId: 'urn:x:no-such-grant' }, WORKER2)).thenFails('INVALID_COMMAND', WORK_REASONS.delegationGrantUnknown);
    groupSpec.given(open).when(offer(s, [WORKER], { delegationGrantId: 'urn:x:no-such-grant' })).thenFails('INVALID_COMMAND', WORK_REASONS.coordinatorCitesGrant);
  });
});

describe('work.accept_offer (§10.2: offered → queued; §10.3: the first valid acceptance wins)', () => {
  const offered = offeredWork();
  const s = stateOf(offered);

  it('gives the first acceptance a new Ownership Epoch, an ownership lease and the owner’s pins; every other offer loses', () => {
    groupSpec.given(offered).when(acceptOffer(s)).then([expectedAccepted(s, WORKER, `${ID}1`)], (afterState) => {
      expectStateValid(afterState!);
      expect(workItemIn(afterState!, WORK).offers!.map((o) => o.status)).toEqual(['accepted', 'lost_race']);
    });
  });

  it('makes the ownership lease as long as asked; its expiry is the start-by deadline (§11.3)', () => {
    groupSpec.given(offered).when(acceptOffer(s, WORKER, { ownershipLeaseSeconds: 60 })).then([expectedAccepted(s, WORKER, `${ID}1`, 1, T0, WORK, 60)], (afterState) => {
      const lease = leasesIn(afterState!)['ownership'] as { startBy: string; expiresAt: string };
      expect([lease.startBy, lease.expiresAt]).toEqual([at(60), at(60)]);
    });
  });

  it('refuses the loser of the race (WORK_ALREADY_OWNED)', () => {
    const events = queuedWork();
    groupSpec.given(events).when(acceptOffer(stateOf(events), WORKER2)).thenFails('WORK_ALREADY_OWNED', WORK_REASONS.alreadyOwned);
  });

  it('refuses an Agent the WorkItem was not offered to, or whose offer was withdrawn (AUTH_FORBIDDEN)', () => {
    const toOne = history([steps.offer([WORKER])], workGroup());
    groupSpec.given(toOne).when(acceptOffer(stateOf(toOne), WORKER2)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notOffered);
    const narrowed = history([steps.offer([WORKER])], offered);
    groupSpec.given(narrowed).when(acceptOffer(stateOf(narrowed), WORKER2)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.offerWithdrawn);
    const open = workGroup();
    groupSpec.given(open).when(acceptOffer(stateOf(open))).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notOffered);
  });

  it('offer expiry (§10.2: offered → offered): an expired offer cannot be accepted and nothing else changes (WORK_OFFER_EXPIRED)', () => {
    groupSpec.given(offered).when(acceptOffer(s), { now: at(300) }).thenFails('WORK_OFFER_EXPIRED', WORK_REASONS.offerExpired);
    groupSpec.given(offered).when(acceptOffer(s, WORKER2), { now: at(301) }).thenFails('WORK_OFFER_EXPIRED', WORK_REASONS.offerExpired);
    expect(workItemIn(s, WORK).state).toBe('offered');
    const reOffered = thenAt(offered, at(400), (st) => offer(st!, [WORKER]));
    groupSpec.given(reOffered).when(acceptOffer(stateOf(reOffered)), { now: at(401) }).then([expectedAccepted(stateOf(reOffered), WORKER, `${ID}1`, 1, at(401))]);
  });

  it('refuses a second acceptance by the owner itself (INVALID_STATE_TRANSITION)', () => {
    const events = queuedWork();
    groupSpec.given(events).when(acceptOffer(stateOf(events))).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
  });

  it('refuses a member that is not a Worker, a revoked card and a card that no longer meets the contract (AUTH_FORBIDDEN)', () => {
    groupSpec.given(offered).when(acceptOffer(s, COORD)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notAWorker);
    groupSpec.given(offered).when(acceptOffer(s), worldWith(agent(WORKER, 'revoked', SQL_CAPABILITIES))).thenFails('AUTH_FORBIDDEN', WORK_REASONS.cardInactive);
    groupSpec.given(offered).when(acceptOffer(s), worldWith(agent(WORKER, 'active', new Map([['acme.sql-migration', ['2.1.0']]])))).thenFails('AUTH_FORBIDDEN', WORK_REASONS.capabilityNotSatisfied);
  });

  it('refuses an unknown WorkItem and a Command without a Session Epoch (INVALID_COMMAND)', () => {
    groupSpec.given(offered).when(command(s, WORKER, 'work.accept_offer', { workItemId: 'urn:x:none' })).thenFails('INVALID_COMMAND', 'work-item-unknown');
    groupSpec.given(offered).when(acceptOffer(s, WORKER, {}, { sessionEpoch: undefined })).thenFails('INVALID_COMMAND', WORK_REASONS.sessionEpochRequired);
  });
});
