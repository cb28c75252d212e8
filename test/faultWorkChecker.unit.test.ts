/**
 * The fault suite's WorkItem invariants must catch what they claim to: each is shown a clean
 * hand-built history (no violation) and histories with exactly one fault — a submission by a
 * fenced owner, a renewal that revived a lapsed lease, a verification of a fenced result, an
 * Artifact published by a fenced owner, an offer won twice — and must name it.
 */

import { describe, expect, it } from 'vitest';
import type { Lease, WorkItem } from '../src/domain/documents.js';
import { WORK_LEASES_EXTENSION } from '../src/domain/workItem/workLeases.js';
import type { GroupLog, History, Operation } from '../tools/faults/history.js';
import { checkFencedCompletions, checkLateCommands, checkOfferWins, checkWork } from '../tools/faults/workChecker.js';

const G = 'urn:missionweave:group:g';
const W = 'urn:missionweave:work-item:w';
const A = 'urn:missionweave:agent:a';
const B = 'urn:missionweave:agent:b';
const COORD = 'urn:missionweave:agent:coord';
const at = (s: number) => new Date(Date.UTC(2026, 11, 1, 4, 0, 0) + s * 1000).toISOString();

interface Leases {
  ownership?: Lease;
  execution?: Lease;
}

function lease(id: string, type: Lease['leaseType'], holder: string, epoch: number, expires: number, state: Lease['state'] = 'active', sessionEpoch = 1): Lease {
  return { leaseId: id, leaseType: type, missionId: 'm', groupId: G, workItemId: W, holderAgentId: holder, sessionEpoch, ownershipEpoch: epoch, issuedAt: at(0), startsAt: at(0), expiresAt: at(expires), state, renewalCount: 0 };
}

function item(state: WorkItem['state'], owner?: { agentId: string; epoch: number }, leases: Leases = {}): WorkItem {
  return {
    workItemId: W, missionId: 'm', groupId: G, conversationId: 'c', revision: 1, state, exclusive: true,
    contract: {} as WorkItem['contract'],
    ...(owner === undefined ? {} : { owner: { agentId: owner.agentId, agentCardVersion: 1, capabilityPins: [], ownershipEpoch: owner.epoch, ownershipLeaseId: `own-${owner.epoch}`, acceptedAt: at(0) } }),
    createdBy: { type: 'agent', id: COORD }, createdAt: at(0),
    extensions: { [WORK_LEASES_EXTENSION]: { version: '0.1.0', critical: false, data: leases as never } },
  };
}

/** A Group log told as a story: each step is one Command and its one Event. */
class Story {
  private readonly events: { sequence: number; text: string }[] = [];
  private readonly commands = new Map<string, string>();

  step(second: number, kind: string, actor: string, payload: Record<string, unknown>, command: Record<string, unknown> = {}): this {
    const sequence = this.events.length + 1;
    const cause = `urn:uuid:c${sequence}`;
    this.events.push({ sequence, text: JSON.stringify({ groupId: G, sequence, kind, actor: { type: 'agent', id: actor }, cause: { type: 'command', id: cause }, occurredAt: at(second), payload: { workItemId: W, ...payload } }) });
    this.commands.set(cause, JSON.stringify({ actor: { id: actor }, sessionEpoch: 1, ...command }));
    return this;
  }

  offer(second: number, candidates: string[], expires = second + 60): this {
    return this.step(second, 'work.offer.created', COORD, { candidateAgentIds: candidates, offerExpiresAt: at(expires), workItem: item('offered') });
  }

  accept(second: number, agent: string, epoch: number, ownershipUntil: number): this {
    const ownership = lease(`own-${epoch}`, 'ownership', agent, epoch, ownershipUntil);
    return this.step(second, 'work.offer.accepted', agent, { assigneeId: agent, ownershipEpoch: epoch, ownershipLease: ownership, workItem: item('queued', { agentId: agent, epoch }, { ownership }) });
  }

