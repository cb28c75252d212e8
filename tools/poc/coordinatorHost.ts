/**
 * One PoC Coordinator as an OS process of its own (forked by poc.ts), with its own home and SQLite
 * projection (its Cursors and the WorkItems it has seen, as Group context). It drives one
 * Mission's graph (pocPlan.ts) from what the Group's Events say, never from memory of its own
 * actions: authorize each stage under a WorkItem ID derived from the seed, offer it once its
 * dependencies are verified, review each submission (reviewer_assessment Evidence) and accept it,
 * promote the security stage to a child Mission, approve that child as its MissionOwner, and
 * submit the Mission for the human's Approval — again after a change request, with a rework
 * stage. So a replacement Coordinator (a new Coordinator Epoch) or an Event delivered twice
 * leads to the same decisions, and a repeated one is refused by the Authority, never applied twice.
 */

import { createPrivateKey, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MissionWeaveAgent } from '#src/client/agent.js';
import { MissionWeaveCoordinator } from '#src/client/coordinator.js';
import type { GroupEvent } from '#src/client/documents.js';
import { workItemOf, type WorkItemDocument } from '#src/client/workDocuments.js';
import { openProjection, type LocalProjection } from '#src/client/runtime/projection.js';
import { signDocument } from '#src/protocol/signing/signDocument.js';
import type { CoordinatorInit, FromCoordinator, ToCoordinator } from './pocMessages.js';
import { reworkStage, topological, workItemIdOf, type Stage } from './pocPlan.js';
import { contractOf, selectionBasisOf } from './pocContracts.js';

const tell = (message: FromCoordinator): void => {
  process.send?.(message);
};
const log = (line: string): void => tell({ type: 'log', line });

let init: CoordinatorInit;
let agent: MissionWeaveAgent;
let coordinator: MissionWeaveCoordinator;
let projection: LocalProjection;
const items = new Map<string, WorkItemDocument>();
const extraStages: Stage[] = [];
const reassigned = new Map<string, string>();
/** The Mission as its last Event showed it, per Group (its own, and a child it owns). */
const missions = new Map<string, { state: string; revision: number; changeRounds: number; pendingRevision?: number }>();
const received: GroupEvent[] = [];
const offered = new Set<string>();
/** WorkItems a Command was accepted for, at the revision decided on: not decided on again until its Event arrives (or 5 s pass). */
const awaiting = new Map<string, { revision: number; at: number }>();

function settled(id: string): boolean {
  const wait = awaiting.get(id);
  if (wait === undefined) return true;
  if ((items.get(id)?.revision ?? -1) !== wait.revision || Date.now() - wait.at > 5_000) {
    awaiting.delete(id);
    return true;
  }
  return false;
}

function sent(id: string, ok: boolean): boolean {
  if (ok) awaiting.set(id, { revision: items.get(id)?.revision ?? -1, at: Date.now() });
  return ok;
}
let childGroupId: string | undefined;
/** Who coordinates each Group, as its last Mission Event said. */
const coordinators = new Map<string, string>();
let busy = false;
let dirty = false;

function stages(): Stage[] {
  const rounds = missions.get(init.groupId)?.changeRounds ?? 0;
  const rework = Array.from({ length: rounds }, (_, i) => reworkStage(i + 1));
  return topological([...init.plan.stages, ...extraStages, ...rework]);
}

function idOf(key: string): string {
  return workItemIdOf(init.seed, init.groupId, key);
}

function onEvent(event: GroupEvent): void {
  received.push(event);
  if (received.length > 10_000) received.shift();
  apply(event);
  kick();
}

/** WorkItem → the Ownership Epoch whose owner the Authority fenced (its ownership lease closed, §11.5). */
const fenced = new Map<string, number>();
const LEASE_CLOSED = 'ext.missionweave.core.work_lease_closed';

