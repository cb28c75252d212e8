/**
 * The world of the domain tests: one Organization, its Agents, a Mission "m1" in Group "g1",
 * Command builders that fill in the epochs a well-behaved actor would send, and histories built
 * by running the deciders themselves (so given Events are always Events the system produces).
 */

import { expect } from 'vitest';
import { decideGroupCommand } from '../support/coreDecider.js';
import { evolveGroup } from '../support/coreDecider.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import { CORE_GROUP_KINDS } from '../../src/domain/coreModules.js';
import { coreRegistry } from '../support/coreDecider.js';
import type { AnyGroupKind } from '../../src/domain/kinds/kindTypes.js';
import type { AgentFacts, CommandEnvelope, MissionFacts, RecordedEvent } from '../../src/domain/model.js';
import { principalKey, type Principal } from '../../src/protocol/principal.js';
import { schemaRegistry } from '../../src/protocol/schemas/files.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { EXAMPLE_APPROVAL, EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from '../support/payloadExamples.js';
import {
  recordDrafts,
  specification,
  testContext,
  type Decider,
  type World,
} from '../support/specification.js';
import { workItemDocument } from '../../src/domain/workItem/workRecord.js';

const coreKinds = coreRegistry();

export const T0 = '2026-09-01T12:00:00.000Z';
export const GROUP = 'urn:missionweave:group:g1';
export const MISSION = 'urn:missionweave:mission:m1';
export const MAIN = 'urn:missionweave:conversation:g1-main';
export const WORK = 'urn:missionweave:work-item:w1';
export const CHILD_GROUP = 'urn:missionweave:group:g1-child';
export const CHILD_MISSION = 'urn:missionweave:mission:m1-child';
export const HASH_A = `sha256:${'a'.repeat(64)}`;
export const HASH_B = `sha256:${'b'.repeat(64)}`;
export const HASH_C = `sha256:${'c'.repeat(64)}`;
/** Every test content is stored with this size (`WORLD.contents`), HASH_C included. */
export const CONTENT_SIZE = 4096;

export const OWNER: Principal = { type: 'human', id: 'urn:missionweave:human:dana' };
export const STRANGER: Principal = { type: 'human', id: 'urn:missionweave:human:mallory' };
export const COORD: Principal = { type: 'agent', id: 'urn:missionweave:agent:coord-1' };
export const COORD2: Principal = { type: 'agent', id: 'urn:missionweave:agent:coord-2' };
export const WORKER: Principal = { type: 'agent', id: 'urn:missionweave:agent:worker-7' };
/** A second Worker, the rival in offer races. */
export const WORKER2: Principal = { type: 'agent', id: 'urn:missionweave:agent:worker-8' };
export const REVIEWER: Principal = { type: 'agent', id: 'urn:missionweave:agent:reviewer-3' };
export const REVOKED: Principal = { type: 'agent', id: 'urn:missionweave:agent:revoked-9' };
/** An Agent that may hold a `work_delegate` Membership (§9.1). */
export const DELEGATE_AGENT: Principal = { type: 'agent', id: 'urn:missionweave:agent:delegate-5' };
export const REGISTRY: Principal = { type: 'service', id: 'urn:missionweave:service:agent-registry' };
export const AUTHORITY: Principal = { type: 'service', id: 'urn:missionweave:service:group-authority' };
export const ORGANIZATION = 'urn:missionweave:organization:acme';

/**
 * What the Workers' Agent Cards declare: the contract's `acme.sql-migration` (minimum 1.4.0) in
 * versions 1.4.2 and 1.5.0, which match, and 2.0.0, another major version, which does not.
 */
export const SQL_CAPABILITIES: ReadonlyMap<string, readonly string[]> = new Map([['acme.sql-migration', ['1.4.2', '2.0.0', '1.5.0']]]);

export function agent(principal: Principal, status: AgentFacts['status'] = 'active', capabilities: ReadonlyMap<string, readonly string[]> = new Map()): AgentFacts {
  return { agentId: principal.id, cardVersion: 3, status, capabilities, sessionEpoch: 1 };
}

/**
 * An approved child Mission of w1 the store knows (the common-checks case of
 * `ext.missionweave.core.child_mission_settle` promotes w1 to it first).
 */
