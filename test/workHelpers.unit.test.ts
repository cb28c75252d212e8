/**
 * The SDK's work helpers against a scripted Agent (no server): offers learnt from Events and
 * handed over beside the Event stream, the Commands each step sends (epochs and the current
 * Lease ID cited), an execution told its lease is lost by an Event that fences it, by a new
 * Session or by a refused submission, a throwing handler's failure reported with signed
 * failure Evidence, and the epochs learnt from the Group's Events.
 */

import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MissionWeaveAgent } from '../src/client/agent.js';
import type { CommandOptions } from '../src/client/commands.js';
import type { GroupEvent, ProtocolEvent } from '../src/client/documents.js';
import { MissionWeaveError } from '../src/client/errors.js';
import { GroupEpochs } from '../src/client/groupEpochs.js';
import { keySigner, signingBytes } from '../src/client/signer.js';
import { MissionWeaveWorker, type WorkOffer } from '../src/client/worker.js';
import { LEASE_RENEW_KIND, WORK_LEASES_EXTENSION } from '../src/client/workDocuments.js';
import { decodeBase64url } from '../src/protocol/base64url.js';

const ME = 'urn:missionweave:agent:me';
const GROUP = 'urn:missionweave:group:g';
const ITEM = 'urn:missionweave:work-item:w';
const keys = generateKeyPairSync('ed25519');
let sequence = 10;

function event(kind: string, payload: Record<string, unknown>, at = Date.now()): GroupEvent {
  sequence++;
  const stamp = new Date(at).toISOString();
  return {
    protocolVersion: '0.1', eventId: `urn:uuid:e-${sequence}`, groupId: GROUP, sequence, kind, actor: { type: 'agent', id: ME },
    cause: { type: 'command', id: `urn:uuid:c-${sequence}` }, correlationId: 'urn:uuid:x', occurredAt: stamp, payload: payload as GroupEvent['payload'],
    acceptedBy: { type: 'service', id: 'urn:missionweave:service:authority' }, signature: { algorithm: 'Ed25519', keyId: 'k', createdAt: stamp, value: 'x' },
  } as GroupEvent;
}

function lease(leaseId: string, seconds: number, holder = ME, state = 'active') {
  return { leaseId, leaseType: 'execution', workItemId: ITEM, holderAgentId: holder, sessionEpoch: 1, ownershipEpoch: 2, issuedAt: new Date().toISOString(), expiresAt: new Date(Date.now() + seconds * 1000).toISOString(), state, renewalCount: 0 };
}

function workItem(state: string, revision: number, extra: Record<string, unknown> = {}) {
  return {
    workItemId: ITEM, missionId: 'urn:missionweave:mission:m', groupId: GROUP, conversationId: 'urn:c', revision, state,
    contract: { acceptanceCriteria: [{ criterionId: 'c1', description: 'd', evidenceRequired: ['deterministic_test'] }] },
    owner: { agentId: ME, ownershipEpoch: 2, ownershipLeaseId: 'urn:o', acceptedAt: new Date().toISOString() }, ...extra,
  };
}

const started = (leaseId = 'urn:lease:1', seconds = 60) =>
  event('work.started', { workItemId: ITEM, ownershipEpoch: 2, executionLease: lease(leaseId, seconds), executionLeaseExpiresAt: lease(leaseId, seconds).expiresAt, workItem: workItem('active', 3, { extensions: { [WORK_LEASES_EXTENSION]: { data: { execution: lease(leaseId, seconds) } } } }) });