function apply(event: GroupEvent): void {
  if (event.kind === LEASE_CLOSED && event.groupId === init.groupId) {
    const closed = event.payload as { workItemId?: string; ownershipEpoch?: number; closedLeases?: { leaseType?: string }[] };
    if (closed.workItemId !== undefined && typeof closed.ownershipEpoch === 'number' && closed.closedLeases?.some((l) => l.leaseType === 'ownership') === true) fenced.set(closed.workItemId, closed.ownershipEpoch);
  }
  const workItem = workItemOf(event);
  if (workItem !== undefined && event.groupId === init.groupId) {
    const known = items.get(workItem.workItemId);
    if (known === undefined || known.revision <= workItem.revision) items.set(workItem.workItemId, workItem);
  }
  const payload = event.payload as { mission?: { state: string; revision: number; coordinator?: { agentId?: string } }; missionRevision?: number; childGroupId?: string };
  if (payload.mission !== undefined && event.kind.startsWith('mission.')) {
    if (payload.mission.coordinator?.agentId !== undefined) coordinators.set(event.groupId, payload.mission.coordinator.agentId);
    const known = missions.get(event.groupId) ?? { state: 'active', revision: 0, changeRounds: 0 };
    missions.set(event.groupId, {
      state: payload.mission.state,
      revision: payload.mission.revision,
      changeRounds: known.changeRounds + (event.kind === 'mission.changes_requested' ? 1 : 0),
      ...(event.kind === 'mission.submitted_for_approval' ? { pendingRevision: payload.missionRevision ?? payload.mission.revision } : {}),
    });
  }
  if (event.kind === 'mission.child.created' && event.groupId === init.groupId && payload.childGroupId !== undefined && childGroupId === undefined) {
    childGroupId = payload.childGroupId;
    void agent.subscribe(childGroupId).catch((error: unknown) => log(`child subscribe: ${String(error)}`));
  }
}

function kick(): void {
  if (busy) {
    dirty = true;
    return;
  }
  busy = true;
  void (async () => {
    try {
      do {
        dirty = false;
        while (await step()) dirty = false;
      } while (dirty);
    } catch (error) {
      log(`reconcile: ${String((error as { code?: string }).code ?? error)} ${(error as Error).message ?? ''}`);
      setTimeout(kick, 300);
    } finally {
      busy = false;
    }
  })();
}

async function act(action: string, stage: string | undefined, run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    tell({ type: 'action', action, ...(stage === undefined ? {} : { stage }), outcome: 'accepted' });
    return true;
  } catch (error) {
    const code = String((error as { code?: string }).code ?? error);
    tell({ type: 'action', action, ...(stage === undefined ? {} : { stage }), outcome: code });
    if (code === 'INVALID_COMMAND') log(`${action} ${stage ?? ''}: ${(error as Error).message}`);
    return false;
  }
}

