/**
 * The PoC's run: the Agent processes started, the human at the console, and the failure suite —
 * each injection (§22) waits for the moment it is meant for, acts on real processes and
 * sockets, and records what it did, for the checks (pocChecks.ts) to judge from the Events.
 */

import { join } from 'node:path';
import type { GroupPolicy } from '#src/client/runtime/schedulerTypes.js';
import type { Pool } from 'pg';
import { AgentProcess, type Journal } from './agentProcesses.js';
import type { HumanConsole } from './humanConsole.js';
import type { LinkProxy } from './linkProxy.js';
import type { CoordinatorInit, FromCoordinator, FromWorker, ToCoordinator, ToWorker, WorkerInit } from './pocMessages.js';
import { HOTFIX, missionAPlan, missionBPlan, securityPlan, workItemIdOf, type MissionPlan, type PocSize } from './pocPlan.js';
import type { AgentName, PocWorld } from './pocWorld.js';

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface Injection {
  readonly name: string;
  done: boolean;
  readonly facts: Record<string, unknown>;
}

export interface RunSetup {
  readonly root: string;
  readonly world: PocWorld;
  readonly proxies: Readonly<Record<AgentName, LinkProxy>>;
  readonly nodeUrl: string;
  readonly human: HumanConsole;
  readonly pool: Pool;
  readonly journal: Journal;
  readonly seed: number;
  readonly size: PocSize;
  readonly scripts: { readonly worker: string; readonly coordinator: string; readonly handler: string };
  readonly log: (line: string) => void;
}

export interface RunOutcome {
  readonly injections: Injection[];
  readonly childGroupId: string | undefined;
  readonly approved: { A: boolean; B: boolean };
  readonly processes: AgentProcess<ToWorker | ToCoordinator>[];
  readonly plans: Readonly<Record<string, MissionPlan>>;
}

async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) return undefined;
    await pause(50);
  }
}

/** Waits until `who` has reported nothing new for 300 ms (at most 5 s). */
async function quietOf(journal: Journal, who: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (let seen = -1; Date.now() < deadline; ) {
    const now = journal.of(who).length;
    if (now === seen) return;
    seen = now;
    await pause(300);
  }
}