export const SETTLED_CHILD: MissionFacts = {
  missionId: 'urn:missionweave:mission:m1-child-done',
  groupId: 'urn:missionweave:group:g1-child-done',
  state: 'approved',
  missionOwner: COORD,
  parent: { missionId: MISSION, workItemId: WORK },
  approval: { approvalId: 'urn:missionweave:approval:child-done', artifactHashes: [HASH_A] },
};

export const WORLD: World = {
  now: T0,
  agents: [agent(COORD), agent(COORD2), agent(WORKER, 'active', SQL_CAPABILITIES), agent(WORKER2, 'active', SQL_CAPABILITIES), agent(REVIEWER), agent(REVOKED, 'revoked'), agent(DELEGATE_AGENT)],
  missions: [SETTLED_CHILD],
  groups: [],
  services: { organizationId: ORGANIZATION, registry: REGISTRY, authority: AUTHORITY },
  idPrefix: 'urn:test:id:when-',
  // The Workers uploaded every test content themselves (§13.3 possession).
  contents: [HASH_A, HASH_B, HASH_C].map((contentHash) => ({ contentHash, sizeBytes: CONTENT_SIZE, heldBy: new Set([WORKER.id, WORKER2.id]) })),
};

/** `T0` plus whole seconds. */
export function at(seconds: number): string {
  return new Date(Date.parse(T0) + seconds * 1000).toISOString();
}

export const groupDecider: Decider<GroupState | null> = {
  initialState: () => null,
  decide: decideGroupCommand,
  evolve: evolveGroup,
  nextSequence: (state) => (state?.lastSequence ?? 0) + 1,
};

export const groupSpec = specification(groupDecider, WORLD);

export function stateOf(events: readonly RecordedEvent[]): GroupState {
  const state = events.reduce(evolveGroup, null as GroupState | null);
  if (state === null) throw new Error('no Group in these Events');
  return state;
}

let actionCounter = 0;

/** A Command as the app hands it to the decider; `extra` overrides envelope members. */
export function envelope(kind: string, actor: Principal, payload: object, extra: Partial<CommandEnvelope> = {}): CommandEnvelope {
  return {
    actionId: `urn:test:action:${++actionCounter}`,
    actor,
    kind,
    groupId: GROUP,
    correlationId: 'urn:test:correlation:1',
    issuedAt: T0,
    payload: structuredClone(payload) as JsonObject,
    signature: { algorithm: 'Ed25519', keyId: `urn:test:key:${actor.id}`, createdAt: T0, value: 'A'.repeat(86) },
    ...extra,
  };
}

/** A Command from `actor` in `state`'s Group, carrying the epochs it currently holds. */
export function command(state: GroupState, actor: Principal, kind: string, payload: object, extra: Partial<CommandEnvelope> = {}): CommandEnvelope {
  const membership = state.memberships.get(principalKey(actor));
  const isCoordinator = actor.type === 'agent' && actor.id === state.coordinatorLease.holderAgentId;
  return envelope(kind, actor, payload, {
    groupId: state.groupId,
    ...(actor.type === 'agent' ? { sessionEpoch: 1 } : {}),
    ...(membership === undefined ? {} : { membershipEpoch: membership.membershipEpoch }),
    ...(isCoordinator ? { coordinatorEpoch: state.mission.coordinator.coordinatorEpoch } : {}),
    ...extra,
  });
}

/** The example `mission.create` payload, for Mission m1 in Group g1 coordinated by coord-1. */
export const CREATE_PAYLOAD = {
  ...(PAYLOAD_EXAMPLES['mission.create'] as {
    title: string;
    objective: string;
    definitionOfDone: object[];
    budget: object;
    deadline: string;
    permissions: string[];
    coordinatorLeaseSeconds: number;
    approvalPolicy: object;
  }),
  missionId: MISSION,
  groupId: GROUP,
  coordinatorId: COORD.id,
  mainConversationId: MAIN,
};

export function createCommand(payload: object = CREATE_PAYLOAD, extra: Partial<CommandEnvelope> = {}): CommandEnvelope {
  return envelope('mission.create', OWNER, payload, extra);
}

export const CONTRACT = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [] };
/** A contract that needs no Execution Approval, so its WorkItem can start (§10.2). */
export const RUNNABLE_CONTRACT = { ...CONTRACT, executionApproval: 'not_required' };
/** The selection basis the tests' offers record (§10.3). */
export const SELECTION = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;

