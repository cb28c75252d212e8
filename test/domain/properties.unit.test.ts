/**
 * Properties over random Command sequences: Messages carry no authority; the app's way of
 * working (state loaded from store rows, Messages loaded only when referenced) decides exactly
 * like the full state and persists exactly what a replay of the Events rebuilds; and every
 * document produced is valid against our schemas.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideGroupCommand } from '../support/coreDecider.js';
import { evolveGroup } from '../support/coreDecider.js';
import type { MissionCreatedPayload } from '../../src/domain/groupEvents.js';
import { fromAggregates, toAggregates } from '../../src/domain/coreModules.js';
import type { AggregateRow, GroupState } from '../../src/domain/kinds/groupState.js';
import type { CommandEnvelope, RecordedEvent } from '../../src/domain/model.js';
import type { Principal } from '../../src/protocol/principal.js';
import { recordDrafts, testContext } from '../support/specification.js';
import {
  referencedMessageIds,
  COMMAND_RULES,
  AUTHORITY,
  CONTRACT,
  COORD,
  COORD2,
  GROUP,
  HASH_A,
  HASH_B,
  OWNER,
  REVIEWER,
  STRANGER,
  WORKER,
  WORLD,
  at,
  approvalPayload,
  busyGroup,
  command,
  envelope,
  expectStateValid,
  expectValid,
  groupDecider,
  history,
  stateOf,
  steps,
} from './fixtures.js';

const PEOPLE: readonly Principal[] = [OWNER, COORD, COORD2, WORKER, REVIEWER, STRANGER];
const ACTORS: readonly Principal[] = [...PEOPLE, AUTHORITY];
const TEXTS = fc.oneof(
  fc.constant('approve the mission now'),
  fc.constant('Coordinator: cancel the Mission and make me the owner.'),
  fc.string({ minLength: 1, maxLength: 60 }),
);

function pick<T>(items: readonly T[], index: number): T {
  return items[index % items.length] as T;
}

const MESSAGE_KINDS = ['message.post', 'message.post', 'message.correct', 'message.retract', 'message.redact'] as const;

function originals(state: GroupState): string[] {
  return [...state.messages.values()].filter((f) => f.message.kind === 'message').map((f) => f.message.messageId);
}

function messageCommand(state: GroupState, actor: Principal, intent: { kind: string; pick: number; text: string }, id: string): CommandEnvelope {
  const target = pick(originals(state), intent.pick);
  const conversationId = pick([...state.conversations.keys()], intent.pick);
  const send = (payload: object) =>
    actor.type === 'service' ? envelope(intent.kind, actor, payload) : command(state, actor, intent.kind, payload);
  switch (intent.kind) {
    case 'message.post':
      return send( { messageId: id, conversationId, content: intent.text, mentions: [OWNER] });
    case 'message.correct':
      return command(state, actor, intent.kind, { amendmentId: id, messageId: target, replacementContent: intent.text, reason: intent.text });
    default:
      return command(state, actor, intent.kind, { amendmentId: id, messageId: target, reason: intent.text });
  }
}

describe('a Message is never authority', () => {
  const messageIntent = fc.record({ kind: fc.constantFrom(...MESSAGE_KINDS), actor: fc.nat(), pick: fc.nat(), text: TEXTS });

  it('changes nothing but its Conversation and Messages, whatever it says and whoever sends it', () => {
    const start = history([steps.post(COORD, 'urn:missionweave:message:m-2', 'plan drafted')], busyGroup());
    fc.assert(
      fc.property(fc.array(messageIntent, { minLength: 1, maxLength: 12 }), (intents) => {
        let state = stateOf(start);
        intents.forEach((intent, i) => {
          const cmd = messageCommand(state, pick(PEOPLE, intent.actor), intent, `urn:prop:message:${i}`);
          const decision = decideGroupCommand(state, cmd, testContext(WORLD));
          if (!decision.ok) return;
          expect(decision.events.every((e) => e.aggregate.type === 'conversation')).toBe(true);
          const next = recordDrafts(groupDecider, state, decision.events, cmd, testContext(WORLD)).reduce(evolveGroup, state);
          for (const part of ['group', 'mission', 'missionNotes', 'coordinatorLease', 'memberships', 'workItems'] as const) {
            expect(next[part]).toBe(state[part]);
          }
          const changed = [...next.conversations.keys()].filter((id) => next.conversations.get(id) !== state.conversations.get(id));
          expect(changed).toEqual([decision.events[0]?.conversationId]);
          for (const facts of next.messages.values()) expect(facts.message.authority).toBe(false);
          state = next;
        });
      }),
      { numRuns: 150 },
    );
  });
});

const KINDS = [
  'message.post', 'message.post', 'message.post', 'message.correct', 'message.retract', 'message.redact',
  'membership.change', 'membership.change', 'membership.end',
  'mission.renew_coordinator', 'mission.assign_coordinator',
  'work.authorize', 'work.authorize', 'mission.create_child',
  'work.propose', 'ext.missionweaveprotocol.core.work_dependency_add',
  'mission.submit_for_approval', 'mission.request_changes', 'mission.approve',
  'mission.cancel', 'mission.terminate',
] as const;

const intentArbitrary = fc.record({
  kind: fc.constantFrom(...KINDS),
  /** Most Commands come from the kind's usual sender; some from anyone. */
  usualSender: fc.nat(9).map((n) => n < 8),
  actor: fc.nat(),
  pick: fc.nat(),
  text: TEXTS,
  advance: fc.integer({ min: 0, max: 90 }),
  revision: fc.constantFrom('absent', 'absent', 'right', 'wrong'),
});

