/**
 * Given / when / then for deciders (after oskardudycz/EventSourcing.NodeJS `specification.ts`):
 * given these recorded Events, when this Command, then these Events — or this refusal. State is
 * the fold of `evolve` over the given Events; the context is deterministic (fixed time,
 * counter-based identifiers) and describes the world the test needs.
 */

import { expect } from 'vitest';
import type {
  AgentFacts,
  CommandEnvelope,
  Decision,
  DecisionContext,
  EventDraft,
  MissionFacts,
  OrganizationServices,
  RecordedEvent,
} from '../../src/domain/model.js';
import type { ErrorCode } from '../../src/protocol/errorCodes.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';

export interface World {
  readonly now: string;
  readonly agents: readonly AgentFacts[];
  readonly missions: readonly MissionFacts[];
  readonly groups: readonly string[];
  readonly services: OrganizationServices;
  /** Prefix of the identifiers `newId` hands out (`<prefix>1`, `<prefix>2`, …). */
  readonly idPrefix: string;
}

export function testContext(world: World): DecisionContext {
  let next = 0;
  return {
    now: world.now,
    nowMillis: Date.parse(world.now),
    newId: () => `${world.idPrefix}${++next}`,
    agent: (agentId) => world.agents.find((a) => a.agentId === agentId),
    mission: (missionId) => world.missions.find((m) => m.missionId === missionId),
    groupExists: (groupId) => world.groups.includes(groupId),
    services: world.services,
  };
}

export interface Decider<S> {
  readonly initialState: () => S;
  readonly decide: (state: S, command: CommandEnvelope, ctx: DecisionContext) => Decision;
  readonly evolve: (state: S, event: RecordedEvent) => S;
  /** The sequence the next Event of the stream takes; absent for unordered streams. */
  readonly nextSequence?: (state: S) => number;
}

let eventCounter = 0;

/**
 * The Events the app would record for `drafts` in the Command's own stream (drafts addressed to
 * another Group are left out), with payloads through a JSON round trip as storage does.
 */
export function recordDrafts<S>(decider: Decider<S>, state: S, drafts: readonly EventDraft[], command: CommandEnvelope, ctx: DecisionContext): RecordedEvent[] {
  const first = decider.nextSequence?.(state);
  return drafts
    .filter((draft) => draft.groupId === undefined || draft.groupId === command.groupId)
    .map((draft, i) => ({
      kind: draft.kind,
      payload: JSON.parse(JSON.stringify(draft.payload)) as JsonObject,
      actor: command.actor,
      occurredAt: ctx.now,
      eventId: draft.eventId ?? `urn:test:event:${++eventCounter}`,
      ...(first === undefined ? {} : { sequence: first + i }),
    }));
}

/** A draft as storage keeps it: its payload through a JSON round trip. */
export type StoredDraft = EventDraft<string, JsonObject>;

function stored(draft: EventDraft): StoredDraft {
  return { ...draft, payload: JSON.parse(JSON.stringify(draft.payload)) as JsonObject };
}

export type Expectation<S> = readonly string[] | ((events: readonly StoredDraft[], after: S, before: S) => void);

export function specification<S>(decider: Decider<S>, defaults: World) {
  return {
    given(events: readonly RecordedEvent[]) {
      const before = events.reduce(decider.evolve, decider.initialState());
      return {
        when(command: CommandEnvelope, world: Partial<World> = {}) {
          const ctx = testContext({ ...defaults, ...world });
          const decision = decider.decide(before, command, ctx);
          return {
            decision,
            then(expected: Expectation<S>): S {
              if (!decision.ok) expect.fail(`refused: ${decision.error.code} ${decision.error.reason} (${decision.error.message})`);
              const recorded = recordDrafts(decider, before, decision.events, command, ctx);
              const after = recorded.reduce(decider.evolve, before);
              if (typeof expected === 'function') expected(decision.events.map(stored), after, before);
              else expect(decision.events.map((e) => e.kind)).toEqual(expected);
              return after;
            },
            thenFails(code: ErrorCode, reason?: string): void {
              if (decision.ok) expect.fail(`accepted with ${decision.events.map((e) => e.kind).join(', ')}`);
              expect(decision.error.code).toBe(code);
              if (reason !== undefined) expect(decision.error.reason).toBe(reason);
            },
          };
        },
      };
    },
  };
}
