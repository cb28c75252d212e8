/**
 * Delivery's view of an Event: the live path reads routing facts from the signed text, the
 * replay path frames the stored bytes (`replayPage.ts`); both must send the same bytes in the
 * same order and agree on whether Membership may have changed.
 */

import { describe, expect, it } from 'vitest';
import { attends, changesMembership, deliveryEventOf } from '../src/delivery/deliveryEvent.js';
import { createRequire } from 'node:module';
import { FrameAssembler, readReplayPage } from '../src/delivery/replayPage.js';
import { payloadOf, wireFrameOf } from '../src/delivery/wireFrame.js';
import type { StoredEventBytes } from '../src/store/sql/replayRows.js';
import { coreRegistry } from './support/coreDecider.js';
import { KindRegistry } from '../src/domain/kinds/kindRegistry.js';
import { defineEvent, type AnyGroupKind } from '../src/domain/kinds/kindTypes.js';
import { membershipEnd } from '../src/domain/membership/membershipEnd.js';
import { buildKindRegistry } from '../src/domain/coreModules.js';
import { MAX_PROFILE_FACT_IDS, type AnyExtensionProfile } from '../src/domain/kinds/profile.js';
import { tallyAdd, tallyProfile } from './support/tallyProfile.js';

const coreKinds = coreRegistry();

/** A served Event as the store hands it: ranges of a message buffer, with bytes around them. */
function storedBytes(sequence: number, eventId: string, kind: string, document: string): StoredEventBytes {
  const id = Buffer.from(eventId, 'utf8');
  const text = Buffer.from(document, 'utf8');
  const bytes = Buffer.concat([Buffer.from('\x00\x04junk'), id, Buffer.from([0xff, 0xff]), text, Buffer.from('tail')]);
  const eventIdStart = 6;
  const documentStart = eventIdStart + id.length + 2;
  return { sequence, kind, bytes, eventIdStart, eventIdEnd: eventIdStart + id.length, documentStart, documentEnd: documentStart + text.length };
}

/** Frames one stored Event as replay does; the EVENT frame's bytes, without the WebSocket header. */
function replayFrame(eventId: string, kind: string, document: string, assembler = new FrameAssembler()): Buffer {
  return payloadOf(assembler.wire(storedBytes(7, eventId, kind, document)));
}

/** ws's own frame parser (not in its type declarations). */
const { Receiver } = createRequire(import.meta.url)('ws') as {
  Receiver: new (options: { isServer: boolean; maxPayload: number }) => { on(event: string, listener: (...args: never[]) => void): void; write(bytes: Buffer): void };
};

/** What a WebSocket client reads from these bytes: each text message, in order. */
function received(bytes: Buffer): string[] {
  const messages: string[] = [];
  const receiver = new Receiver({ isServer: false, maxPayload: 0 });
  receiver.on('message', (data: Buffer, isBinary: boolean) => messages.push(isBinary ? 'binary!' : data.toString('utf8')));
  receiver.on('error', (error: Error) => messages.push(`error: ${error.message}`));
  receiver.write(bytes);
  return messages;
}

function eventText(kind: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ eventId: 'urn:uuid:0b7e1a52-5bd0-4f6e-9a55-2a8f2d9f3f10', groupId: 'urn:missionweave:group:g', sequence: 7, kind, payload: {}, ...extra });
}