/** One decision from the current state, taken; false when there is nothing to do now. */
async function step(): Promise<boolean> {
  const epoch = coordinator.epochs.facts(init.groupId)?.coordinatorEpoch;
  const mine = epoch !== undefined && isCoordinator();
  if (!mine) return false;
  const mission = missions.get(init.groupId);
  if (mission !== undefined && mission.state !== 'active') return childApproval();
  const all = stages();
  const verified = (key: string) => items.get(idOf(key))?.state === 'verified';
  for (const stage of all) {
    const id = idOf(stage.key);
    const item = items.get(id);
    if (!settled(id)) continue;
    if (item === undefined) {
      if (!stage.deps.every((d) => items.has(idOf(d)))) continue;
      return sent(id, await act('authorize', stage.key, () => coordinator.authorize(init.groupId, { workItemId: id, contract: contractOf(stage, stage.deps.map(idOf), init.plan.name === 'S' ? 17 : 19) })));
    }
    if (item.state === 'submitted') {
      const hashes = [...(item.submission?.artifactHashes ?? [])];
      return sent(id, await act('accept-result', stage.key, async () => {
        const review = await coordinator.evidence(item, { type: 'reviewer_assessment', criterionIds: item.contract.acceptanceCriteria.map((c) => c.criterionId), method: `Coordinator review of ${stage.key}`, result: 'passed', artifactHashes: hashes });
        await coordinator.acceptResult(init.groupId, id, [review]);
      }));
    }
    // Blocked by its Worker (its runtime lost the run in a restart, `runtime-session-lost`, or its
    // handler could not finish): the Coordinator lets its owner run it again (§11.4, §11.5).
    if (item.state === 'blocked' && stage.child !== true) {
      return sent(id, await act('unblock', stage.key, () => agent.command('work.unblock', { workItemId: id }, options(init.groupId))));
    }
    const worker = reassigned.get(stage.key) ?? stage.worker;
    const workerId = init.workers[worker];
    const readyToGo = stage.deps.every(verified);
    if (stage.child === true && item.state === 'open' && readyToGo && childGroupId === undefined) return createChild(stage, id);
    const offerKey = `${stage.key}|${worker}|${item.owner?.ownershipEpoch ?? 0}`;
    if (stage.child !== true && readyToGo && workerId !== undefined && !offered.has(offerKey) && offerable(item, workerId)) {
      offered.add(offerKey);
      const ok = await act('offer', stage.key, () => coordinator.offer(init.groupId, { workItemId: id, candidateAgentIds: [workerId], selectionBasis: selectionBasisOf(), offerExpiresInSeconds: 600 }));
      // Refused (the old owner still live, §11.5): asked again at a later tick, not in this loop.
      if (!ok) setTimeout(() => offered.delete(offerKey), 1_000);
      return sent(id, ok);
    }
  }
  if (mission?.state === 'active' && all.every((s) => verified(s.key))) {
    const hashes = [...new Set(all.flatMap((s) => [...(items.get(idOf(s.key))?.submission?.artifactHashes ?? [])]))].sort();
    return act('submit-for-approval', undefined, () => agent.command('mission.submit_for_approval', { artifactHashes: hashes }, options(init.groupId)));
  }
  return childApproval();
}

/**
 * A WorkItem the Coordinator may offer now: open; back in the queue with its owner fenced (its
 * ownership lease expired, §11.5: offered again, to the stage's Worker); or reassigned away from
 * its owner (refused while that owner is still live, asked again later).
 */
function offerable(item: WorkItemDocument, workerId: string): boolean {
  if (item.state === 'open') return true;
  if (item.state !== 'queued' && item.state !== 'offered') return false;
  if (item.owner !== undefined && fenced.get(item.workItemId) === item.owner.ownershipEpoch) return true;
  return reassignedTo(item.workItemId) === workerId && item.owner?.agentId !== workerId;
}

function reassignedTo(workItemId: string): string | undefined {
  const stage = stages().find((s) => idOf(s.key) === workItemId);
  const worker = stage === undefined ? undefined : reassigned.get(stage.key);
  return worker === undefined ? undefined : init.workers[worker];
}

function isCoordinator(): boolean {
  return coordinators.get(init.groupId) === agent.agentId;
}

function options(groupId: string): { groupId: string; membershipEpoch?: number; coordinatorEpoch?: number } {
  const facts = coordinator.epochs.facts(groupId);
  return { groupId, ...(facts?.membershipEpoch === undefined ? {} : { membershipEpoch: facts.membershipEpoch }), ...(facts?.coordinatorEpoch === undefined ? {} : { coordinatorEpoch: facts.coordinatorEpoch }) };
}