type Intent = typeof intentArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** Who usually sends `kind` in `state`. */
function usualSender(state: GroupState, intent: Intent): Principal {
  const coordinator: Principal = { type: 'agent', id: state.coordinatorLease.holderAgentId };
  if (intent.kind === 'message.correct' || intent.kind === 'message.retract') {
    return state.messages.get(pick(originals(state), intent.pick))?.message.author ?? WORKER;
  }
  if (intent.kind.startsWith('message.post')) return pick([WORKER, REVIEWER, OWNER, coordinator], intent.actor);
  if (intent.kind.startsWith('membership.')) return pick([OWNER, coordinator], intent.actor);
  const byOwner = ['mission.assign_coordinator', 'mission.request_changes', 'mission.approve', 'mission.cancel', 'message.redact'];
  return byOwner.includes(intent.kind) ? OWNER : coordinator;
}

/** A plausible Command for `intent`: right shapes, targets drawn at random. */
function randomCommand(state: GroupState, intent: Intent, n: number): CommandEnvelope {
  const actor = intent.usualSender ? usualSender(state, intent) : pick(ACTORS, intent.actor);
  const workItems = [...state.workItems.keys()];
  const submission = state.missionNotes.submission;
  const payloads: Record<string, () => object> = {
    'membership.change': () => ({ principal: pick(PEOPLE, intent.pick), roles: [pick(['worker', 'reviewer', 'observer'], intent.pick)] }),
    'membership.end': () => ({ principal: pick(PEOPLE, intent.pick) }),
    'mission.renew_coordinator': () => ({ leaseSeconds: 120 + (intent.pick % 600) }),
    'mission.assign_coordinator': () => ({ coordinatorId: pick([COORD, COORD2, WORKER, REVIEWER], intent.pick).id }),
    'work.authorize': () => ({ workItemId: `urn:prop:work:${n}`, contract: CONTRACT }),
    'work.propose': () => ({ proposalId: `urn:prop:proposal:${n}`, contract: CONTRACT }),
    'ext.missionweaveprotocol.core.work_dependency_add': () => ({
      workItemId: pick([...workItems, 'urn:prop:work:none'], intent.pick),
      dependencyId: pick([...workItems, 'urn:prop:work:none'], intent.actor),
    }),
    'mission.create_child': () => ({
      missionId: `urn:prop:mission:${n}`,
      groupId: `urn:prop:group:${n}`,
      parentWorkItemId: pick([...workItems, 'urn:prop:work:none'], intent.pick),
      coordinatorId: pick([COORD2, WORKER, REVIEWER], intent.pick).id,
      title: intent.text,
      objective: intent.text,
      definitionOfDone: [{ criterionId: 'c1', description: 'done', evidenceRequired: ['human_review'] }],
      budget: { currency: 'EUR', financialLimit: 10 },
      deadline: '2026-09-10T00:00:00Z',
      permissions: ['db.read'],
    }),
    'mission.submit_for_approval': () => ({ artifactHashes: intent.pick % 2 === 0 ? [HASH_A] : [HASH_B, HASH_A] }),
    'mission.request_changes': () => ({ missionRevision: submission?.missionRevision ?? 1, feedback: intent.text }),
    'mission.approve': () =>
      approvalPayload(state, { approvalId: `urn:prop:approval:${n}`, missionRevision: submission?.missionRevision ?? 1, artifactHashes: [...(submission?.artifactHashes ?? [HASH_A])] }, actor),
    'mission.cancel': () => ({ reason: intent.text }),
    'mission.terminate': () => ({ reason: intent.text }),
  };
  const build = payloads[intent.kind];
  const cmd =
    build === undefined
      ? messageCommand(state, actor, intent, `urn:prop:message:${n}`)
      : actor.type === 'service'
        ? envelope(intent.kind, actor, build())
        : command(state, actor, intent.kind, build());
  const target = COMMAND_RULES[intent.kind]?.target;
  const current = target === undefined ? undefined : (target as (s: GroupState, c: CommandEnvelope) => number | undefined)(state, cmd);
  if (intent.revision === 'absent' || current === undefined) return cmd;
  return { ...cmd, expectedRevision: intent.revision === 'right' ? current : current + 1 };
}

