/**
 * Delivery's view of an Event: the live path reads routing facts from the signed text, the
 * replay path takes them from the stored row; both must send the same bytes in the same order
 * and agree on whether Membership may have changed.
 */

import { describe, expect, it } from 'vitest';
import { attends, deliveryEventOf, replayEventOf } from '../src/delivery/deliveryEvent.js';

function eventText(kind: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ eventId: 'urn:uuid:0b7e1a52-5bd0-4f6e-9a55-2a8f2d9f3f10', groupId: 'urn:missionweave:group:g', sequence: 7, kind, payload: {}, ...extra });
}

describe('delivery events', () => {
  it('replay (from the row) and live (from the text) send identical frame bytes', () => {
    for (const kind of ['message.posted', 'membership.changed', 'mission.coordinator.assigned', 'membership.ended']) {
      const text = eventText(kind);
      const live = deliveryEventOf(text);
      const replayed = replayEventOf('urn:missionweave:group:g', { sequence: 7, eventId: live.eventId, kind, document: text });
      expect(replayed.frame.equals(live.frame)).toBe(true);
      expect([replayed.sequence, replayed.eventId, replayed.kind, replayed.changesMembership]).toEqual([live.sequence, live.eventId, live.kind, live.changesMembership]);
    }
    expect(deliveryEventOf(eventText('membership.changed')).changesMembership).toBe(true);
    expect(deliveryEventOf(eventText('message.posted')).changesMembership).toBe(false);
  });

  it('the frame is the EVENT frame around the unchanged signed text', () => {
    const text = eventText('message.posted');
    const frame = JSON.parse(deliveryEventOf(text).frame.toString('utf8')) as Record<string, unknown>;
    expect(frame).toMatchObject({ frameType: 'EVENT', protocolVersion: '0.1' });
    expect(JSON.stringify(frame['event'])).toBe(text);
  });

  it('a replayed frame is the stored text byte for byte, multi-byte and escaped characters included', () => {
    const eventId = 'urn:uuid:0b7e1a52-5bd0-4f6e-9a55-2a8f2d9f3f10';
    for (const content of ['plain', 'déjà vu « » — 🧵', '\u2028\u2029 "quoted" \\ back']) {
      const text = eventText('message.posted', { payload: { message: { content } } });
      const { frame } = replayEventOf('urn:missionweave:group:g', { sequence: 7, eventId, kind: 'message.posted', document: text });
      const expected = Buffer.concat([Buffer.from('{"event":'), Buffer.from(text, 'utf8'), Buffer.from(`,"frameId":"${eventId}","frameType":"EVENT","protocolVersion":"0.1"}`)]);
      expect(frame.toString('hex')).toBe(expected.toString('hex'));
    }
  });

  it('attention filters read the live facts', () => {
    const text = eventText('message.posted', { conversationId: 'urn:c:1', payload: { message: { mentions: [{ id: 'urn:a:me' }] } } });
    const event = deliveryEventOf(text);
    expect(attends({ mentionsOnly: true }, event, 'urn:a:me')).toBe(true);
    expect(attends({ mentionsOnly: true }, event, 'urn:a:other')).toBe(false);
    expect(attends({ conversationIds: ['urn:c:2'] }, event, 'urn:a:me')).toBe(false);
    expect(attends({ eventKinds: ['message.posted'], conversationIds: ['urn:c:1'] }, event, 'urn:a:me')).toBe(true);
  });

  it('an offer reaches its candidates through any filter, and no one else', () => {
    const offer = deliveryEventOf(eventText('work.offer.created', { workItemId: 'urn:w:1', payload: { workItemId: 'urn:w:1', candidateAgentIds: ['urn:a:me', 'urn:a:too'], workItem: { state: 'offered' } } }));
    for (const filter of [{ mentionsOnly: true }, { workItemIds: ['urn:w:other'] }, { conversationIds: ['urn:c:1'] }, { eventKinds: ['message.posted'] }]) {
      expect(attends(filter, offer, 'urn:a:me')).toBe(true);
      expect(attends(filter, offer, 'urn:a:too')).toBe(true);
      expect(attends(filter, offer, 'urn:a:other')).toBe(false);
    }
  });

  it('a WorkItem Event reaches its owner, and a closed lease reaches its former holder', () => {
    const owned = deliveryEventOf(eventText('work.started', { payload: { workItem: { owner: { agentId: 'urn:a:owner' } }, executionLease: { leaseType: 'execution', holderAgentId: 'urn:a:owner' } } }));
    expect(attends({ mentionsOnly: true }, owned, 'urn:a:owner')).toBe(true);
    expect(attends({ mentionsOnly: true }, owned, 'urn:a:other')).toBe(false);
    const fenced = deliveryEventOf(eventText('work.offer.created', { payload: { candidateAgentIds: ['urn:a:b'], fencedOwnershipLease: { leaseType: 'ownership', holderAgentId: 'urn:a:a' }, revokedLeases: [{ leaseType: 'execution', holderAgentId: 'urn:a:c' }] } }));
    expect([...fenced.addressees].sort()).toEqual(['urn:a:a', 'urn:a:b', 'urn:a:c']);
    expect(attends({ mentionsOnly: true }, fenced, 'urn:a:a')).toBe(true);
  });

  it('addressees are bounded and read only from well-formed members', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => `urn:a:${i}`);
    expect(deliveryEventOf(eventText('work.offer.created', { payload: { candidateAgentIds: many } })).addressees.length).toBe(512);
    const odd = deliveryEventOf(eventText('work.progressed', { payload: { candidateAgentIds: 'urn:a:x', assigneeId: 7, lease: { holderAgentId: 'urn:a:y' }, workItem: null } }));
    expect(odd.addressees).toEqual([]);
    expect(replayEventOf('urn:missionweave:group:g', { sequence: 7, eventId: 'e', kind: 'work.offer.created', document: eventText('work.offer.created') }).addressees).toEqual([]);
  });
});
