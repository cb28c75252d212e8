/**
 * Bounded offline execution (§11.5) on the real pipeline and PostgreSQL: progress the SDK's
 * OfflineBuffer signed while disconnected, rebased into the Worker's next Session, reaches the
 * decider through the front and the crypto workers (the binding is interpreted, its data held to
 * its schema); a Message buffered under a real Execution Lease is posted with its charge first, in
 * one transaction; an overflow stores neither; an accepted one whose answer was lost is sent again
 * unchanged on the next reconnect (its receipt) instead of being rebased and charged twice.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Submission } from '../src/app/groupAuthority.js';
import type { ProtocolEvent } from '../src/client/documents.js';
import { AgentClientError, MissionWeaveError, type ErrorDocument } from '../src/client/errors.js';
import { OfflineBuffer, type OfflineExecution } from '../src/client/offlineBuffer.js';
import { keySigner } from '../src/client/signer.js';
import { OFFLINE_EXECUTION_EXTENSION } from '../src/protocol/offlineExecution.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { world } from './support/world.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, worker } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {}, worker: ['acme.sql-migration@1.5.0'] } }));
});

interface Work {
  readonly m: MissionRefs;
  readonly workItemId: string;
  readonly conversationId: string;
}

/** A Mission with the Worker as a member and one WorkItem the Worker does not own. */
async function unownedWork(): Promise<Work> {
  const m = await createMission(h, owner, coordinator);
  await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: m.groupId, membershipEpoch: 1 }));
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(h.clock.millis + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 80, modelTokenLimit: 10_000 } };
  const authorized = await h.expectOk(h.send(coordinator, 'work.authorize', { workItemId, contract }, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
  const event = JSON.parse(authorized.events[0]?.text ?? '{}') as { payload: { workItem: { conversationId: string } } };
  return { m, workItemId, conversationId: event.payload.workItem.conversationId };
}

interface StartedLease {
  readonly leaseId: string;
  readonly expiresAt: string;
}

/** `work` offered to, accepted and started by the Worker: its Execution Lease. */
async function start(work: Work): Promise<StartedLease> {
  const asCoordinator = { groupId: work.m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 };
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await h.expectOk(h.send(coordinator, 'work.offer', { workItemId: work.workItemId, candidateAgentIds: [worker.principal.id], selectionBasis }, asCoordinator));
  await h.expectOk(h.send(worker, 'work.accept_offer', { workItemId: work.workItemId }, { groupId: work.m.groupId, membershipEpoch: 1 }));
  const started = await h.expectOk(h.send(worker, 'work.start', { workItemId: work.workItemId, ownershipEpoch: 1 }, { groupId: work.m.groupId, membershipEpoch: 1 }));
  return (JSON.parse(started.events[0]?.text ?? '{}') as { payload: { executionLease: StartedLease } }).payload.executionLease;
}

function bufferFor(work: Work, leaseId = 'urn:missionweave:lease:never-held', leaseExpiresAt?: string): OfflineBuffer {
  const execution: OfflineExecution = {
    agentId: worker.principal.id,
    groupId: work.m.groupId,
    workItemId: work.workItemId,
    conversationId: work.conversationId,
    sessionEpoch: worker.sessionEpoch ?? 1,
    membershipEpoch: 1,
    ownershipEpoch: 1,
    executionLeaseId: leaseId,
    executionLeaseExpiresAt: leaseExpiresAt ?? new Date(h.clock.millis + 600_000).toISOString(),
  };
  return new OfflineBuffer(execution, keySigner(worker.key.keyId, worker.key.privateKey), { maxGraceSeconds: 300, disconnectedAt: new Date(h.clock.millis).toISOString(), clock: () => h.clock.millis });
}

async function reconnectAndRebase(buffer: OfflineBuffer): Promise<JsonObject[]> {
  const sessionEpoch = await h.openSession(worker);
  return (await buffer.rebase({ sessionEpoch, membershipEpoch: 1 })).map((text) => JSON.parse(text) as JsonObject);
}

describe('a buffered Command on the real pipeline', () => {
  it('is interpreted, not refused as an unknown critical extension, and judged against the WorkItem: an unowned one refuses it and nothing is stored', async () => {
    const work = await unownedWork();
    const buffer = bufferFor(work);
    await buffer.bufferMessage({ content: 'copied 40% of the rows' }, { toolCalls: 2 });
    const [rebased] = await reconnectAndRebase(buffer);
    const before = await count(h.pool, 'events', 'group_id = $1', [work.m.groupId]);
    const outcome = await h.authority.submit(rebased as JsonObject);
    expect(outcome.ok ? 'accepted' : [outcome.error.code, outcome.error.message]).toEqual(['INVALID_STATE_TRANSITION', 'offline progress cannot reconcile into a WorkItem in state open']);
    expect(await count(h.pool, 'events', 'group_id = $1', [work.m.groupId])).toBe(before);
  });

  it('refuses binding data that breaks its schema (SCHEMA_VALIDATION_FAILED) and a binding on a kind that cannot be buffered (INVALID_COMMAND)', async () => {
    const work = await unownedWork();
    const buffer = bufferFor(work);
    await buffer.bufferMessage({ content: 'x' });
    const [rebased] = await reconnectAndRebase(buffer);
    const extensions = (rebased as { extensions: Record<string, { data: JsonObject }> }).extensions;
    const broken = { ...extensions[OFFLINE_EXECUTION_EXTENSION], data: { ...extensions[OFFLINE_EXECUTION_EXTENSION]?.data, bufferedAt: 'yesterday' } };
    const schemaRefused = await h.send(worker, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: work.conversationId, content: 'x' }, { groupId: work.m.groupId, membershipEpoch: 1, extensions: { [OFFLINE_EXECUTION_EXTENSION]: broken } as JsonObject });
    expect(schemaRefused.ok ? 'accepted' : schemaRefused.error.code).toBe('SCHEMA_VALIDATION_FAILED');
    const posted = await h.expectOk(h.send(worker, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: work.conversationId, content: 'x' }, { groupId: work.m.groupId, membershipEpoch: 1 }));
    const messageId = (JSON.parse(posted.events[0]?.text ?? '{}') as { payload: { message: { messageId: string } } }).payload.message.messageId;
    const wrongKind = await h.send(worker, 'message.retract', { amendmentId: `urn:uuid:${randomUUID()}`, messageId, reason: 'typo' }, { groupId: work.m.groupId, membershipEpoch: 1, extensions: extensions as unknown as JsonObject });
    expect(wrongKind.ok ? 'accepted' : [wrongKind.error.code, wrongKind.error.message]).toEqual(['INVALID_COMMAND', 'message.retract cannot be buffered offline']);
    expect((await eventsOf(h.pool, work.m.groupId)).map((e) => e['kind'])).not.toContain('message.retracted');
  });
});