describe('delivery events', () => {
  it('replay (from the row) and live (from the text) send identical frame bytes', () => {
    for (const kind of ['message.posted', 'membership.changed', 'mission.coordinator.assigned', 'membership.ended']) {
      const text = eventText(kind);
      const live = deliveryEventOf(coreKinds, text);
      expect(replayFrame(live.eventId, kind, text).equals(live.frame)).toBe(true);
      expect(changesMembership(coreKinds, kind)).toBe(live.changesMembership);
    }
    expect(deliveryEventOf(coreKinds, eventText('membership.changed')).changesMembership).toBe(true);
    expect(deliveryEventOf(coreKinds, eventText('message.posted')).changesMembership).toBe(false);
  });

  it('the frame is the EVENT frame around the unchanged signed text', () => {
    const text = eventText('message.posted');
    const frame = JSON.parse(deliveryEventOf(coreKinds, text).frame.toString('utf8')) as Record<string, unknown>;
    expect(frame).toMatchObject({ frameType: 'EVENT', protocolVersion: '0.1' });
    expect(JSON.stringify(frame['event'])).toBe(text);
  });

  it('a replayed frame is the stored text byte for byte, multi-byte and escaped characters included', () => {
    const eventId = 'urn:uuid:0b7e1a52-5bd0-4f6e-9a55-2a8f2d9f3f10';
    for (const content of ['plain', 'déjà vu « » — 🧵', '\u2028\u2029 "quoted" \\ back']) {
      const text = eventText('message.posted', { payload: { message: { content } } });
      const frame = replayFrame(eventId, 'message.posted', text);
      const expected = Buffer.concat([Buffer.from('{"event":'), Buffer.from(text, 'utf8'), Buffer.from(`,"frameId":"${eventId}","frameType":"EVENT","protocolVersion":"0.1"}`)]);
      expect(frame.toString('hex')).toBe(expected.toString('hex'));
    }
  });

  it('attention filters read the live facts', () => {
    const text = eventText('message.posted', { conversationId: 'urn:c:1', payload: { message: { mentions: [{ id: 'urn:a:me' }] } } });
    const event = deliveryEventOf(coreKinds, text);
    expect(attends({ mentionsOnly: true }, event, 'urn:a:me')).toBe(true);
    expect(attends({ mentionsOnly: true }, event, 'urn:a:other')).toBe(false);
    expect(attends({ conversationIds: ['urn:c:2'] }, event, 'urn:a:me')).toBe(false);
    expect(attends({ eventKinds: ['message.posted'], conversationIds: ['urn:c:1'] }, event, 'urn:a:me')).toBe(true);
  });

  it('an offer reaches its candidates through any filter, and no one else', () => {
    const offer = deliveryEventOf(coreKinds, eventText('work.offer.created', { workItemId: 'urn:w:1', payload: { workItemId: 'urn:w:1', candidateAgentIds: ['urn:a:me', 'urn:a:too'], workItem: { state: 'offered' } } }));
    for (const filter of [{ mentionsOnly: true }, { workItemIds: ['urn:w:other'] }, { conversationIds: ['urn:c:1'] }, { eventKinds: ['message.posted'] }]) {
      expect(attends(filter, offer, 'urn:a:me')).toBe(true);
      expect(attends(filter, offer, 'urn:a:too')).toBe(true);
      expect(attends(filter, offer, 'urn:a:other')).toBe(false);
    }
  });

  it('a WorkItem Event reaches its owner, and a closed lease reaches its former holder', () => {
    const owned = deliveryEventOf(coreKinds, eventText('work.started', { payload: { workItem: { owner: { agentId: 'urn:a:owner' } }, executionLease: { leaseType: 'execution', holderAgentId: 'urn:a:owner' } } }));
    expect(attends({ mentionsOnly: true }, owned, 'urn:a:owner')).toBe(true);
    expect(attends({ mentionsOnly: true }, owned, 'urn:a:other')).toBe(false);
    const fenced = deliveryEventOf(coreKinds, eventText('work.offer.created', { payload: { candidateAgentIds: ['urn:a:b'], fencedOwnershipLease: { leaseType: 'ownership', holderAgentId: 'urn:a:a' }, revokedLeases: [{ leaseType: 'execution', holderAgentId: 'urn:a:c' }] } }));
    expect([...fenced.addressees].sort()).toEqual(['urn:a:a', 'urn:a:b', 'urn:a:c']);
    expect(attends({ mentionsOnly: true }, fenced, 'urn:a:a')).toBe(true);
  });

  it('recipients and mentions come only from the Event type the registry holds, never from payload shapes', () => {
    const pinged = defineEvent<{ to: string[]; cc: string[] }>()({
      kind: 'ext.missionweave.test.pinged',
      evolve: (state) => state,
      addressees: (payload) => payload.to,
      mentions: (payload) => payload.cc,
    });
    const ping = { ...membershipEnd, kind: 'ext.missionweave.test.ping', events: [pinged] } as unknown as AnyGroupKind;
    const kinds = new KindRegistry([{ key: 'test.delivery', kinds: [ping] }]);
    const shapes = { candidateAgentIds: ['urn:a:offered'], assigneeId: 'urn:a:assignee', message: { mentions: [{ id: 'urn:a:mentioned' }] } };
    const event = deliveryEventOf(kinds, eventText('ext.missionweave.test.pinged', { payload: { to: ['urn:a:to'], cc: ['urn:a:cc'], ...shapes } }));
    expect(event.addressees).toEqual(['urn:a:to']);
    expect(event.mentions).toEqual(['urn:a:cc']);
    expect(attends({ eventKinds: ['message.posted'] }, event, 'urn:a:to')).toBe(true);
    expect(attends({ eventKinds: ['message.posted'] }, event, 'urn:a:offered')).toBe(false);
    // Kinds this registry does not hold declare nothing, whatever their payload carries.
    for (const kind of ['work.offer.created', 'message.posted']) {
      const unknown = deliveryEventOf(kinds, eventText(kind, { payload: shapes }));
      expect([unknown.addressees, unknown.mentions]).toEqual([[], []]);
    }
    expect(deliveryEventOf(coreKinds, eventText('message.posted', { payload: shapes })).mentions).toEqual(['urn:a:mentioned']);
  });

  it('an announcement is what its Event type declares, never a payload flag', () => {
    const noticed = defineEvent<{ urgent: boolean }>()({ kind: 'ext.missionweave.test.noticed', evolve: (state) => state, announces: (payload) => payload.urgent });
    const notice = { ...membershipEnd, kind: 'ext.missionweave.test.notice', events: [noticed] } as unknown as AnyGroupKind;
    const kinds = new KindRegistry([{ key: 'test.announcements', kinds: [notice] }]);
    const urgent = deliveryEventOf(kinds, eventText('ext.missionweave.test.noticed', { payload: { urgent: true } }));
    const routine = deliveryEventOf(kinds, eventText('ext.missionweave.test.noticed', { payload: { urgent: false, announcement: true } }));
    expect([urgent.announcement, routine.announcement]).toEqual([true, false]);
    const filter = { announcements: true, eventKinds: ['message.posted'] };
    expect(attends(filter, urgent, 'urn:a:me')).toBe(true);
    expect(attends(filter, routine, 'urn:a:me')).toBe(false);
    // A core Event whose type declares no announcement is none, whatever its payload carries.
    expect(deliveryEventOf(coreKinds, eventText('message.posted', { payload: { announcement: true } })).announcement).toBe(false);
  });

  it("an Extension Profile's Event type declares its addressees as a core one does, and delivery uses them", () => {
    const kinds = buildKindRegistry([tallyProfile]);
    const told = deliveryEventOf(kinds, eventText('ext.missionweave.tally.tallied', { payload: { label: 'bugs', delta: 1, total: 3, notify: ['urn:a:told'] } }));
    expect(told.addressees).toEqual(['urn:a:told']);
    expect(told.changesMembership).toBe(false);
    for (const filter of [{ eventKinds: ['message.posted'] }, { mentionsOnly: true }, { workItemIds: ['urn:w:1'] }]) {
      expect(attends(filter, told, 'urn:a:told')).toBe(true);
      expect(attends(filter, told, 'urn:a:other')).toBe(false);
    }
    expect(deliveryEventOf(kinds, eventText('ext.missionweave.tally.tallied', { payload: { label: 'bugs', delta: 1, total: 3 } })).addressees).toEqual([]);
    // A registry without the profile knows nothing of its Event, whatever the payload names.
    expect(deliveryEventOf(coreKinds, eventText('ext.missionweave.tally.tallied', { payload: { notify: ['urn:a:told'] } })).addressees).toEqual([]);
  });

  it("a profile's delivery facts are bounded, cannot throw into delivery, and cannot claim a Membership change", () => {
    const facts = [
      { addressees: () => Array.from({ length: 5_000 }, (_, i) => `urn:a:${i}`), mentions: () => ['urn:a:m', 7, null] },
      { addressees: () => { throw new Error('a bug in the profile'); }, mentions: () => 'urn:a:not-a-list', announces: () => { throw new Error('another'); }, changesMembership: true },
    ];
    const [bounded, broken] = facts.map((declared, i) => {
      const namespace = `ext.missionweave.facts${i}.`;
      const type = { ...tallyAdd.events[0], kind: `${namespace}tallied`, ...declared };
      // Plain JavaScript can declare what the types forbid; the registry must not pass it on.
      const profile = { ...tallyProfile, uri: `urn:test:facts:${i}`, namespace, kinds: [{ ...tallyAdd, kind: `${namespace}add`, events: [type] }] } as unknown as AnyExtensionProfile;
      return deliveryEventOf(buildKindRegistry([profile]), eventText(`${namespace}tallied`));
    });
    expect(bounded?.addressees.length).toBe(MAX_PROFILE_FACT_IDS);
    expect(bounded?.mentions).toEqual(['urn:a:m']);
    expect([broken?.addressees, broken?.mentions, broken?.announcement, broken?.changesMembership]).toEqual([[], [], false, false]);
  });

  it('Mission Events carrying a lease or a WorkItem reach its holder or owner, as WorkItem Events do', () => {
    const lease = (holderAgentId: string) => ({ leaseType: 'coordinator', holderAgentId });
    const assigned = deliveryEventOf(coreKinds, eventText('mission.coordinator.assigned', { payload: { coordinatorLease: lease('urn:a:new'), previousCoordinatorLease: lease('urn:a:old') } }));
    expect([...assigned.addressees].sort()).toEqual(['urn:a:new', 'urn:a:old']);
    const child = deliveryEventOf(coreKinds, eventText('mission.child.created', { payload: { workItem: { owner: { agentId: 'urn:a:coord' } } } }));
    expect(child.addressees).toEqual(['urn:a:coord']);
  });

  it('addressees are bounded and read only from well-formed members', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => `urn:a:${i}`);
    expect(deliveryEventOf(coreKinds, eventText('work.offer.created', { payload: { candidateAgentIds: many } })).addressees.length).toBe(512);
    const odd = deliveryEventOf(coreKinds, eventText('work.progressed', { payload: { candidateAgentIds: 'urn:a:x', assigneeId: 7, lease: { holderAgentId: 'urn:a:y' }, workItem: null } }));
    expect(odd.addressees).toEqual([]);
  });

  it('a replay page frames each stored Event apart, across slabs, with an Event ID JSON.stringify would escape', async () => {
    const assembler = new FrameAssembler();
    const big = eventText('message.posted', { payload: { message: { content: 'é'.repeat(200_000) } } });
    const odd = 'urn:x:"quoted"\\back\u0001é';
    const frames = [replayFrame('urn:e:1', 'message.posted', big, assembler), replayFrame(odd, 'membership.changed', eventText('membership.changed'), assembler)];
    frames.push(...Array.from({ length: 300 }, (_, i) => replayFrame(`urn:e:${i}`, 'message.posted', eventText('message.posted'), assembler)));
    expect(frames[0]?.toString('utf8')).toBe(`{"event":${big},"frameId":"urn:e:1","frameType":"EVENT","protocolVersion":"0.1"}`);
    expect(frames[1]?.toString('utf8')).toBe(`{"event":${eventText('membership.changed')},"frameId":${JSON.stringify(odd)},"frameType":"EVENT","protocolVersion":"0.1"}`);
    frames.slice(2).forEach((frame, i) => expect(frame.toString('utf8')).toBe(`{"event":${eventText('message.posted')},"frameId":"urn:e:${i}","frameType":"EVENT","protocolVersion":"0.1"}`));
    const page = await readReplayPage(coreKinds, (onEvent) => {
      onEvent(storedBytes(8, 'urn:e:8', 'message.posted', eventText('message.posted')));
      onEvent(storedBytes(9, 'urn:e:9', 'membership.changed', eventText('membership.changed')));
      return Promise.resolve(2);
    });
    expect(page.sequences).toEqual([8, 9]);
    expect(page.changesMembership).toEqual([false, true]);
    expect(payloadOf(page.wires[1] as Buffer).toString('utf8')).toContain('"frameId":"urn:e:9"');
  });

  it('wire frames are whole WebSocket text frames, whatever their length, and adjacent ones read as one stream', () => {
    const texts = ['', 'x'.repeat(125), 'y'.repeat(126), 'é'.repeat(32_767), 'z'.repeat(65_535), '🧵'.repeat(20_000)];
    const wires = texts.map((text) => wireFrameOf(text));
    expect(wires.map((wire) => wire.length - Buffer.byteLength(texts[wires.indexOf(wire)] as string))).toEqual([2, 2, 4, 4, 4, 10]);
    expect(received(Buffer.concat(wires))).toEqual(texts);
    const assembler = new FrameAssembler();
    const documents = [eventText('message.posted'), eventText('message.posted', { payload: { message: { content: 'é'.repeat(40_000) } } })];
    const replayed = documents.map((document, i) => assembler.wire(storedBytes(i + 1, `urn:e:${i}`, 'message.posted', document)));
    expect(replayed[1]?.byteOffset).toBe((replayed[0]?.byteOffset as number) + (replayed[0]?.length as number));
    expect(received(Buffer.concat(replayed))).toEqual(documents.map((document, i) => `{"event":${document},"frameId":"urn:e:${i}","frameType":"EVENT","protocolVersion":"0.1"}`));
    expect(received(deliveryEventOf(coreKinds, documents[0] as string).wire)).toEqual([deliveryEventOf(coreKinds, documents[0] as string).frame.toString('utf8')]);
  });
});