async function createChild(stage: Stage, parentWorkItemId: string): Promise<boolean> {
  const suffix = randomUUID();
  const child = { missionId: `urn:missionweave:mission:${suffix}`, groupId: `urn:missionweave:group:${suffix}`, mainConversationId: `urn:missionweave:conversation:${suffix}` };
  const ok = await act('create-child', stage.key, () => agent.command('mission.create_child', {
    ...child, parentWorkItemId, coordinatorId: init.childCoordinatorId ?? '', title: 'Security review', objective: `Security review of ${init.groupId} before integration.`,
    definitionOfDone: [{ criterionId: 'audited', description: 'No open high-risk finding.', evidenceRequired: ['deterministic_test'] }],
    budget: { currency: 'EUR', financialLimit: 1 }, deadline: new Date(Date.now() + 18 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'), failurePolicy: 'block_parent_work_item',
  }, options(init.groupId)));
  if (ok) tell({ type: 'child-created', groupId: child.groupId, missionId: child.missionId });
  return ok;
}

/** As the child Mission's owner: approve the result it submitted (§14). */
async function childApproval(): Promise<boolean> {
  if (childGroupId === undefined) return false;
  const child = missions.get(childGroupId);
  if (child?.state !== 'awaiting_approval' || child.pendingRevision === undefined) return false;
  const groupId = childGroupId;
  const revision = child.pendingRevision;
  const submitted = received.find((e) => e.groupId === groupId && e.kind === 'mission.submitted_for_approval' && (e.payload as { missionRevision?: number }).missionRevision === revision);
  const artifactHashes = [...((submitted?.payload as { artifactHashes?: string[] } | undefined)?.artifactHashes ?? [])];
  const missionId = (submitted?.payload as { mission?: { missionId: string } } | undefined)?.mission?.missionId ?? '';
  const approval = signDocument('approval', {
    approvalId: `urn:uuid:${randomUUID()}`, kind: 'child_mission', decision: 'approved', missionId, groupId, missionRevision: revision, artifactHashes,
    acceptancePolicyVersion: '1.0.0', approver: { type: 'agent', id: agent.agentId }, comments: 'Security review accepted.', conditions: [], occurredAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  }, { keyId: init.agent.keyId, privateKey: createPrivateKey(init.agent.privateKeyPem) });
  child.pendingRevision = undefined;
  return act('approve-child', undefined, () => agent.command('mission.approve', { approvalId: approval['approvalId'], missionRevision: revision, artifactHashes, acceptancePolicyVersion: '1.0.0', comments: 'Security review accepted.', approval }, { groupId, ...(coordinator.epochs.facts(groupId)?.membershipEpoch === undefined ? {} : { membershipEpoch: coordinator.epochs.facts(groupId)?.membershipEpoch }) }));
}

async function start(message: CoordinatorInit): Promise<void> {
  init = message;
  projection = openProjection({ path: join(message.home, 'projection.sqlite'), agentId: message.agent.id });
  agent = new MissionWeaveAgent({ url: message.url, ca: message.ca, agentId: message.agent.id, keyId: message.agent.keyId, privateKey: createPrivateKey(message.agent.privateKeyPem), cursorStore: projection.cursors, reconnect: { initialDelayMs: 100, maxDelayMs: 1_000 } });
  coordinator = new MissionWeaveCoordinator(agent);
  agent.onEvent((event) => onEvent(event));
  agent.onError((error) => log(`agent error ${error.code}: ${error.message}`));
  await agent.connect();
  await agent.subscribe(message.groupId, { afterSequence: 0 });
  for (let waited = 0; !isCoordinator() && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const name of message.admit) {
    const id = message.workers[name];
    if (id === undefined) continue;
    if (await act('admit', name, () => coordinator.admit(message.groupId, id))) tell({ type: 'admitted', groupId: message.groupId, worker: name });
  }
  tell({ type: 'ready', coordinatorEpoch: coordinator.epochs.facts(message.groupId)?.coordinatorEpoch ?? 0 });
  setInterval(kick, 500).unref();
  kick();
}

process.on('message', (message: ToCoordinator) => {
  if (message.type === 'init') {
    start(message).catch((error: unknown) => {
      log(`start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(3);
    });
  } else if (message.type === 'add-stage') {
    extraStages.push(message.stage);
    kick();
  } else if (message.type === 'reassign') {
    reassigned.set(message.stage, message.worker);
    kick();
  } else {
    // Duplicate delivery: every Event received so far is handed over again; the decisions rest on
    // the state the Events describe, so a second copy changes nothing and asks for nothing new.
    const again = [...received];
    for (const event of again) apply(event);
    tell({ type: 'redelivered', events: again.length, actionsTaken: 0 });
    kick();
  }
});
process.on('disconnect', () => process.exit(0));