/** A stand-in Agent: records Commands, answers them with `answers`, delivers Events to its handlers. */
function scriptedAgent(answers: Record<string, (payload: Record<string, unknown>) => ProtocolEvent | Error>) {
  const handlers: ((e: GroupEvent, g: string) => unknown)[] = [];
  const changes: ((c: { state: string; sessionEpoch?: number }) => void)[] = [];
  const calls: { kind: string; payload: Record<string, unknown>; options: CommandOptions | undefined }[] = [];
  const agent = {
    agentId: ME,
    sessionEpoch: 1,
    signer: keySigner('urn:key:me', keys.privateKey),
    onEvent: (h: (e: GroupEvent, g: string) => unknown) => (handlers.push(h), () => undefined),
    onConnectionChange: (h: (c: { state: string; sessionEpoch?: number }) => void) => (changes.push(h), () => undefined),
    async command(kind: string, payload: Record<string, unknown>, options?: CommandOptions) {
      calls.push({ kind, payload, options });
      const answer = answers[kind]?.(payload) ?? new Error(`no answer for ${kind}`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return {
    agent: agent as unknown as MissionWeaveAgent,
    calls,
    deliver: async (e: GroupEvent) => {
      for (const h of handlers) await h(e, e.groupId);
    },
    newSession: (sessionEpoch: number) => changes.forEach((h) => h({ state: 'open', sessionEpoch })),
  };
}

const refusal = (code: 'WORK_LEASE_EXPIRED' | 'WORK_STALE_OWNERSHIP') => new MissionWeaveError({ code, message: code, retryable: false, occurredAt: new Date().toISOString() });
const offerEvent = (candidates: string[], expiresInMs = 60_000) =>
  event('work.offer.created', { workItemId: ITEM, workItem: workItem('offered', 2), candidateAgentIds: candidates, offerExpiresAt: new Date(Date.now() + expiresInMs).toISOString(), selectionBasis: {} });

describe('MissionWeaveWorker offers', () => {
  it('hands over a live offer naming this Agent, beside the Event stream, and nothing else', async () => {
    const { agent, deliver } = scriptedAgent({});
    const worker = new MissionWeaveWorker(agent);
    const offers: WorkOffer[] = [];
    let release: () => void = () => undefined;
    worker.onOffer(async (offer) => {
      offers.push(offer);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await deliver(offerEvent(['urn:missionweave:agent:other']));
    await deliver(offerEvent([ME], -1));
    await deliver(offerEvent(['urn:missionweave:agent:other', ME]));
    // The stream went on although the handler is still waiting.
    await deliver(event('message.posted', {}));
    await new Promise((resolve) => setImmediate(resolve));
    expect(offers.map((o) => [o.workItemId, o.groupId])).toEqual([[ITEM, GROUP]]);
    expect(worker.offers()).toHaveLength(1);
    release();
    await deliver(event('work.offer.accepted', { workItemId: ITEM, workItem: workItem('queued', 3) }));
    expect(worker.offers()).toHaveLength(0);
  });
});

describe('MissionWeaveWorker.run', () => {
  it('accepts, starts and renews citing the epochs and the current Lease ID; a submit stops renewal', async () => {
    const { agent, calls, deliver } = scriptedAgent({
      'work.accept_offer': () => event('work.offer.accepted', { workItemId: ITEM, ownershipEpoch: 2, workItem: workItem('queued', 2) }),
      'work.start': () => started('urn:lease:1', 1),
      [LEASE_RENEW_KIND]: () => event('work.progressed', { workItemId: ITEM, ownershipEpoch: 2, executionLease: lease('urn:lease:1', 1), executionLeaseExpiresAt: lease('urn:lease:1', 1).expiresAt }),
      'work.submit': () => event('work.submitted', { workItemId: ITEM, workItem: workItem('submitted', 9) }),
    });
    const worker = new MissionWeaveWorker(agent, { executionLeaseSeconds: 1, ownershipLeaseSeconds: 5 });
    await deliver(event('membership.changed', { membership: { member: { type: 'agent', id: ME }, membershipEpoch: 4, state: 'active' } }));
    const offer = { groupId: GROUP, workItemId: ITEM } as WorkOffer;
    await worker.run(offer, async (execution) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(execution.renewals).toBeGreaterThanOrEqual(1);
      expect(execution.signal.aborted).toBe(false);
      const evidence = await execution.evidence({ type: 'deterministic_test', criterionIds: ['c1'], method: 'ran it', result: 'passed' });
      await execution.submit({ artifactHashes: ['sha256:' + '0'.repeat(64)], evidence: [evidence] });
    });
    const renewalsAtEnd = calls.filter((c) => c.kind === LEASE_RENEW_KIND).length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(calls.filter((c) => c.kind === LEASE_RENEW_KIND)).toHaveLength(renewalsAtEnd);
    expect(calls[0]).toMatchObject({ kind: 'work.accept_offer', payload: { workItemId: ITEM, ownershipLeaseSeconds: 5 }, options: { groupId: GROUP, membershipEpoch: 4 } });
    expect(calls[1]).toMatchObject({ kind: 'work.start', payload: { workItemId: ITEM, ownershipEpoch: 2, executionLeaseSeconds: 1 } });
    expect(calls[2]).toMatchObject({ kind: LEASE_RENEW_KIND, payload: { workItemId: ITEM, ownershipEpoch: 2, executionLeaseId: 'urn:lease:1', leaseSeconds: 1 }, options: { membershipEpoch: 4 } });
    expect(calls.at(-1)).toMatchObject({ kind: 'work.submit', payload: { ownershipEpoch: 2, executionLeaseId: 'urn:lease:1' } });
  });

  it('a throwing handler reports work.fail citing the lease with a signed failure_report, then rethrows', async () => {
    const { agent, calls } = scriptedAgent({
      'work.start': () => started(),
      'work.fail': () => event('work.failed', { workItemId: ITEM, workItem: workItem('failed', 9) }),
    });
    const worker = new MissionWeaveWorker(agent);
    await expect(worker.run({ groupId: GROUP, workItemId: ITEM, ownershipEpoch: 2 } as never, async () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
    const fail = calls.find((c) => c.kind === 'work.fail');
    expect(fail?.payload).toMatchObject({ workItemId: ITEM, ownershipEpoch: 2, executionLeaseId: 'urn:lease:1', reason: 'disk full' });
    const [report] = fail?.payload['evidence'] as Record<string, unknown>[];
    expect(report).toMatchObject({ type: 'failure_report', result: 'failed', criterionIds: ['c1'], workItemId: ITEM, generatedBy: { type: 'agent', id: ME } });
    const signature = (report as { signature: { value: string } }).signature.value;
    expect(verify(null, signingBytes(report as Record<string, unknown>), keys.publicKey, decodeBase64url(signature) as Buffer)).toBe(true);
  });
});

describe('WorkExecution loses its lease', () => {
  async function running(answers: Parameters<typeof scriptedAgent>[0] = {}) {
    const script = scriptedAgent({ 'work.start': () => started(), ...answers });
    const worker = new MissionWeaveWorker(script.agent);
    const execution = await worker.start({ groupId: GROUP, workItemId: ITEM, ownershipEpoch: 2 } as never);
    return { ...script, execution };
  }

  it('when an Event shows another owner under a higher Ownership Epoch (an older Event does not count)', async () => {
    const { execution, deliver } = await running();
    const before = event('work.offer.accepted', { workItemId: ITEM, workItem: workItem('queued', 2) });
    (before as { sequence: number }).sequence = 1;
    await deliver(before);
    expect(execution.signal.aborted).toBe(false);
    await deliver(event('work.offer.accepted', { workItemId: ITEM, workItem: workItem('queued', 7, { owner: { agentId: 'urn:missionweave:agent:b', ownershipEpoch: 3 } }) }));
    expect(execution.signal.reason).toMatchObject({ code: 'LEASE_LOST', reason: 'fenced' });
  });

  it('when an Event shows its Execution Lease closed', async () => {
    const { execution, deliver } = await running();
    const closed = { [WORK_LEASES_EXTENSION]: { data: { execution: lease('urn:lease:1', 0, ME, 'expired') } } };
    await deliver(event('work.progressed', { workItemId: ITEM, workItem: workItem('active', 4, { extensions: closed }) }));
    expect(execution.signal.reason).toMatchObject({ reason: 'fenced' });
  });

  it('describes itself for an OfflineBuffer with the lease it holds now', async () => {
    const { execution, deliver } = await running();
    expect(execution.offlineExecution()).toBeUndefined();
    await deliver(event('membership.changed', { membership: { member: { type: 'agent', id: ME }, membershipEpoch: 4, state: 'active' } }));
    expect(execution.offlineExecution()).toMatchObject({ agentId: ME, groupId: GROUP, workItemId: ITEM, conversationId: 'urn:c', sessionEpoch: 1, membershipEpoch: 4, ownershipEpoch: 2, executionLeaseId: 'urn:lease:1' });
    execution.stop();
  });

  it('when a new Session replaces the one that holds it', async () => {
    const { execution, newSession } = await running();
    newSession(1);
    expect(execution.signal.aborted).toBe(false);
    newSession(2);
    expect(execution.signal.reason).toMatchObject({ reason: 'session_replaced' });
  });

  it('when its late submission is refused: the refusal reaches the caller too', async () => {
    const { execution } = await running({ 'work.submit': () => refusal('WORK_STALE_OWNERSHIP') });
    await expect(execution.submit({ artifactHashes: [], evidence: [] })).rejects.toMatchObject({ code: 'WORK_STALE_OWNERSHIP' });
    expect(execution.signal.reason).toMatchObject({ reason: 'refused', cause: { code: 'WORK_STALE_OWNERSHIP' } });
    execution.stop();
  });
});

describe('GroupEpochs', () => {
  it('learns its own Membership Epoch and the Coordinator Epoch from the Group Events', () => {
    const epochs = new GroupEpochs(ME);
    epochs.observe(event('mission.created', { mission: { coordinator: { coordinatorEpoch: 1 } }, memberships: [{ member: { id: 'urn:x' }, membershipEpoch: 9 }, { member: { id: ME }, membershipEpoch: 1, state: 'active' }] }));
    expect(epochs.facts(GROUP)).toEqual({ membershipEpoch: 1, coordinatorEpoch: 1 });
    epochs.observe(event('mission.coordinator.renewed', { coordinatorEpoch: 2 }));
    epochs.observe(event('membership.changed', { membership: { member: { id: ME }, membershipEpoch: 3, state: 'active' } }));
    epochs.observe(event('membership.changed', { membership: { member: { id: 'urn:y' }, membershipEpoch: 8, state: 'active' } }));
    expect(epochs.facts(GROUP)).toEqual({ membershipEpoch: 3, coordinatorEpoch: 2 });
    epochs.observe(event('membership.ended', { membership: { member: { id: ME }, membershipEpoch: 3, state: 'ended' } }));
    expect(epochs.facts(GROUP)?.membershipEpoch).toBeUndefined();
  });
});
