/**
 * `message.post`, `message.correct`, `message.retract`, `message.redact` (docs/transitions.md, §9).
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import type { Principal } from '../../src/protocol/principal.js';
import {
  referencedMessageIds,
  AUTHORITY,
  COORD,
  GROUP,
  HASH_A,
  MAIN,
  MISSION,
  OWNER,
  REVIEWER,
  WORK,
  WORKER,
  at,
  busyGroup,
  command,
  envelope,
  expectStateValid,
  expectValid,
  groupSpec,
  history,
  stateOf,
  steps,
} from './fixtures.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { CONVERSATION_REASONS } from '../../src/domain/conversation/conversationReasons.js';
import { COMMON_REASONS } from '../../src/domain/commonReasons.js';

const M1 = 'urn:missionweave:message:m-1';
const busy = busyGroup();
const state = stateOf(busy);
const WORK_CONVERSATION = state.workItems.get(WORK)?.conversationId ?? '';

function post(payload: object, actor = WORKER, from: GroupState = state, extra: object = {}) {
  return command(from, actor, 'message.post', { messageId: 'urn:missionweave:message:new', conversationId: MAIN, content: 'hello', ...payload }, extra);
}

function amend(kind: string, payload: object, actor = WORKER, from: GroupState = state, extra: object = {}) {
  return command(from, actor, kind, { amendmentId: 'urn:missionweave:message:amend-1', messageId: M1, reason: 'typo', ...payload }, extra);
}

const NEW = 'urn:missionweave:message:new';
const AMENDMENT = 'urn:missionweave:message:amend-1';

/** `message.posted` of Message `NEW` as the test states it. */
function posted(author: Principal, conversationId = MAIN, content: object[] = [{ type: 'text', text: 'hello' }], extra: object = {}) {
  const message = { messageId: NEW, missionId: MISSION, groupId: GROUP, conversationId, author, kind: 'message', authority: false, content, ...extra, committedAt: at(0) };
  return { kind: 'message.posted', payload: { message } };
}

const TOMBSTONE = {
  retraction: [{ type: 'text', text: '[Message retracted by its author]' }],
  redaction: [{ type: 'text', text: '[Message redacted under policy]' }],
};

/** `message.corrected` / `.retracted` / `.redacted` of M1 in the main Conversation. */
function amended(kind: 'correction' | 'retraction' | 'redaction', author: Principal, content: object[], extra: { amendmentId?: string; reason?: string } = {}) {
  const eventKind = { correction: 'message.corrected', retraction: 'message.retracted', redaction: 'message.redacted' }[kind];
  const amendment = {
    messageId: extra.amendmentId ?? AMENDMENT,
    missionId: MISSION,
    groupId: GROUP,
    conversationId: MAIN,
    author,
    kind,
    authority: false,
    targetMessageId: M1,
    content,
    reason: extra.reason ?? 'typo',
    committedAt: at(0),
  };
  return { kind: eventKind, payload: { amendment } };
}

/** The WorkItem Conversation of `busy`, rewritten as a later Command kind may leave it. */
function withWorkConversation(change: object): RecordedEvent[] {
  return busy.map((event) =>
    event.kind !== 'work.authorized'
      ? event
      : { ...event, payload: { ...event.payload, conversation: { ...(event.payload['conversation'] as object), ...change } } },
  );
}