export type Step = (state: GroupState | null) => CommandEnvelope;

let historyCounter = 0;

/** Runs `steps` through the decider from `given` on; every step must be accepted. */
export function history(steps: readonly Step[], given: readonly RecordedEvent[] = [], world: Partial<World> = {}): RecordedEvent[] {
  const events = [...given];
  let state = events.reduce(evolveGroup, null as GroupState | null);
  for (const step of steps) {
    const cmd = step(state);
    const ctx = testContext({ ...WORLD, ...world, idPrefix: `urn:test:id:h${++historyCounter}-` });
    const decision = decideGroupCommand(state, cmd, ctx);
    if (!decision.ok) throw new Error(`${cmd.kind} refused: ${decision.error.code} ${decision.error.reason}`);
    const recorded = recordDrafts(groupDecider, state, decision.events, cmd, ctx);
    state = recorded.reduce(evolveGroup, state);
    events.push(...recorded);
  }
  return events;
}

function inGroup(step: (state: GroupState) => CommandEnvelope): Step {
  return (state) => {
    if (state === null) throw new Error('the step needs a Group');
    return step(state);
  };
}

export const steps = {
  create: (() => createCommand()) as Step,
  addMember: (principal: Principal, role = 'worker') =>
    inGroup((s) => command(s, OWNER, 'membership.change', { principal, roles: [role] })),
  post: (author: Principal, messageId: string, content: unknown = 'hello', conversationId = MAIN) =>
    inGroup((s) => command(s, author, 'message.post', { messageId, conversationId, content })),
  authorize: (workItemId = WORK, contract: object = CONTRACT) =>
    inGroup((s) => command(s, COORD, 'work.authorize', { workItemId, contract })),
  offer: (candidates: readonly Principal[] = [WORKER], workItemId = WORK, extra: object = {}) =>
    inGroup((s) => command(s, COORD, 'work.offer', { workItemId, candidateAgentIds: candidates.map((c) => c.id), selectionBasis: SELECTION, ...extra })),
  acceptOffer: (worker: Principal = WORKER, workItemId = WORK) => inGroup((s) => command(s, worker, 'work.accept_offer', { workItemId })),
  startWork: (worker: Principal = WORKER, ownershipEpoch = 1, workItemId = WORK) =>
    inGroup((s) => command(s, worker, 'work.start', { workItemId, ownershipEpoch })),
  submit: (hashes = [HASH_A, HASH_B]) =>
    inGroup((s) => command(s, COORD, 'mission.submit_for_approval', { artifactHashes: hashes })),
  approve: () =>
    inGroup((s) =>
      command(s, OWNER, 'mission.approve', approvalPayload(s, { approvalId: 'urn:missionweave:approval:a1', artifactHashes: [HASH_A, HASH_B] })),
    ),
  cancel: () => inGroup((s) => command(s, OWNER, 'mission.cancel', { reason: 'no longer needed' })),
  terminate: () => inGroup((s) => command(s, COORD, 'mission.terminate', { reason: 'cannot be done' })),
};

/**
 * A `mission.approve` payload with its embedded signed Approval agreeing member by member (the
 * app verifies the signature before the decider sees it).
 */
export function approvalPayload(state: GroupState, flat: { approvalId: string; artifactHashes: string[]; missionRevision?: number; acceptancePolicyVersion?: string; comments?: string }, actor: Principal = OWNER): JsonObject {
  const missionRevision = flat.missionRevision ?? state.mission.revision;
  const acceptancePolicyVersion = flat.acceptancePolicyVersion ?? '1.0.0';
  const approval = {
    ...EXAMPLE_APPROVAL,
    approvalId: flat.approvalId,
    kind: state.mission.parent === undefined ? 'mission_final' : 'child_mission',
    missionId: state.mission.missionId,
    groupId: state.groupId,
    missionRevision,
    artifactHashes: [...flat.artifactHashes].sort(),
    acceptancePolicyVersion,
    approver: actor,
    comments: flat.comments ?? '',
  };
  return { ...flat, missionRevision, acceptancePolicyVersion, approval } as unknown as JsonObject;
}

