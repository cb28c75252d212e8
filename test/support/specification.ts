/**
 * Given / when / then for deciders (after oskardudycz/EventSourcing.NodeJS `specification.ts`):
 * given these recorded Events, when this Command, then these Events — or this refusal. State is
 * the fold of `evolve` over the given Events; the context is deterministic (fixed time,
 * counter-based identifiers) and describes the world the test needs, so every Event is stated
 * whole (kind and payload, compared in order) and every refusal by its code and reason.
 */

import { expect } from 'vitest';
import type {
  AgentFacts,
  CommandEnvelope,
  Decision,
  DecisionContext,
  EventDraft,
  GroupHistory,
  MissionFacts,
  OrganizationServices,
  RecordedEvent,
  StoredContentFacts,
} from '../../src/domain/model.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { CooperationLimits } from '../../src/domain/policy/cooperationLimits.js';
import type { ErrorCode } from '../../src/protocol/errorCodes.js';
import type { CoreReason } from '../../src/domain/coreModules.js';
import type { ParleyReason } from '../../src/domain/parley/parleyRefusals.js';
import type { DisputReason } from '../../src/domain/disput/disputRefusals.js';
import type { TallyReason } from './tallyProfile.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';

/**
 * A reason `thenFails` may expect: one of a catalogue (`WORK_REASONS.notTheOwner`, or the same
 * text), so that a test expecting a reason no decider has fails to compile.
 */
export type RefusalReason = CoreReason | ParleyReason | DisputReason | TallyReason;

export interface World {
  readonly now: string;
  readonly agents: readonly AgentFacts[];
  readonly missions: readonly MissionFacts[];
  readonly groups: readonly string[];
  readonly services: OrganizationServices;
  /** Prefix of the identifiers `newId` hands out (`<prefix>1`, `<prefix>2`, …). */
  readonly idPrefix: string;
  /** Stored Group histories, for kinds that compare one (archival). */
  readonly histories?: readonly GroupHistory[];
  /** Artifact contents the Artifact store holds completely, and who holds them (`ctx.storedContent`); none when absent. */
  readonly contents?: readonly StoredContentFacts[];
  /** The Organization's cooperation limits (§20), when a test needs others than the defaults. */
  readonly cooperationLimits?: CooperationLimits;
  /** Extension Profile major versions the Organization registered (`ctx.registeredMajors`); none when absent. */
  readonly profiles?: readonly { readonly profileUri: string; readonly majorVersion: number }[];
  /** The Group states of the Mission's ancestry, nearest parent first (`ctx.ancestors`), for a child Mission's Group. */
  readonly ancestors?: readonly GroupState[];
  /** Coordinator Epochs whose Context Package is stored (`ctx.coordinatorPackageStored`); absent: the Organization issues none. */
  readonly coordinatorPackages?: readonly number[];
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
    groupHistory: (groupId) => world.histories?.find((h) => h.groupId === groupId),
    storedContent: (contentHash) => world.contents?.find((c) => c.contentHash === contentHash),
    registeredMajors: (profileUri) => (world.profiles ?? []).filter((p) => p.profileUri === profileUri).map((p) => p.majorVersion),
    ...(world.cooperationLimits === undefined ? {} : { cooperationLimits: world.cooperationLimits }),
    ...(world.ancestors === undefined ? {} : { ancestors: world.ancestors }),
    ...(world.coordinatorPackages === undefined ? {} : { coordinatorPackageStored: (epoch: number) => world.coordinatorPackages!.includes(epoch) }),
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

/**
 * An Event the test expects, stated whole: its kind and payload always; the addressing members
 * only where the test names them (then they are compared too).
 */
export interface ExpectedEvent {
  readonly kind: string;
  readonly payload: object;
  readonly aggregate?: { readonly type: string; readonly id: string; readonly revision: number };
  readonly conversationId?: string;
  readonly workItemId?: string;
  readonly groupId?: string;
  /** The Event ID a decision took for an Event another of its Events names. */
  readonly eventId?: string;
}

const ADDRESSING = ['aggregate', 'conversationId', 'workItemId', 'groupId', 'eventId'] as const;

/** `draft` as far as `expected` states it: kind, payload and the addressing members it names. */
function comparable(draft: StoredDraft, expected: ExpectedEvent | undefined): object {
  const view: Record<string, unknown> = { kind: draft.kind, payload: draft.payload };
  for (const member of ADDRESSING) if (expected !== undefined && member in expected) view[member] = draft[member];
  return view;
}

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
            /**
             * Every Event the decision produced, in order, equals the expected one (payloads as
             * storage keeps them); `check` may then look at the state after and before.
             */
            then(expected: readonly ExpectedEvent[], check?: (after: S, before: S, events: readonly StoredDraft[]) => void): S {
              if (!decision.ok) expect.fail(`refused: ${decision.error.code} ${decision.error.reason} (${decision.error.message})`);
              const events = decision.events.map(stored);
              // The expectation goes through the storage round trip too: absent and undefined agree.
              const want = JSON.parse(JSON.stringify(expected)) as ExpectedEvent[];
              expect(events.map((e, i) => comparable(e, want[i]))).toEqual(want);
              const recorded = recordDrafts(decider, before, decision.events, command, ctx);
              const after = recorded.reduce(decider.evolve, before);
              check?.(after, before, events);
              return after;
            },
            /** The decision is a refusal with exactly this code and reason. */
            thenFails(code: ErrorCode, reason: RefusalReason): void {
              if (decision.ok) expect.fail(`accepted with ${decision.events.map((e) => e.kind).join(', ')}`);
              expect({ code: decision.error.code, reason: decision.error.reason }).toEqual({ code, reason });
            },
          };
        },
      };
    },
  };
}
