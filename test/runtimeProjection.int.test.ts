/**
 * The agent runtime's local projection (runtime/projection.ts, §11.1, §11.5) on real files: the
 * outbox keeps signed Commands byte for byte across a restart and sends unanswered ones again,
 * the inbox drops a second delivery of an Event ID, Cursors only move forward and apply the
 * inbox, and each named bound refuses with its typed reason.
 */

import { describe, expect, it } from 'vitest';
import { projectionFiles } from './support/projectionFiles.js';
import { verifyCommandBytes } from '../src/app/verifyCommand.js';
import { OfflineBuffer } from '../src/client/offlineBuffer.js';
import { ProjectionError } from '../src/client/runtime/projectionErrors.js';
import { sendOutbox } from '../src/client/runtime/projectionSend.js';
import { AgentClientError, MissionWeaveError } from '../src/client/errors.js';
import type { ProtocolEvent } from '../src/client/documents.js';
import { keySigner, signWith } from '../src/client/signer.js';
import { MAX_INBOX_EVENTS_PER_GROUP, MAX_OUTBOX_COMMANDS } from '../src/client/limits.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { KeyRegistry } from '../src/protocol/signing/keyRegistry.js';
import { coreRegistry } from './support/coreDecider.js';
import { makeKey, ORGANIZATION } from './support/keys.js';

const worker = makeKey({ type: 'agent', id: 'urn:missionweave:agent:worker-7' });
const signer = keySigner(worker.signingKey.keyId, worker.signingKey.privateKey);
const registry = KeyRegistry.fromEvidence({ organizationId: ORGANIZATION, bindings: [worker.binding] });
const G1 = 'urn:missionweave:group:g1';
const G2 = 'urn:missionweave:group:g2';
const T0 = Date.parse('2026-07-15T00:00:00.000Z');

const { home, open } = projectionFiles(worker.principal.id, T0, 'agent');

/** Two Commands signed while offline, as the OfflineBuffer makes them (texts). */
async function offlineCommands(): Promise<string[]> {
  const buffer = offlineBuffer();
  const message = await buffer.bufferMessage({ content: 'copied 40% of the rows' }, { modelTokens: 900 });
  const checkpoint = await buffer.bufferCheckpoint({ phase: 'copying', completedMilestones: ['rows 1–4000'] }, { toolCalls: 2 });
  // Key order and spacing as a caller chose them: the outbox must not re-serialise.
  return [JSON.stringify(message, null, 2), JSON.stringify(checkpoint)];
}

function offlineBuffer(): OfflineBuffer {
  return new OfflineBuffer(
    {
      agentId: worker.principal.id,
      groupId: G1,
      workItemId: 'urn:missionweave:work-item:w1',
      conversationId: 'urn:missionweave:conversation:w1',
      sessionEpoch: 1,
      membershipEpoch: 2,
      ownershipEpoch: 1,
      executionLeaseId: 'urn:missionweave:lease:exec-1',
      executionLeaseExpiresAt: '2026-07-15T00:10:00.000Z',
    },
    signer,
    { disconnectedAt: '2026-07-15T00:00:30.000Z', maxGraceSeconds: 300, clock: () => T0 + 60_000 },
  );
}

function event(groupId: string, sequence: number, eventId = `urn:uuid:${groupId.slice(-2)}-${sequence}`): Record<string, unknown> {
  return { eventId, groupId, sequence, type: 'message.posted', payload: { n: sequence } };
}