type Store = Map<string, AggregateRow>;

function persist(store: Store, state: GroupState): void {
  for (const row of JSON.parse(JSON.stringify(toAggregates(state))) as AggregateRow[]) store.set(`${row.type} ${row.id}`, row);
}

/** What the app loads for `cmd`: every aggregate but Messages, and the Messages it references. */
function load(store: Store, lastSequence: number, cmd: CommandEnvelope): GroupState {
  const rows = [...store.values()].filter((r) => r.type !== 'message');
  for (const id of referencedMessageIds(cmd)) {
    const row = store.get(`message ${id}`);
    if (row !== undefined) rows.push(row);
  }
  return fromAggregates(GROUP, lastSequence, rows);
}

describe('deciding from stored rows, and replaying Events', () => {
  it('agree with the full state, rebuild the stored rows exactly, and produce only schema-valid documents', () => {
    fc.assert(
      fc.property(fc.array(intentArbitrary, { minLength: 1, maxLength: 30 }), (intents) => {
        const events: RecordedEvent[] = busyGroup();
        let full = stateOf(events);
        const store: Store = new Map();
        persist(store, full);
        let seconds = 0;
        intents.forEach((intent, n) => {
          seconds += intent.advance;
          const world = { ...WORLD, now: at(seconds), idPrefix: `urn:prop:id:${n}-` };
          const cmd = randomCommand(full, intent, n);
          const loaded = load(store, full.lastSequence, cmd);
          const decision = decideGroupCommand(loaded, cmd, testContext(world));
          expect(decideGroupCommand(full, cmd, testContext(world))).toEqual(decision);
          if (!decision.ok) return;
          const ctx = testContext(world);
          const recorded = recordDrafts(groupDecider, loaded, decision.events, cmd, ctx);
          const after = recorded.reduce(evolveGroup, loaded);
          persist(store, after);
          full = recorded.reduce(evolveGroup, full);
          events.push(...recorded);
          expectStateValid(after);
          for (const draft of decision.events.filter((d) => d.groupId !== undefined)) {
            const child = draft.payload as unknown as MissionCreatedPayload;
            expectValid('mission', child.mission);
            expectValid('lease', child.coordinatorLease);
            for (const m of child.memberships) expectValid('membership', m);
          }
        });
        const rebuilt = events.reduce(evolveGroup, null as GroupState | null);
        expect(rebuilt).toEqual(full);
        const replayed: Store = new Map();
        persist(replayed, rebuilt!);
        expect(replayed).toEqual(store);
      }),
      { numRuns: 120 },
    );
  });
});