  start(second: number, agent: string, epoch: number, leaseId: string, until: number, ownershipUntil: number): this {
    const execution = lease(leaseId, 'execution', agent, epoch, until);
    const ownership = lease(`own-${epoch}`, 'ownership', agent, epoch, ownershipUntil);
    return this.step(second, 'work.started', agent, { ownershipEpoch: epoch, executionLease: execution, executionLeaseExpiresAt: at(until), workItem: item('active', { agentId: agent, epoch }, { ownership, execution }) });
  }

  renew(second: number, agent: string, epoch: number, leaseId: string, until: number, ownershipUntil: number): this {
    const execution = { ...lease(leaseId, 'execution', agent, epoch, until), renewalCount: 1 };
    const ownership = lease(`own-${epoch}`, 'ownership', agent, epoch, ownershipUntil);
    return this.step(second, 'work.progressed', agent, { ownershipEpoch: epoch, executionLease: execution, executionLeaseExpiresAt: at(until), workItem: item('active', { agentId: agent, epoch }, { ownership, execution }) }, { payload: { workItemId: W, ownershipEpoch: epoch, executionLeaseId: leaseId } });
  }

  /** The Authority closes an expired lease (a kind this checker does not know by name). */
  expire(second: number, agent: string, epoch: number, leaseId: string, ownershipUntil: number): this {
    const ownership = lease(`own-${epoch}`, 'ownership', agent, epoch, ownershipUntil);
    return this.step(second, 'ext.missionweave.work_lease_expired', 'urn:missionweave:service:authority', { releasedExecutionLease: lease(leaseId, 'execution', agent, epoch, second, 'expired'), workItem: item('queued', { agentId: agent, epoch }, { ownership }) });
  }

  /** `artifact.published` carries no WorkItem: only the epoch and lease it was published under. */
  publish(second: number, agent: string, epoch: number, leaseId: string): this {
    return this.step(second, 'artifact.published', agent, { ownershipEpoch: epoch, executionLeaseId: leaseId, artifact: { contentHash: `sha256:${'0'.repeat(64)}` } });
  }

  submit(second: number, agent: string, epoch: number, leaseId: string, owner = { agentId: agent, epoch }): this {
    return this.step(second, 'work.submitted', agent, { ownershipEpoch: epoch, artifactHashes: [], evidence: [], releasedExecutionLease: lease(leaseId, 'execution', agent, epoch, second, 'released'), workItem: item('submitted', owner) }, { payload: { workItemId: W, ownershipEpoch: epoch, executionLeaseId: leaseId } });
  }

  verify(second: number, owner: { agentId: string; epoch: number }): this {
    return this.step(second, 'work.result.accepted', COORD, { evidence: [], workItem: item('verified', owner) });
  }

  log(): GroupLog {
    return { groupId: G, events: this.events, commands: this.commands };
  }
}

const rules = (violations: { rule: string }[]) => violations.map((v) => v.rule);

/** A race both Workers entered; `a` won epoch 1, ran, was paused past its lease; `b` took over under epoch 2. */
function pausedWorkerStory(): Story {
  return new Story()
    .offer(0, [A, B])
    .accept(1, A, 1, 10)
    .start(2, A, 1, 'exec-a', 4, 10)
    .renew(3, A, 1, 'exec-a', 5, 10)
    // a is paused here: no renewal; the lease lapses at 5, the ownership at 10.
    .expire(6, A, 1, 'exec-a', 10)
    .offer(11, [B])
    .accept(12, B, 2, 30)
    .start(13, B, 2, 'exec-b', 20, 30)
    .publish(13.5, B, 2, 'exec-b')
    .submit(14, B, 2, 'exec-b')
    .verify(15, { agentId: B, epoch: 2 });
}