describe('the durable outbox', () => {
  it('keeps offline-signed Commands byte for byte across a restart and sends the unanswered ones again', async () => {
    const path = home();
    const texts = await offlineCommands();
    const first = open(path);
    const [message, checkpoint] = texts.map((text) => first.outbox.add(text));
    first.outbox.markSent(message!.actionId);
    first.close();

    const second = open(path);
    const toSend = second.outbox.toSend();
    expect(toSend.map((command) => [command.actionId, command.state])).toEqual([
      [message!.actionId, 'sent'],
      [checkpoint!.actionId, 'pending'],
    ]);
    expect(toSend.map((command) => command.bytes.toString('utf8'))).toEqual(texts);
    expect(toSend.map((command) => command.kind)).toEqual(['message.post', 'work.checkpoint']);
    // What comes back is still a Command the Authority's front verifies.
    for (const command of toSend) {
      const verified = verifyCommandBytes(command.bytes, { registry, revision: 1 }, schemaRegistry(), coreRegistry());
      expect(verified.ok, JSON.stringify(verified)).toBe(true);
    }
  });

  it('answers a re-add with the same bytes with the row, and refuses the Action ID with other bytes', async () => {
    const projection = open(home());
    const [text] = await offlineCommands();
    const added = projection.outbox.add(text!);
    expect(projection.outbox.add(Buffer.from(text!))).toEqual(added);
    const changed = text!.replace('copied 40%', 'copied 41%');
    expect(() => projection.outbox.add(changed)).toThrow(expect.objectContaining({ code: 'PROJECTION_FAILED', reason: 'action-id-collision' }));
    expect(projection.outbox.count()).toBe(1);
  });

  it('takes a Command from pending through sent to acked or refused, and never back', async () => {
    const projection = open(home());
    const [a, b] = (await offlineCommands()).map((text) => projection.outbox.add(text));
    expect(projection.outbox.markSent(a!.actionId).state).toBe('sent');
    expect(projection.outbox.markAcked(a!.actionId, 'urn:uuid:e-1')).toMatchObject({ state: 'acked', eventId: 'urn:uuid:e-1' });
    expect(projection.outbox.markRefused(b!.actionId, 'WORK_LEASE_EXPIRED')).toMatchObject({ state: 'refused', refusal: 'WORK_LEASE_EXPIRED' });
    expect(projection.outbox.toSend()).toEqual([]);
    expect(() => projection.outbox.markSent(a!.actionId)).toThrow(expect.objectContaining({ reason: 'stale' }));
    expect(() => projection.outbox.markAcked(b!.actionId)).toThrow(expect.objectContaining({ reason: 'stale' }));
    expect(() => projection.outbox.add('{"actionId":"x"}')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it(`refuses Commands beyond maxOutboxCommands awaiting an answer (default MAX_OUTBOX_COMMANDS = ${MAX_OUTBOX_COMMANDS}); answered ones make room`, async () => {
    const projection = open(home(), { limits: { maxOutboxCommands: 2 } });
    const texts = await offlineCommands();
    const third = (await offlineCommands())[0]!;
    const [a] = texts.map((text) => projection.outbox.add(text));
    const refusal = (() => {
      try {
        projection.outbox.add(third);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(ProjectionError);
    expect(refusal).toMatchObject({ reason: 'outbox-full', path: expect.stringContaining('projection.sqlite') });
    expect((refusal as Error).message).toContain('maxOutboxCommands (2)');
    projection.outbox.markAcked(a!.actionId);
    projection.outbox.add(third);
    expect(projection.outbox.count()).toBe(2);
    expect(projection.outbox.get(a!.actionId)).toBeUndefined();
  });
});

/** A sender that records what it was given and answers from a script. */
function scriptedSender(answers: ((text: string) => ProtocolEvent | Error)[]) {
  const sent: string[] = [];
  return {
    sent,
    sendSigned(text: string): Promise<ProtocolEvent> {
      sent.push(text);
      const answer = (answers.shift() ?? (() => new Error('no answer scripted')))(text);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
}

const refusal = (code: 'WORK_STALE_OWNERSHIP' | 'ACTION_ID_COLLISION' | 'BACKPRESSURE', retryable: boolean) =>
  new MissionWeaveError({ code, message: code, retryable, occurredAt: '2026-07-15T00:00:00.000Z' });

describe('sending the outbox', () => {
  it('sends in order with the kept bytes, stops at an unanswered Command and resends it unchanged after a restart', async () => {
    const path = home();
    const texts = [...(await offlineCommands()), ...(await offlineCommands())];
    const first = open(path);
    const ids = texts.map((text) => first.outbox.add(text).actionId);
    const dropped = scriptedSender([() => ({ eventId: 'urn:uuid:e-1' }) as ProtocolEvent, () => new AgentClientError('CONNECTION_CLOSED', 'the connection closed')]);
    expect(await sendOutbox(first.outbox, dropped)).toEqual([
      { actionId: ids[0], outcome: 'acked', eventId: 'urn:uuid:e-1' },
      { actionId: ids[1], outcome: 'unanswered', error: expect.objectContaining({ code: 'CONNECTION_CLOSED' }) },
    ]);
    expect(dropped.sent).toEqual(texts.slice(0, 2));
    first.close();

    const second = open(path);
    const answered = scriptedSender([() => refusal('ACTION_ID_COLLISION', false), () => refusal('WORK_STALE_OWNERSHIP', false), () => refusal('BACKPRESSURE', true)]);
    expect((await sendOutbox(second.outbox, answered)).map((o) => o.outcome)).toEqual(['acked', 'refused', 'unanswered']);
    expect(answered.sent).toEqual(texts.slice(1));
    expect(second.outbox.get(ids[2]!)).toMatchObject({ state: 'refused', refusal: 'WORK_STALE_OWNERSHIP' });
    expect(second.outbox.toSend().map((c) => [c.actionId, c.state])).toEqual([[ids[3], 'sent']]);
  });
});

describe('a §19 rebase in the outbox', () => {
  it('replaces an offline-buffered Command with its re-signed form under a new Action ID, kept across a restart', async () => {
    const path = home();
    const buffer = offlineBuffer();
    const buffered = await buffer.bufferMessage({ content: 'copied 40% of the rows' }, { modelTokens: 900 });
    const first = open(path);
    const kept = first.outbox.add(JSON.stringify(buffered));
    first.close();

    const second = open(path);
    const sameId = JSON.stringify((await signWith('command', { ...buffered, sessionEpoch: 4 }, signer)).document);
    expect(() => second.outbox.add(sameId)).toThrow(expect.objectContaining({ reason: 'action-id-collision' }));
    // §19: a stale fencing error requires a new Command with a new Action ID and signature.
    expect(() => second.outbox.rebase(kept.actionId, sameId)).toThrow(/needs a new Action ID/);
    const rebased = JSON.stringify((await signWith('command', { ...JSON.parse(sameId), actionId: 'urn:uuid:rebased-1' }, signer)).document);
    expect(second.outbox.rebase(kept.actionId, rebased)).toMatchObject({ actionId: 'urn:uuid:rebased-1', rebasedFrom: kept.actionId, position: kept.position, state: 'pending' });
    second.close();
    const third = open(path);
    const [toSend, ...more] = third.outbox.toSend();
    expect(more).toEqual([]);
    expect(toSend?.bytes.toString('utf8')).toBe(rebased);
    expect(third.outbox.get(kept.actionId)).toBeUndefined();
    expect(JSON.parse(rebased)).toMatchObject({ actionId: 'urn:uuid:rebased-1', correlationId: (buffered as { correlationId: string }).correlationId, sessionEpoch: 4 });
    expect(verifyCommandBytes(toSend!.bytes, { registry, revision: 1 }, schemaRegistry(), coreRegistry()).ok).toBe(true);
    third.outbox.markAcked('urn:uuid:rebased-1');
    expect(() => third.outbox.rebase('urn:uuid:rebased-1', JSON.stringify({ ...JSON.parse(rebased), actionId: 'urn:uuid:rebased-2' }))).toThrow(expect.objectContaining({ reason: 'stale' }));
    expect(() => third.outbox.rebase('urn:uuid:unknown', JSON.stringify({ ...JSON.parse(rebased), actionId: 'urn:uuid:rebased-3' }))).toThrow(/not in the outbox/);
  });
});

describe('the inbox and Cursors', () => {
  it('keeps an Event once: a second delivery of its Event ID is a duplicate, also after a restart', () => {
    const path = home();
    const first = open(path);
    expect(first.inbox.receive(event(G1, 1))).toBe('new');
    expect(first.inbox.receive(event(G1, 1))).toBe('duplicate');
    expect(first.inbox.receive(event(G2, 1))).toBe('new');
    first.close();
    const second = open(path);
    expect(second.inbox.receive(event(G1, 1))).toBe('duplicate');
    expect(second.inbox.unapplied().map((e) => [e.groupId, e.sequence])).toEqual([
      [G1, 1],
      [G2, 1],
    ]);
    expect(second.inbox.unapplied(G1)[0]?.event).toEqual(event(G1, 1));
  });

  it('refuses an Event ID that arrives again at another position', () => {
    const projection = open(home());
    projection.inbox.receive(event(G1, 1, 'urn:uuid:same'));
    expect(() => projection.inbox.receive(event(G1, 2, 'urn:uuid:same'))).toThrow(expect.objectContaining({ reason: 'event-id-collision', groupId: G1 }));
  });

  it('moves a Cursor only forward, applies the inbox up to it, and serves as a CursorStore', async () => {
    const projection = open(home());
    for (const sequence of [1, 2, 3]) projection.inbox.receive(event(G1, sequence));
    expect(await projection.cursors.load(G1)).toBeUndefined();
    await projection.cursors.save(G1, 2);
    await projection.cursors.save(G1, 1);
    expect(await projection.cursors.load(G1)).toBe(2);
    expect(projection.inbox.unapplied(G1).map((e) => e.sequence)).toEqual([3]);
    expect([...projection.cursors.all()]).toEqual([[G1, 2]]);
    await expect(projection.cursors.save(G1, -1)).rejects.toThrow(RangeError);
  });

  it(`prunes applied Events beyond maxInboxEventsPerGroup (default ${MAX_INBOX_EVENTS_PER_GROUP}) and still knows their duplicates by the Cursor`, () => {
    const projection = open(home(), { limits: { maxInboxEventsPerGroup: 3 } });
    for (const sequence of [1, 2, 3]) projection.inbox.receive(event(G1, sequence));
    expect(() => projection.inbox.receive(event(G1, 4))).toThrow(expect.objectContaining({ reason: 'inbox-full', groupId: G1 }));
    // Another Group has its own bound.
    expect(projection.inbox.receive(event(G2, 1))).toBe('new');
    projection.cursors.set(G1, 3);
    for (const sequence of [4, 5]) expect(projection.inbox.receive(event(G1, sequence))).toBe('new');
    expect(projection.inbox.count(G1)).toBe(3);
    expect(projection.inbox.has(event(G1, 1)['eventId'] as string)).toBe(false);
    expect(projection.inbox.receive(event(G1, 1))).toBe('duplicate');
    expect(projection.inbox.unapplied(G1).map((e) => e.sequence)).toEqual([4, 5]);
  });
});