/** Sends through the Authority as `agent.sendSigned` would; `lose` drops the answer to the next Command the Authority applies. */
function authoritySender(): { sendSigned(text: string): Promise<ProtocolEvent>; lose: boolean; submissions: Submission[] } {
  const sender = {
    lose: false,
    submissions: [] as Submission[],
    async sendSigned(text: string): Promise<ProtocolEvent> {
      const outcome = await h.authority.submit(JSON.parse(text) as JsonObject);
      sender.submissions.push(outcome);
      if (!outcome.ok) throw new MissionWeaveError(outcome.error as ErrorDocument);
      if (sender.lose) {
        sender.lose = false;
        throw new AgentClientError('CONNECTION_CLOSED', 'the answer was lost');
      }
      return JSON.parse(outcome.events[0]?.text ?? '{}') as ProtocolEvent;
    },
  };
  return sender;
}

describe('reconciliation under a real Execution Lease', () => {
  it('posts the Message after its charge in one transaction, refuses an overflow whole, and never charges twice', async () => {
    const work = await unownedWork();
    const lease = await start(work);
    const executionSession = worker.sessionEpoch;
    const buffer = bufferFor(work, lease.leaseId, lease.expiresAt);
    h.clock.advance(2);
    const buffered = await buffer.bufferMessage({ content: 'copied 40% of the rows' }, { financialMicrounits: 2_000_000, modelTokens: 500 });
    h.clock.advance(2);
    await buffer.bufferMessage({ content: 'copied the rest' }, { financialMicrounits: 79_000_000 });
    h.clock.advance(2);
    const sessionEpoch = await h.openSession(worker);
    expect(sessionEpoch).toBeGreaterThan(executionSession ?? 0);
    const before = await count(h.pool, 'events', 'group_id = $1', [work.m.groupId]);
    const sender = authoritySender();
    sender.lose = true;
    const lost = await buffer.reconcile(sender, { sessionEpoch, membershipEpoch: 1 });
    // Applied, its answer lost: the overflow after it is not sent yet.
    expect(lost.map((o) => o.outcome)).toEqual(['unanswered']);
    const [accepted] = sender.submissions;
    expect(accepted?.ok).toBe(true);
    const events = (accepted?.ok === true ? accepted.events : []).map((e) => JSON.parse(e.text) as { kind: string; sequence: number; cause: { id: string }; payload: JsonObject });
    // §19: rebased under a new Action ID, not the one it was buffered under.
    expect(events[0]?.cause.id).toBe(lost[0]?.actionId);
    expect(lost[0]?.actionId).not.toBe(buffered['actionId']);
    expect(events.map((e) => e.kind)).toEqual(['ext.missionweaveprotocol.core.resource_usage_recorded', 'message.posted']);
    expect(events[1]!.sequence).toBe(events[0]!.sequence + 1);
    expect(events[0]!.payload).toMatchObject({
      workItemId: work.workItemId,
      executionLeaseId: lease.leaseId,
      usageDelta: { financialMicrounits: 2_000_000, modelTokens: 500 },
      cumulativeUsage: { financialMicrounits: 2_000_000, modelTokens: 500 },
      remainingBudget: { financialMicrounits: 78_000_000, modelTokens: 9_500 },
      missionUsage: { missionId: work.m.missionId, remainingBudget: { financialMicrounits: 498_000_000, modelTokens: 999_500 } },
      offlineReconciliation: { executionSessionEpoch: executionSession, reconciliationSessionEpoch: sessionEpoch },
    });
    expect(await count(h.pool, 'events', 'group_id = $1', [work.m.groupId])).toBe(before + 2);

    // Another reconnect: the applied one is sent again unchanged and answered with its receipt (not
    // rebased, not charged again); the overflow, rebased under a new Session, is refused whole.
    const next = await h.openSession(worker);
    const outcomes = await buffer.reconcile(sender, { sessionEpoch: next, membershipEpoch: 1 });
    expect(outcomes.map((o) => (o.outcome === 'refused' ? o.error.code : o.outcome))).toEqual(['accepted', 'BUDGET_EXCEEDED']);
    expect(outcomes[0]?.actionId).toBe(lost[0]?.actionId);
    expect(outcomes[0]?.outcome === 'accepted' && outcomes[0].event.eventId).toBe(JSON.parse(accepted?.ok === true ? accepted.events[0]!.text : '{}').eventId);
    expect(await count(h.pool, 'events', 'group_id = $1', [work.m.groupId])).toBe(before + 2);
    expect(await count(h.pool, 'events', "group_id = $1 and kind = 'ext.missionweaveprotocol.core.resource_usage_recorded'", [work.m.groupId])).toBe(1);
  });
});