describe('WorkItem invariants of the fault checker', () => {
  it('a clean history: the paused owner fenced, the second completes under a higher epoch', () => {
    const checks = checkWork([pausedWorkerStory().log()]);
    expect([...checks.fencing, ...checks.offers]).toEqual([]);
    expect(checks.judged).toEqual({ submissions: 1, verifications: 1, renewals: 1, starts: 2, acceptances: 2, publications: 1 });
  });

  it('reports an Artifact published by the fenced owner under its old epoch and lease, and one published after its lease expired', () => {
    const fenced = new Story().offer(0, [A, B]).accept(1, A, 1, 10).start(2, A, 1, 'exec-a', 4, 10).offer(11, [B]).accept(12, B, 2, 30).start(13, B, 2, 'exec-b', 20, 30).publish(14, A, 1, 'exec-a').log();
    const violations = checkFencedCompletions([fenced]);
    expect(rules(violations)).toEqual(['published-by-fenced-owner']);
    expect(violations[0]?.detail).toContain('Ownership Epoch 1, current 2');
    const expired = checkFencedCompletions([new Story().offer(0, [A]).accept(1, A, 1, 60).start(2, A, 1, 'exec-a', 4, 60).publish(9, A, 1, 'exec-a').log()]);
    expect(rules(expired)).toEqual(['published-by-fenced-owner']);
    expect(expired[0]?.detail).toContain('Execution Lease expired');
  });

  it('reports a submission by the fenced owner (old Ownership Epoch) that completed the WorkItem', () => {
    const story = pausedWorkerStory().log();
    // The resumed Worker's late submission was accepted just before the coordinator's review.
    const late = new Story().offer(0, [A, B]).accept(1, A, 1, 10).start(2, A, 1, 'exec-a', 4, 10).offer(11, [B]).accept(12, B, 2, 30).start(13, B, 2, 'exec-b', 20, 30)
      .submit(14, A, 1, 'exec-a', { agentId: B, epoch: 2 }).verify(15, { agentId: B, epoch: 2 }).log();
    expect(checkFencedCompletions([story])).toEqual([]);
    const violations = checkFencedCompletions([late]);
    expect(rules(violations)).toEqual(['completed-by-fenced-owner', 'completed-by-fenced-owner']);
    expect(violations[0]?.detail).toContain('Ownership Epoch 1, current 2');
    expect(violations[1]?.detail).toContain('verified with no current submission');
  });

  it('reports a submission under the current epoch but after its Execution Lease expired (before any sweep closed it)', () => {
    const late = new Story().offer(0, [A]).accept(1, A, 1, 60).start(2, A, 1, 'exec-a', 4, 60).submit(9, A, 1, 'exec-a').log();
    const violations = checkFencedCompletions([late]);
    expect(rules(violations)).toEqual(['completed-by-fenced-owner']);
    expect(violations[0]?.detail).toContain('Execution Lease expired');
    expect(checkFencedCompletions([new Story().offer(0, [A]).accept(1, A, 1, 60).start(2, A, 1, 'exec-a', 4, 60).submit(3, A, 1, 'exec-a').log()])).toEqual([]);
  });

  it('reports a submission citing an older Lease ID under an unchanged epoch, and one citing a lease the Authority closed', () => {
    const older = new Story().offer(0, [A]).accept(1, A, 1, 60).start(2, A, 1, 'exec-1', 30, 60).expire(3, A, 1, 'exec-1', 60).start(4, A, 1, 'exec-2', 30, 60).submit(5, A, 1, 'exec-1').log();
    expect(rules(checkFencedCompletions([older]))).toEqual(['completed-by-fenced-owner']);
    const closed = new Story().offer(0, [A]).accept(1, A, 1, 60).start(2, A, 1, 'exec-1', 30, 60).expire(3, A, 1, 'exec-1', 60).submit(4, A, 1, 'exec-1').log();
    expect(checkFencedCompletions([closed])[0]?.detail).toContain('already closed');
  });

  it('reports a renewal that revived a lapsed Execution Lease, and a submission after the ownership lease lapsed', () => {
    const revived = new Story().offer(0, [A]).accept(1, A, 1, 60).start(2, A, 1, 'exec-a', 4, 60).renew(8, A, 1, 'exec-a', 20, 60).submit(9, A, 1, 'exec-a').log();
    expect(rules(checkFencedCompletions([revived]))).toEqual(['renewed-by-fenced-owner']);
    // Progress reconciled from an offline buffer cites its historical lease by design.
    const offline = new Story().offer(0, [A]).accept(1, A, 1, 60).start(2, A, 1, 'exec-a', 4, 60);
    offline.step(8, 'work.progressed', A, { ownershipEpoch: 1, executionLease: lease('exec-a', 'execution', A, 1, 4), workItem: item('active', { agentId: A, epoch: 1 }) }, { extensions: { 'urn:missionweaveprotocol:extension:bounded-offline-execution': {} } });
    expect(checkFencedCompletions([offline.log()])).toEqual([]);
    const unowned = new Story().offer(0, [A]).accept(1, A, 1, 5).start(2, A, 1, 'exec-a', 30, 5).submit(9, A, 1, 'exec-a').log();
    expect(checkFencedCompletions([unowned])[0]?.detail).toContain('ownership lease active, expiring');
  });

  it('reports a start by the Worker that lost the race', () => {
    const loser = new Story().offer(0, [A, B]).accept(1, A, 1, 60).start(2, B, 1, 'exec-b', 30, 60).log();
    expect(checkFencedCompletions([loser])[0]).toMatchObject({ rule: 'started-by-fenced-owner', detail: expect.stringContaining(`sent by ${B}`) as unknown });
  });

  it('reports an offer won twice: two acceptances of one offer, an epoch reused, a non-candidate, an expired offer', () => {
    expect(checkOfferWins([pausedWorkerStory().log()])).toEqual([]);
    const twice = new Story().offer(0, [A, B]).accept(1, A, 1, 60).accept(1, B, 2, 60).log();
    expect(checkOfferWins([twice])[0]?.detail).toContain('no offer left to win');
    const reused = new Story().offer(0, [A, B]).accept(1, A, 1, 60).offer(2, [B]).accept(3, B, 1, 60).log();
    expect(checkOfferWins([reused])[0]?.detail).toContain('Ownership Epoch 1 after 1');
    const stranger = new Story().offer(0, [A]).accept(1, B, 1, 60).log();
    expect(checkOfferWins([stranger])[0]?.detail).toContain('was not a candidate');
    const expired = new Story().offer(0, [A], 5).accept(6, A, 1, 60).log();
    expect(checkOfferWins([expired])[0]?.detail).toContain('the offer expired');
    expect(rules(checkOfferWins([twice, reused, stranger, expired]))).toEqual(['offer-won-twice', 'offer-won-twice', 'offer-won-twice', 'offer-won-twice']);
  });

  it('a promotion may raise the Ownership Epoch without an offer; nothing may lower it or reuse it', () => {
    const promoted = () => new Story().offer(0, [A]).accept(1, A, 1, 60).step(2, 'mission.child.created', COORD, { workItem: item('blocked', { agentId: COORD, epoch: 2 }) });
    expect(checkOfferWins([promoted().log()])).toEqual([]);
    const reused = promoted().offer(3, [B]).accept(4, B, 2, 60).log();
    expect(checkOfferWins([reused])[0]?.detail).toContain('Ownership Epoch 2 after 2');
    const lowered = promoted().step(3, 'work.unblocked', COORD, { state: 'queued', workItem: item('queued', { agentId: A, epoch: 1 }) }).log();
    expect(checkOfferWins([lowered])[0]?.detail).toContain('Ownership Epoch 1, after 2');
  });

  it("a resumed Worker's late Commands: refused or kept, never completing", () => {
    const story = pausedWorkerStory().log();
    const probe = (id: number, actionId: string): Operation => ({ id, actionId, actorId: A, groupId: G, kind: 'work.submit', invokedAt: 1, probe: 'fenced-owner' });
    const refused: History = { operations: [probe(0, 'urn:uuid:late')], completions: [{ op: 0, at: 2, answer: { type: 'error', code: 'WORK_STALE_OWNERSHIP', retryable: false } }], segments: [], downtimes: [] };
    expect(checkLateCommands(refused, [story])).toEqual({ violations: [], sent: 1, refused: 1, kept: 0, refusedWith: { WORK_STALE_OWNERSHIP: 1 } });
    // Its Command is the one that caused the submission at sequence 10 (cause urn:uuid:c10).
    const completed: History = { ...refused, operations: [probe(0, 'urn:uuid:c10')], completions: [{ op: 0, at: 2, answer: { type: 'event', events: [] } }] };
    const late = checkLateCommands(completed, [story]);
    expect(rules(late.violations)).toEqual(['completed-by-fenced-owner']);
    expect(late.kept).toBe(1);
  });
});
