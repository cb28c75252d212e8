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

  it('attention filters read the live facts', () => {
    const text = eventText('message.posted', { conversationId: 'urn:c:1', payload: { message: { mentions: [{ id: 'urn:a:me' }] } } });
    const event = deliveryEventOf(text);
    expect(attends({ mentionsOnly: true }, event, 'urn:a:me')).toBe(true);
    expect(attends({ mentionsOnly: true }, event, 'urn:a:other')).toBe(false);
    expect(attends({ conversationIds: ['urn:c:2'] }, event, 'urn:a:me')).toBe(false);
    expect(attends({ eventKinds: ['message.posted'], conversationIds: ['urn:c:1'] }, event, 'urn:a:me')).toBe(true);
  });
});
