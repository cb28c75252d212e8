/**
 * Fixtures of the execution half of §10.2 (checkpoint … cancel): owned, queued, active, blocked
 * or submitted WorkItems built with the foundation's lease builders, and Evidence about w1.
 */

import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import type { Principal } from '../../src/protocol/principal.js';

import type { JsonObject } from '../../src/protocol/strictJson.js';

import { testContext } from '../support/specification.js';
import type { WorkItem, WorkOffer } from '../../src/domain/documents.js';
import { WORK_LINKS_EXTENSION, type WorkItemLinks } from '../../src/domain/workItem/workItemDocuments.js';
import { newWorkLease } from '../../src/domain/workItem/workLeases.js';
import { documentWithLeases } from './workDocuments.js';

import {
  CONTENT_SIZE,
  GROUP,
  HASH_A,
  HASH_B,
  MISSION,
  T0,
  WORK,
  WORKER,
  WORLD,
  busyGroup,
  stateOf,
} from './fixtures.js';

/*
 * The execution half of §10.2 (checkpoint … cancel): WorkItem w1 of `busyGroup()` rewritten as
 * `work.offer` / `work.accept_offer` / `work.start` would leave it, with the foundation's own lease
 * builders, so those tests need no Commands of those kinds. Owner worker-7 under Ownership Epoch 2;
 * its Execution Lease `EXEC_RUN_LEASE` is the current one, `EXEC_OLD_RUN_LEASE` (same epoch) was
 * released at an earlier checkpoint.
 */

export const EXEC_EPOCH = 2;
export const EXEC_OWN_LEASE = 'urn:missionweave:lease:exec-own';
export const EXEC_RUN_LEASE = 'urn:missionweave:lease:exec-run-2';
export const EXEC_OLD_RUN_LEASE = 'urn:missionweave:lease:exec-run-1';
export const EXEC_SUBMITTED_EVIDENCE = 'urn:missionweave:evidence:exec-submitted';
const EXEC_PIN = { id: 'acme.sql-migration', version: '1.4.0' };

export const EXEC_SELECTION = {
  requiredCapabilities: [EXEC_PIN],
  verifiedMatches: [EXEC_PIN],
  authorizationEligible: true,
  availabilityEstimate: T0,
  expectedCost: 12,
  reliabilityEvidence: [],
  policyRulesApplied: ['default-placement'],
};

export interface ExecSetup {
  readonly state: WorkItem['state'];
  /** The owning Agent (default worker-7); none for `open` and `offered`. */
  readonly owner?: Principal;
  readonly ownershipSeconds?: number;
  readonly executionSeconds?: number;
  readonly offers?: readonly WorkOffer[];
  readonly childMission?: WorkItemLinks['childMission'];
}

const OWNED_STATES: ReadonlySet<string> = new Set(['queued', 'active', 'blocked', 'submitted']);

/** `workItem` as the offer, acceptance and start Commands would leave it in `setup.state`. */
export function execWorkItem(workItem: WorkItem, setup: ExecSetup): WorkItem {
  const ctx = testContext(WORLD);
  const base: WorkItem = {
    ...workItem,
    state: setup.state,
    revision: 4,
    ...(setup.offers === undefined ? {} : { offers: setup.offers }),
    ...(setup.childMission === undefined ? {} : { extensions: { [WORK_LINKS_EXTENSION]: { version: '0.1.0', critical: false, data: { childMission: setup.childMission } as unknown as JsonObject } } }),
  };
  if (!OWNED_STATES.has(setup.state)) return base;
  const holder = setup.owner ?? WORKER;
  const owned: WorkItem = {
    ...base,
    owner: { agentId: holder.id, agentCardVersion: 3, capabilityPins: [EXEC_PIN], ownershipEpoch: EXEC_EPOCH, ownershipLeaseId: EXEC_OWN_LEASE, acceptedAt: T0 },
    selectionBasis: EXEC_SELECTION,
    ...(setup.state === 'submitted' ? { submission: { artifactHashes: [HASH_A], evidenceIds: [EXEC_SUBMITTED_EVIDENCE], submittedAt: T0 } } : {}),
  };
  const lease = (leaseId: string, leaseType: 'ownership' | 'execution' | 'blocked', seconds: number) =>
    newWorkLease({ leaseId, leaseType, workItem: owned, holderAgentId: holder.id, sessionEpoch: 1, ownershipEpoch: EXEC_EPOCH, seconds }, ctx);
  const ownership = lease(EXEC_OWN_LEASE, setup.state === 'blocked' ? 'blocked' : 'ownership', setup.ownershipSeconds ?? 600);
  const old = { ...lease(EXEC_OLD_RUN_LEASE, 'execution', 60), state: 'released' as const, closedAt: T0, closureReason: 'checkpointed' };
  const execution = setup.state === 'active' ? { execution: lease(EXEC_RUN_LEASE, 'execution', setup.executionSeconds ?? 300) } : {};
  return documentWithLeases(owned, { ownership, ...execution, closed: [old] });
}

