/**
 * The kind entries are typed end to end. The `@ts-expect-error` lines below are checked by
 * `npm run typecheck` (part of `npm test`): if a misspelt Command or Event kind, an undeclared
 * Event, or a payload of the wrong shape ever compiled, the unused directive would fail the build.
 * At run time the same entries are exercised through the registry.
 */

import { describe, expect, it } from 'vitest';
import { CORE_GROUP_KINDS } from '../src/domain/coreModules.js';
import { coreRegistry } from './support/coreDecider.js';
import { defineEvent, defineKind } from '../src/domain/kinds/kindTypes.js';
import { accept } from '../src/domain/model.js';
import type { MessagePostedPayload } from '../src/domain/groupEvents.js';
import { messagePosted } from '../src/domain/conversation/messagePost.js';

const coreKinds = coreRegistry();

const fakeMessage = {} as MessagePostedPayload['message'];

describe('typed kind entries', () => {
  it('refuse at compile time what the registry would refuse at run time', () => {
    defineKind({
      // @ts-expect-error -- not a kind of schemas/payloads/
      kind: 'message.postt',
      scope: 'group',
      authority: ['member'],
      events: [messagePosted],
      target: () => 0,
      decide: () => accept({ kind: 'message.posted', payload: { message: fakeMessage }, aggregate: { type: 'conversation', id: 'c', revision: 1 } }),
    });
    defineKind({
      kind: 'message.post',
      scope: 'group',
      authority: ['member'],
      events: [messagePosted],
      target: () => 0,
      // @ts-expect-error -- an Event kind the entry does not declare
      decide: () => accept({ kind: 'message.postd', payload: { message: fakeMessage }, aggregate: { type: 'conversation', id: 'c', revision: 1 } }),
    });
    defineKind({
      kind: 'message.post',
      scope: 'group',
      authority: ['member'],
      events: [messagePosted],
      // @ts-expect-error -- the payload of message.post has no member `missionId`
      target: (_state, command) => (command.payload.missionId === '' ? 0 : 1),
      decide: () => accept({ kind: 'message.posted', payload: { message: fakeMessage }, aggregate: { type: 'conversation', id: 'c', revision: 1 } }),
    });
    defineEvent<MessagePostedPayload>()({
      kind: 'message.posted',
      // @ts-expect-error -- evolve sees its own Event's payload type
      evolve: (state, payload) => ({ ...state, title: payload.amendment }),
    });
    expect(CORE_GROUP_KINDS.length).toBeGreaterThan(0);
  });

  it('registers each core kind once, and each Event kind its kinds emit', () => {
    expect(coreKinds.kindNames).toEqual([...new Set(coreKinds.kindNames)]);
    for (const entry of CORE_GROUP_KINDS) {
      for (const event of entry.events) expect(coreKinds.event(event.kind)).toBe(event);
    }
    expect(coreKinds.scopeOf('ext.missionweaveprotocol.identity.session_open')).toBe('organization');
    expect(coreKinds.scopeOf('message.post')).toBe('group');
    expect(coreKinds.embeddedOf('mission.approve')).toEqual({ member: 'approval', document: 'approval' });
  });
});