describe('message.post', () => {
  it('posts a normative Message without authority and advances its Conversation only', () => {
    const after = groupSpec
      .given(busy)
      .when(post({ mentions: [COORD], references: [WORK] }, WORKER, state, { conversationId: MAIN, expectedRevision: 1 }))
      .then(
        [
          {
            ...posted(WORKER, MAIN, [{ type: 'text', text: 'hello' }], { mentions: [COORD], references: [WORK] }),
            aggregate: { type: 'conversation', id: MAIN, revision: 2 },
            conversationId: MAIN,
          },
        ],
        (next, before) => {
          expect(next?.mission).toBe(before?.mission);
          expect(next?.memberships).toBe(before?.memberships);
        },
      ) as GroupState;
    const message = after.messages.get('urn:missionweave:message:new');
    expect(message?.status).toBe('posted');
    expect(message?.message).toMatchObject({ kind: 'message', authority: false, author: WORKER, content: [{ type: 'text', text: 'hello' }], mentions: [COORD], committedAt: at(0) });
    expect(after.conversations.get(MAIN)?.revision).toBe(2);
    expectStateValid(after);
  });

  it('keeps content parts as given', () => {
    const content = [{ type: 'text', text: 'see report' }, { type: 'artifact_ref', artifactHash: HASH_A }, { type: 'data_ref', schema: 'urn:x:schema', data: { rows: 3 } }];
    const after = groupSpec.given(busy).when(post({ content, conversationId: WORK_CONVERSATION })).then([posted(WORKER, WORK_CONVERSATION, content)]) as GroupState;
    expect(after.messages.get('urn:missionweave:message:new')?.message.content).toEqual(content);
    expectValid('message', after.messages.get('urn:missionweave:message:new')?.message);
  });

  it('is open to any active member, the MissionOwner included', () => {
    groupSpec.given(busy).when(post({}, OWNER)).then([posted(OWNER)]);
    groupSpec.given(busy).when(post({}, REVIEWER)).then([posted(REVIEWER)]);
    groupSpec.given(busy).when(envelope('message.post', AUTHORITY, { messageId: 'urn:x:m', conversationId: MAIN, content: 'x' })).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
  });

  it('needs a Conversation of this Group (INVALID_COMMAND) that is active (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(busy).when(post({ conversationId: 'urn:missionweave:conversation:elsewhere' })).thenFails('INVALID_COMMAND', CONVERSATION_REASONS.conversationUnknown);
    groupSpec.given(withWorkConversation({ state: 'closed' })).when(post({ conversationId: WORK_CONVERSATION })).thenFails('INVALID_STATE_TRANSITION', CONVERSATION_REASONS.conversationClosed);
  });

  it('admits to a restricted Conversation only its members, the MissionOwner and the Coordinator (AUTH_FORBIDDEN)', () => {
    const restricted = withWorkConversation({ type: 'restricted', access: { mode: 'restricted', members: [REVIEWER] } });
    groupSpec.given(restricted).when(post({ conversationId: WORK_CONVERSATION }, WORKER)).thenFails('AUTH_FORBIDDEN', CONVERSATION_REASONS.conversationRestricted);
    for (const actor of [REVIEWER, OWNER, COORD]) {
      groupSpec.given(restricted).when(post({ conversationId: WORK_CONVERSATION }, actor)).then([posted(actor, WORK_CONVERSATION)]);
    }
  });

  it('refuses a Message ID in use (INVALID_COMMAND)', () => {
    groupSpec.given(busy).when(post({ messageId: M1 })).thenFails('INVALID_COMMAND', CONVERSATION_REASONS.messageIdTaken);
  });

  it('checks expectedRevision against the Conversation (REVISION_CONFLICT)', () => {
    groupSpec.given(busy).when(post({}, WORKER, state, { expectedRevision: 0 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
  });

  it('refuses an envelope conversationId other than the payload’s (INVALID_COMMAND)', () => {
    groupSpec.given(busy).when(post({}, WORKER, state, { conversationId: WORK_CONVERSATION })).thenFails('INVALID_COMMAND', GROUP_REASONS.envelopeTargetMismatch);
    groupSpec.given(busy).when(post({}, WORKER, state, { workItemId: WORK })).thenFails('INVALID_COMMAND', GROUP_REASONS.envelopeTargetMismatch);
  });

  it('refuses a terminal Mission (INVALID_STATE_TRANSITION)', () => {
    const cancelled = history([steps.cancel()], busy);
    groupSpec.given(cancelled).when(post({}, WORKER, stateOf(cancelled))).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
  });
});

describe('message.correct and message.retract', () => {
  it('appends a correction by the author; the original stays and is marked corrected', () => {
    const replacement = [{ type: 'text', text: 'second draft ready' }];
    const after = groupSpec
      .given(busy)
      .when(amend('message.correct', { replacementContent: replacement }, WORKER, state, { conversationId: MAIN, expectedRevision: 1 }))
      .then([{ ...amended('correction', WORKER, replacement), aggregate: { type: 'conversation', id: MAIN, revision: 2 }, conversationId: MAIN }]) as GroupState;
    expect(after.messages.get(M1)?.status).toBe('corrected');
    expect(after.messages.get(M1)?.message).toEqual(state.messages.get(M1)?.message);
    expect(after.messages.get('urn:missionweave:message:amend-1')?.message).toMatchObject({
      kind: 'correction',
      authority: false,
      targetMessageId: M1,
      reason: 'typo',
      content: replacement,
      conversationId: MAIN,
    });
    expectStateValid(after);
  });

  it('appends a retraction with a tombstone, and a corrected Message may still be corrected or retracted', () => {
    const after = groupSpec.given(busy).when(amend('message.retract', {})).then([amended('retraction', WORKER, TOMBSTONE.retraction)]) as GroupState;
    expect(after.messages.get(M1)?.status).toBe('retracted');
    expect(after.messages.get('urn:missionweave:message:amend-1')?.message).toMatchObject({ kind: 'retraction', content: [{ type: 'text', text: '[Message retracted by its author]' }] });
    expectStateValid(after);
    const corrected = history([(s) => amend('message.correct', { replacementContent: 'v2' }, WORKER, s!)], busy);
    groupSpec
      .given(corrected)
      .when(amend('message.correct', { amendmentId: 'urn:x:a2', replacementContent: 'v3' }, WORKER, stateOf(corrected)))
      .then([amended('correction', WORKER, [{ type: 'text', text: 'v3' }], { amendmentId: 'urn:x:a2' })]);
    groupSpec
      .given(corrected)
      .when(amend('message.retract', { amendmentId: 'urn:x:a2' }, WORKER, stateOf(corrected)))
      .then([amended('retraction', WORKER, TOMBSTONE.retraction, { amendmentId: 'urn:x:a2' })]);
  });

  it('is the author’s only (AUTH_FORBIDDEN)', () => {
    for (const actor of [OWNER, COORD, REVIEWER]) {
      groupSpec.given(busy).when(amend('message.correct', { replacementContent: 'x' }, actor)).thenFails('AUTH_FORBIDDEN', CONVERSATION_REASONS.notMessageAuthor);
      groupSpec.given(busy).when(amend('message.retract', {}, actor)).thenFails('AUTH_FORBIDDEN', CONVERSATION_REASONS.notMessageAuthor);
    }
  });

  it('needs a Message of this Group, not an amendment (INVALID_COMMAND)', () => {
    groupSpec.given(busy).when(amend('message.retract', { messageId: 'urn:missionweave:message:nope' })).thenFails('INVALID_COMMAND', CONVERSATION_REASONS.messageUnknown);
    const corrected = history([(s) => amend('message.correct', { replacementContent: 'v2' }, WORKER, s!)], busy);
    groupSpec
      .given(corrected)
      .when(amend('message.retract', { amendmentId: 'urn:x:a2', messageId: 'urn:missionweave:message:amend-1' }, WORKER, stateOf(corrected)))
      .thenFails('INVALID_COMMAND', CONVERSATION_REASONS.messageUnknown);
  });

  it('refuses a retracted or redacted Message (INVALID_STATE_TRANSITION)', () => {
    const retracted = history([(s) => amend('message.retract', {}, WORKER, s!)], busy);
    const redacted = history([(s) => amend('message.redact', {}, OWNER, s!)], busy);
    for (const events of [retracted, redacted]) {
      groupSpec.given(events).when(amend('message.correct', { amendmentId: 'urn:x:a2', replacementContent: 'x' }, WORKER, stateOf(events))).thenFails('INVALID_STATE_TRANSITION', CONVERSATION_REASONS.messageNotAmendable);
      groupSpec.given(events).when(amend('message.retract', { amendmentId: 'urn:x:a2' }, WORKER, stateOf(events))).thenFails('INVALID_STATE_TRANSITION', CONVERSATION_REASONS.messageNotAmendable);
    }
  });

  it('refuses an amendment ID in use (INVALID_COMMAND) and a stale Conversation revision (REVISION_CONFLICT)', () => {
    groupSpec.given(busy).when(amend('message.retract', { amendmentId: M1 })).thenFails('INVALID_COMMAND', CONVERSATION_REASONS.amendmentIdTaken);
    groupSpec.given(busy).when(amend('message.retract', {}, WORKER, state, { expectedRevision: 5 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
    groupSpec.given(busy).when(amend('message.retract', {}, WORKER, state, { conversationId: WORK_CONVERSATION })).thenFails('INVALID_COMMAND', GROUP_REASONS.envelopeTargetMismatch);
  });
});

describe('message.redact', () => {
  for (const [who, actor] of [
    ['the MissionOwner', OWNER],
    ['the Coordinator', COORD],
  ] as const) {
    it(`appends an auditable tombstone, by ${who}`, () => {
      const after = groupSpec
        .given(busy)
        .when(amend('message.redact', { reason: 'policy DP-7' }, actor))
        .then([amended('redaction', actor, TOMBSTONE.redaction, { reason: 'policy DP-7' })]) as GroupState;
      expect(after.messages.get(M1)?.status).toBe('redacted');
      // §7.4: the state keeps the tombstone's content, never the redacted words.
      expect(after.messages.get(M1)?.message.content).toEqual(TOMBSTONE.redaction);
      expect(after.messages.get('urn:missionweave:message:amend-1')?.message).toMatchObject({ kind: 'redaction', reason: 'policy DP-7', author: actor });
      expectStateValid(after);
    });
  }

  it('redacts a retracted Message', () => {
    const retracted = history([(s) => amend('message.retract', {}, WORKER, s!)], busy);
    groupSpec
      .given(retracted)
      .when(amend('message.redact', { amendmentId: 'urn:x:a2' }, OWNER, stateOf(retracted)))
      .then([amended('redaction', OWNER, TOMBSTONE.redaction, { amendmentId: 'urn:x:a2' })]);
  });

  it('is a policy decision of the MissionOwner or the Coordinator (AUTH_FORBIDDEN, AUTH_STALE_COORDINATOR, WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(busy).when(amend('message.redact', {}, WORKER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(busy).when(amend('message.redact', {}, COORD, state, { coordinatorEpoch: 2 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(busy).when(amend('message.redact', {}, COORD), { now: at(601) }).thenFails('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired);
  });

  it('needs a Message that exists (INVALID_COMMAND) and is not already redacted (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(busy).when(amend('message.redact', { messageId: 'urn:x:none' }, OWNER)).thenFails('INVALID_COMMAND', CONVERSATION_REASONS.messageUnknown);
    const redacted = history([(s) => amend('message.redact', {}, OWNER, s!)], busy);
    groupSpec.given(redacted).when(amend('message.redact', { amendmentId: 'urn:x:a2' }, OWNER, stateOf(redacted))).thenFails('INVALID_STATE_TRANSITION', CONVERSATION_REASONS.messageNotAmendable);
  });
});

describe('referencedMessageIds', () => {
  it('names the Message a Command posts or amends and the amendment’s own ID', () => {
    expect(referencedMessageIds(post({}))).toEqual(['urn:missionweave:message:new']);
    expect(referencedMessageIds(amend('message.redact', {}))).toEqual([M1, 'urn:missionweave:message:amend-1']);
    expect(referencedMessageIds(command(state, OWNER, 'mission.cancel', { reason: 'x' }))).toEqual([]);
  });
});