export async function runScenario(setup: RunSetup): Promise<RunOutcome> {
  const { world, journal, seed, size, log } = setup;
  const { A, B } = world.missions;
  const plans: Record<string, MissionPlan> = { A: missionAPlan(size), B: missionBPlan(size), S: securityPlan() };
  const workersById = { 'w-shared': world.agents['w-shared'].id, 'w-a': world.agents['w-a'].id, 'w-b': world.agents['w-b'].id };
  const processes: AgentProcess<ToWorker | ToCoordinator>[] = [];
  const urlOf = (name: AgentName) => setup.proxies[name].url(setup.nodeUrl);
  const home = (name: string) => join(setup.root, 'agents', name);
  const policy = (weight: number): GroupPolicy => ({ weight, priorityClass: 'normal', maxConcurrent: 2, maxQueued: 50, admitting: true });

  const workerInit = (name: 'w-shared' | 'w-a' | 'w-b', groups: string[]): WorkerInit => ({
    type: 'init', agent: world.agents[name], url: urlOf(name), ca: world.ca, home: home(name), slots: name === 'w-b' ? 1 : 2, handler: setup.scripts.handler, seed,
    clockScale: 60, ownershipLeaseSeconds: name === 'w-b' ? 12 : 120, executionLeaseSeconds: name === 'w-b' ? 6 : 20, groups,
    policies: name === 'w-shared' ? { [A.groupId]: policy(2), [B.groupId]: policy(1) } : {},
    pocGroups: [A.groupId, B.groupId],
  });
  const workers = {
    'w-shared': new AgentProcess<ToWorker>('w-shared', setup.scripts.worker, journal),
    'w-a': new AgentProcess<ToWorker>('w-a', setup.scripts.worker, journal),
    'w-b': new AgentProcess<ToWorker>('w-b', setup.scripts.worker, journal),
  };
  const sharedGroups = [A.groupId, B.groupId];
  workers['w-shared'].spawn(workerInit('w-shared', sharedGroups));
  workers['w-a'].spawn(workerInit('w-a', [A.groupId]));
  workers['w-b'].spawn(workerInit('w-b', [B.groupId]));
  processes.push(...Object.values(workers));

  const coordinatorInit = (name: AgentName, mission: { groupId: string; missionId: string }, plan: MissionPlan, admit: string[] = []): CoordinatorInit => ({
    type: 'init', agent: world.agents[name], url: urlOf(name), ca: world.ca, home: home(name), seed, groupId: mission.groupId, missionId: mission.missionId, plan, workers: workersById, admit,
    childCoordinatorId: world.agents['coord-sec'].id,
  });
  const coordinators = {
    'coord-a': new AgentProcess<ToCoordinator>('coord-a', setup.scripts.coordinator, journal),
    'coord-a2': new AgentProcess<ToCoordinator>('coord-a2', setup.scripts.coordinator, journal),
    'coord-b': new AgentProcess<ToCoordinator>('coord-b', setup.scripts.coordinator, journal),
    'coord-sec': new AgentProcess<ToCoordinator>('coord-sec', setup.scripts.coordinator, journal),
  };
  processes.push(...Object.values(coordinators));
  await until(() => ['w-shared', 'w-a', 'w-b'].every((w) => journal.of(w).some((e) => e.message.type === 'ready')), 60_000);
  coordinators['coord-a'].spawn(coordinatorInit('coord-a', A, plans['A'] as MissionPlan));
  coordinators['coord-b'].spawn(coordinatorInit('coord-b', B, plans['B'] as MissionPlan));

  // The child security Mission: its Coordinator starts once the parent's Coordinator created it.
  let childGroupId: string | undefined;
  const childWatch = (async () => {
    const created = await until(() => journal.entries.find((e) => e.message.type === 'child-created')?.message as Extract<FromCoordinator, { type: 'child-created' }> | undefined, 300_000);
    if (created === undefined) return;
    childGroupId = created.groupId;
    coordinators['coord-sec'].spawn(coordinatorInit('coord-sec', created, plans['S'] as MissionPlan, ['w-shared']));
    await until(() => journal.of('coord-sec').some((e) => e.message.type === 'admitted'), 60_000);
    sharedGroups.push(created.groupId);
    workers['w-shared'].send({ type: 'join', groupId: created.groupId });
  })();

  const injections: Injection[] = [];
  const injection = (name: string): Injection => {
    const made: Injection = { name, done: false, facts: {} };
    injections.push(made);
    return made;
  };
  const jobs = (who: string) => journal.of(who).flatMap((e) => (e.message.type === 'job' ? [{ ...e.message, at: e.at }] : []));
  const running = (who: string): Record<string, number> => {
    const last = [...journal.of(who)].reverse().find((e) => e.message.type === 'decision' || e.message.type === 'ready');
    const m = last?.message as Extract<FromWorker, { type: 'decision' }> | Extract<FromWorker, { type: 'ready' }> | undefined;
    return (m === undefined ? {} : m.type === 'ready' ? m.recovery.held : m.held) as Record<string, number>;
  };
  const quiet = (who: string) => quietOf(journal, who);
  const sum = (held: Record<string, number>, status: string) => Object.entries(held).filter(([k]) => k.endsWith(`|${status}`)).reduce((n, [, v]) => n + v, 0);
  const stateOf = async (groupId: string, workItemId: string, kind: string) => (await setup.pool.query('select count(*)::int as n from events where group_id = $1 and kind = $2 and document like $3', [groupId, kind, `%${workItemId}%`])).rows[0].n as number;

  const duplicate = (async () => {
    const made = injection('duplicate-event-delivery');
    await until(() => journal.of('coord-a').filter((e) => e.message.type === 'action' && e.message.outcome === 'accepted').length >= 3, 60_000);
    coordinators['coord-a'].send({ type: 'redeliver' });
    const answer = await until(() => journal.of('coord-a').find((e) => e.message.type === 'redelivered')?.message as Extract<FromCoordinator, { type: 'redelivered' }> | undefined, 10_000);
    Object.assign(made.facts, { redelivered: answer?.events ?? 0 });
    made.done = (answer?.events ?? 0) > 0;
  })();

  const disconnection = (async () => {
    const made = injection('temporary-group-disconnection');
    const job = await until(() => jobs('w-a').find((j) => j.phase === 'started'), 60_000);
    if (job === undefined) return;
    await pause(150);
    setup.proxies['w-a'].cut();
    log(`w-a disconnected while running ${job.facts.stage}`);
    await pause(1_500);
    setup.proxies['w-a'].restore();
    Object.assign(made.facts, { workItemId: job.facts.workItemId, stage: job.facts.stage, cutAt: Date.now() });
    made.done = true;
  })();

  const arrival = (async () => {
    const made = injection('high-priority-arrival');
    const busy = await until(() => {
      const held = running('w-shared');
      // Both slots busy, one with a routine feature of B that has just begun (at most 1 of its
      // steps done): it is still running when the hotfix's preemption is asked for.
      const mine = jobs('w-shared').filter((j) => j.facts.groupId === B.groupId);
      const fresh = mine.filter((j) => j.phase === 'started' && j.facts.stage.startsWith('feature-')).some((start) => {
        const after = mine.filter((j) => j.facts.workItemId === start.facts.workItemId && j.at >= start.at);
        return after.filter((j) => j.phase === 'checkpoint').length <= 1 && after.every((j) => j.phase === 'started' || j.phase === 'checkpoint');
      });
      return sum(held, 'running') >= 2 && (held[`${B.groupId}|running`] ?? 0) >= 1 && fresh;
    }, 90_000);
    if (busy === undefined) return;
    // The feature is held busy at its next step until the hotfix, seconds away on a loaded machine
    // (authorized, offered, accepted, admitted), has asked to preempt it; then it goes on, and
    // yields at that safe checkpoint. Without the hold a 24-step feature could end first.
    const asked = () => journal.of('w-shared').filter((e) => e.message.type === 'decision' && e.message.decision['type'] === 'preemption.requested').length;
    const before = asked();
    workers['w-shared'].send({ type: 'hold', groupId: B.groupId });
    coordinators['coord-b'].send({ type: 'add-stage', stage: HOTFIX });
    Object.assign(made.facts, { workItemId: workItemIdOf(seed, B.groupId, HOTFIX.key), at: Date.now() });
    await until(() => asked() > before, 90_000);
    workers['w-shared'].send({ type: 'release' });
    const verified = await until(async () => (await stateOf(B.groupId, workItemIdOf(seed, B.groupId, HOTFIX.key), 'work.result.accepted')) > 0, 60_000);
    made.done = verified === true;
  })();

  const leaseExpiry = (async () => {
    const made = injection('lease-expiry-and-reassignment');
    const job = await until(() => jobs('w-b').find((j) => j.phase === 'checkpoint' && j.facts.stage.startsWith('feature-')), 90_000);
    if (job === undefined) return;
    workers['w-b'].signal('SIGSTOP');
    log(`w-b paused (SIGSTOP) in ${job.facts.stage}`);
    coordinators['coord-b'].send({ type: 'reassign', stage: job.facts.stage, worker: 'w-shared' });
    const verified = await until(async () => (await stateOf(B.groupId, job.facts.workItemId, 'work.result.accepted')) > 0, 90_000);
    workers['w-b'].signal('SIGCONT');
    log('w-b resumed (SIGCONT)');
    const refused = await until(() => jobs('w-b').find((j) => j.phase === 'refused' && j.facts.workItemId === job.facts.workItemId && j.at > Date.now() - 60_000), 20_000);
    Object.assign(made.facts, { workItemId: job.facts.workItemId, stage: job.facts.stage, lateRefusal: refused?.detail });
    made.done = verified === true;
  })();

  const restart = (async () => {
    const made = injection('worker-restart-and-queue-rebuild');
    await arrival;
    // Killed right after a safe checkpoint of a running job: that run is resumable from it.
    const since = Date.now();
    const busy = await until(() => jobs('w-shared').find((j) => j.phase === 'checkpoint' && j.at >= since), 120_000);
    if (busy === undefined) return;
    // Frozen first, and its messages in flight read, so that what it reported holding is what its
    // projection holds at the kill (a run that ended meanwhile, reported too late, made the
    // snapshot stale by one on a loaded machine).
    workers['w-shared'].signal('SIGSTOP');
    await quiet('w-shared');
    const before = running('w-shared');
    await workers['w-shared'].kill();
    log(`w-shared killed (SIGKILL) holding ${JSON.stringify(before)}`);
    const readies = journal.of('w-shared').filter((e) => e.message.type === 'ready').length;
    // What the new process reports counts from its spawn: its runtime host may start runs before
    // it says it is ready (an offer or an Event taken while it sweeps the Groups' views).
    const restartedAt = Date.now();
    workers['w-shared'].spawn(workerInit('w-shared', [...sharedGroups]));
    const ready = await until(() => {
      const all = journal.of('w-shared').filter((e) => e.message.type === 'ready');
      return all.length > readies ? all.at(-1) : undefined;
    }, 60_000);
    const recovery = (ready?.message as Extract<FromWorker, { type: 'ready' }> | undefined)?.recovery;
    Object.assign(made.facts, { heldBefore: before, recovery, restartedAt });
    made.done = ready !== undefined;
  })();

  const coordinatorFailure = (async () => {
    const made = injection('coordinator-failure-and-epoch-replacement');
    // Killed at its moment only (testing offered: before the child Mission, whose MissionOwner is
    // the Coordinator that creates it, exists); never at a timeout's whim on a slow machine.
    const moment = await until(() => journal.of('coord-a').some((e) => e.message.type === 'action' && e.message.action === 'offer' && e.message.stage === 'testing' && e.message.outcome === 'accepted'), 240_000);
    if (moment === undefined) return;
    await coordinators['coord-a'].kill();
    log('coord-a killed (SIGKILL)');
    const assigned = await setup.human.command(A.groupId, 'mission.assign_coordinator', { coordinatorId: world.agents['coord-a2'].id, leaseSeconds: 3_600 });
    coordinators['coord-a2'].spawn(coordinatorInit('coord-a2', A, plans['A'] as MissionPlan));
    const acted = await until(() => journal.of('coord-a2').some((e) => e.message.type === 'action' && e.message.outcome === 'accepted'), 60_000);
    Object.assign(made.facts, { assigned: assigned.ok ? 'accepted' : assigned.code, replacementActed: acted === true });
    made.done = assigned.ok && acted === true;
  })();

  const changeRequest = injection('human-change-request');
  const approved = { A: false, B: false };
  // Bounds, not pace: on a loaded machine (the full suite on 2 cores) a reduced run took 400 s in all.
  const deadline = Date.now() + (size === 'full' ? 420_000 : 360_000);
  while (!(approved.A && approved.B) && Date.now() < deadline) {
    for (const [name, mission] of [['A', A], ['B', B]] as const) {
      if (approved[name]) continue;
      const pending = await setup.human.pendingApproval(mission.groupId).catch(() => undefined);
      if (pending === undefined) continue;
      if (name === 'A' && !changeRequest.done) {
        const asked = await setup.human.requestChanges(mission.groupId, pending.missionRevision, 'Please add a rework pass on the integration notes before release.');
        Object.assign(changeRequest.facts, { revision: pending.missionRevision, outcome: asked.ok ? 'accepted' : asked.code });
        changeRequest.done = asked.ok;
        log(`human requested changes to Mission A (revision ${pending.missionRevision})`);
        continue;
      }
      const answer = await setup.human.approve(mission.groupId, pending);
      approved[name] = answer.ok;
      log(`human approved Mission ${name} (revision ${pending.missionRevision}): ${answer.ok ? 'accepted' : answer.code}`);
    }
    await pause(250);
  }
  await Promise.race([Promise.all([duplicate, disconnection, arrival, leaseExpiry, restart, coordinatorFailure, childWatch]), pause(5_000)]);
  return { injections, childGroupId, approved, processes, plans };
}