/** A Mission with a worker and a reviewer, a Message by the worker and one open WorkItem. */
export function busyGroup(): RecordedEvent[] {
  return history([
    steps.create,
    steps.addMember(WORKER),
    steps.addMember(REVIEWER, 'reviewer'),
    steps.post(WORKER, 'urn:missionweave:message:m-1', 'first draft ready'),
    steps.authorize(),
  ]);
}

/** A Mission with two Workers and one `open` WorkItem w1 that needs no Execution Approval. */
export function workGroup(): RecordedEvent[] {
  return history([steps.create, steps.addMember(WORKER), steps.addMember(WORKER2), steps.authorize(WORK, RUNNABLE_CONTRACT)]);
}

/** w1 offered to both Workers at `T0`, for 300 s. */
export function offeredWork(): RecordedEvent[] {
  return history([steps.offer([WORKER, WORKER2])], workGroup());
}

/** w1 `queued`, owned by worker-7 under Ownership Epoch 1 (ownership lease 900 s from `T0`). */
export function queuedWork(): RecordedEvent[] {
  return history([steps.acceptOffer(WORKER)], offeredWork());
}

/** w1 `active` under worker-7's Execution Lease (300 s from `T0`). */
export function activeWork(): RecordedEvent[] {
  return history([steps.startWork(WORKER)], queuedWork());
}

/** Asserts `document` is valid against our schema `name` (schemas/<name>.schema.json). */
export function expectValid(name: string, document: unknown): void {
  const check = schemaRegistry().validateObject(name, document);
  expect(check.ok ? 'valid' : `${name} ${check.error}`).toBe('valid');
}

/** Every normative document a Group state holds is valid against our schemas. */
export function expectStateValid(state: GroupState): void {
  expectValid('group', state.group);
  expectValid('mission', state.mission);
  expectValid('lease', state.coordinatorLease);
  for (const m of state.memberships.values()) expectValid('membership', m);
  for (const c of state.conversations.values()) expectValid('conversation', c);
  for (const f of state.messages.values()) expectValid('message', f.message);
  for (const w of state.workItems.values()) expectValid('work-item', workItemDocument(w));
  if (state.missionNotes.approval !== undefined) expectValid('approval', state.missionNotes.approval);
}

/** The core Group kinds' entries by kind. */
export const COMMAND_RULES: Readonly<Record<string, AnyGroupKind>> = Object.fromEntries(CORE_GROUP_KINDS.map((entry) => [entry.kind, entry]));

/** The Messages the app loads before deciding `command`, as its kind's entry says. */
export function referencedMessageIds(command: CommandEnvelope): string[] {
  return (coreKinds.groupKind(command.kind)?.preload?.messages?.(command) ?? []).filter((id): id is string => id !== undefined);
}

/**
 * `events` with every authorized WorkItem as `verified`, owned by worker-7 with a recorded
 * submission (schema-valid): the given of a Mission whose required work was all accepted, until
 * the Commands that get it there (`work.accept_result`) are part of these histories.
 */
export function verifiedWorkHistory(events: readonly RecordedEvent[], workItemIds?: readonly string[]): RecordedEvent[] {
  return events.map((event) => {
    const workItem = event.payload['workItem'] as { workItemId: string } | undefined;
    if (event.kind !== 'work.authorized' || workItem === undefined || (workItemIds !== undefined && !workItemIds.includes(workItem.workItemId))) return event;
    const capability = { id: 'acme.sql-migration', version: '1.4.0' };
    const verified = {
      ...workItem,
      state: 'verified',
      owner: { agentId: WORKER.id, agentCardVersion: 3, capabilityPins: [capability], ownershipEpoch: 1, ownershipLeaseId: 'urn:missionweave:lease:own-1', acceptedAt: T0 },
      selectionBasis: {
        requiredCapabilities: [capability],
        verifiedMatches: [capability],
        authorizationEligible: true,
        availabilityEstimate: T0,
        expectedCost: 12,
        reliabilityEvidence: [],
        policyRulesApplied: ['default-placement'],
      },
      submission: { artifactHashes: [HASH_A, HASH_B], evidenceIds: ['urn:missionweave:evidence:e1'], submittedAt: T0 },
    };
    return { ...event, payload: { ...event.payload, workItem: verified } as JsonObject };
  });
}