/** A schema-valid Artifact manifest of w1 by worker-7 (signature syntactically valid, not verified). */
export function execManifest(contentHash: string, extra: object = {}): JsonObject {
  return {
    artifactId: `urn:missionweave:artifact:${contentHash.slice(7, 15)}`,
    contentHash,
    uri: `https://artifacts.acme.example/${contentHash}`,
    sizeBytes: CONTENT_SIZE,
    mediaType: 'application/sql',
    schemaUri: 'urn:missionweave:schema:sql-migration',
    producer: { agentId: WORKER.id, agentCardVersion: 3, capabilities: [EXEC_PIN] },
    missionId: MISSION,
    groupId: GROUP,
    workItemId: WORK,
    sourceArtifactHashes: [],
    toolVersions: [],
    modelVersions: [],
    classification: 'internal',
    createdAt: T0,
    signature: { algorithm: 'Ed25519', keyId: `urn:test:key:${WORKER.id}`, createdAt: T0, value: 'A'.repeat(86) },
    ...extra,
  } as unknown as JsonObject;
}

/** The `artifact.published` Event of `manifest`, recorded after `given`. */
export function publishedEvent(given: readonly RecordedEvent[], manifest: JsonObject): RecordedEvent {
  const sequence = (given.at(-1)?.sequence ?? 0) + 1;
  return {
    kind: 'artifact.published',
    payload: { artifact: manifest, workItemId: WORK, ownershipEpoch: EXEC_EPOCH, executionLeaseId: EXEC_RUN_LEASE },
    actor: WORKER,
    occurredAt: T0,
    eventId: `urn:test:event:published-${sequence}`,
    sequence,
  };
}

/** The states in which w1 has run and published HASH_A and HASH_B under its current lease. */
const PUBLISHED_STATES: ReadonlySet<string> = new Set(['active', 'submitted']);

/** `given` (default `busyGroup()`) with WorkItem w1 as `setup` describes it. */
export function execGiven(setup: ExecSetup, given: readonly RecordedEvent[] = busyGroup()): RecordedEvent[] {
  const events = given.map((event) => {
    if (event.kind !== 'work.authorized') return event;
    const workItem = execWorkItem(event.payload['workItem'] as unknown as WorkItem, setup);
    return { ...event, payload: { ...event.payload, workItem: workItem as unknown as JsonObject } };
  });
  if (!PUBLISHED_STATES.has(setup.state)) return events;
  for (const hash of [HASH_A, HASH_B]) events.push(publishedEvent(events, execManifest(hash)));
  return events;
}

/** A schema-valid Evidence about w1 by `generatedBy` (signature syntactically valid, not verified). */
export function execEvidence(evidenceId: string, generatedBy: Principal = WORKER, extra: object = {}): JsonObject {
  return {
    evidenceId,
    missionId: MISSION,
    groupId: GROUP,
    workItemId: WORK,
    type: 'deterministic_test',
    subject: { type: 'work_item', id: WORK },
    criterionIds: ['migration-roundtrip'],
    method: 'npm test against a copy of production',
    result: 'passed',
    artifactHashes: [HASH_A],
    generatedBy,
    createdAt: T0,
    signature: { algorithm: 'Ed25519', keyId: `urn:test:key:${generatedBy.id}`, createdAt: T0, value: 'A'.repeat(86) },
    ...extra,
  } as unknown as JsonObject;
}

/** `execGiven(setup)` and the state it leaves. */
export function execState(setup: ExecSetup): { events: RecordedEvent[]; state: GroupState } {
  const events = execGiven(setup);
  return { events, state: stateOf(events) };
}

/** A checkpoint as a Worker reports it (§11.4). */
export const EXEC_CHECKPOINT = { phase: 'migrating', completedMilestones: ['schema copied'], nextStep: 'backfill', createdAt: T0 };

/** What every lease-citing payload about w1 carries: the current epoch and Execution Lease. */
export const EXEC_LEASED = { workItemId: WORK, ownershipEpoch: EXEC_EPOCH, executionLeaseId: EXEC_RUN_LEASE };

/** The owner's failure Evidence about w1. */
export const execFailure = () => [execEvidence('urn:x:failure', WORKER, { type: 'failure_report', result: 'failed' })];
