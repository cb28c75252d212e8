/**
 * The Worker faults of the fault suite, as rounds of governed work in one work Mission. In each
 * round the Coordinator authorizes a WorkItem and offers it to two Worker processes, which accept
 * at the same moment through (often) different nodes: a race only one may win (§10.3). The winner
 * starts under a short Execution Lease and renews it while it works; then, by turns:
 *
 * - `pause`: the winner is SIGSTOPped right after it started and stays stopped past both of its
 *   leases: the Coordinator re-offers the WorkItem (possible only once the Authority's clock has
 *   the ownership lease expired; the expired owner is fenced first, §10.2) and the other Worker
 *   accepts and starts it under a higher Ownership Epoch. At that moment the paused Worker is
 *   resumed and, naive as it is, renews and submits under its old epoch and lease while the
 *   WorkItem is `active` again: only fencing, not the WorkItem's state, can refuse that late
 *   result (§11.5: it must not complete the WorkItem). The other Worker then completes it;
 * - `kill`: the winner is SIGKILLed mid-execution (half the time with a Command in flight), its
 *   unanswered Commands are settled, it is forked again, and the WorkItem is re-offered and
 *   completed as above;
 * - `plain`: the winner finishes and the Coordinator accepts its result.
 *
 * Node kills and database restarts go on meanwhile, so a healthy Worker may lose its lease too:
 * whatever did not end in a submission is re-offered until the WorkItem is verified or the
 * round's deadline passes. The checker (workChecker.ts) then proves from the logs alone that no
 * WorkItem was completed by a fenced owner and no offer was won twice.
 */

import { randomUUID } from 'node:crypto';
import type { BenchAgent } from '../bench/benchWorld.js';
import { AgentSeat, pause, type Stage } from './actors.js';
import type { Answer } from './agentLink.js';
import type { WorkerProcess } from './workerPool.js';
import { selectionBasis, signedEvidence, workContract, type WorkGroup } from './workDocuments.js';

/**
 * Lease lengths, short so that a fault round fits in seconds. The ownership lease must outlast a
 * healthy Worker's start and work (WORK_MS); the Execution Lease is renewed every RENEW_EVERY_MS,
 * several times per lease, so one slow renewal does not lose it.
 */
const OWNERSHIP_LEASE_SECONDS = 6;
const EXECUTION_LEASE_SECONDS = 2;
const RENEW_EVERY_MS = 500;
const WORK_MS = { min: 800, spread: 1_200 };
/** How long a round may go on re-offering a WorkItem before it gives up on it. */
const ROUND_DEADLINE_MS = 45_000;
/** Offers stay open long enough for both racers, and for a Worker busy reconnecting. */
const OFFER_SECONDS = 30;

export type WorkerFault = 'pause' | 'kill' | 'plain';

export class WorkChurn {
  private readonly seat: AgentSeat;

  constructor(
    coordinator: BenchAgent,
    private readonly group: WorkGroup,
    private readonly stage: Stage,
  ) {
    this.seat = new AgentSeat(coordinator, stage);
  }

  private membershipEpoch(agentId: string): number {
    return this.stage.epochs.get(`${this.group.groupId} ${agentId}`) ?? 1;
  }

  /** One Coordinator Command, settled (the work Mission's Coordinator is never replaced). */
  private async coordinate(kind: string, payload: Record<string, unknown>): Promise<Answer> {
    const link = await this.seat.connected();
    const command = this.seat.sign(kind, payload, { groupId: this.group.groupId, membershipEpoch: this.membershipEpoch(this.seat.agent.id), coordinatorEpoch: 1 }, link.sessionEpoch);
    return this.seat.sendUntilSettled(this.stage.recorder.invoke(command), command, Date.now() + 30_000);
  }

  /** Rounds on one lane of two Workers until the stage stops; faults taken by turns from `first`. */
  async lane(workers: readonly [WorkerProcess, WorkerProcess], first: number, until: number): Promise<void> {
    const faults: WorkerFault[] = ['pause', 'kill', 'plain'];
    for (let round = first; !this.stage.stopping && Date.now() < until; round++) {
      await this.round(workers, faults[round % faults.length] as WorkerFault);
    }
  }

  private async round(workers: readonly [WorkerProcess, WorkerProcess], fault: WorkerFault): Promise<void> {
    const { recorder } = this.stage;
    const deadline = Date.now() + ROUND_DEADLINE_MS;
    const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
    await this.coordinate('mission.renew_coordinator', { leaseSeconds: 300 });
    const authorized = await this.coordinate('work.authorize', { workItemId, contract: workContract(Date.now(), workItemId) });
    if (authorized.type !== 'event') return this.gaveUp('authorize', authorized);
    recorder.count('workAuthorized');
    const [a, b] = Math.random() < 0.5 ? workers : ([workers[1], workers[0]] as const);
    const offered = await this.coordinate('work.offer', { workItemId, candidateAgentIds: [a.agent.id, b.agent.id], selectionBasis: selectionBasis(Date.now()), offerExpiresInSeconds: OFFER_SECONDS });
    if (offered.type !== 'event') return this.gaveUp('offer', offered);
    const at = Date.now() + 300;
    const accepts = await Promise.all([a, b].map((w) => w.accept({ group: this.group, workItemId, membershipEpoch: this.membershipEpoch(w.agent.id), ownershipLeaseSeconds: OWNERSHIP_LEASE_SECONDS, at })));
    recorder.count('offerRaces');
    // Were both to win, the checker would report it from the log (offer-won-twice).
    const winner = accepts.flatMap((o, i) => (o.won ? [{ worker: i === 0 ? a : b, epoch: o.ownershipEpoch }] : []))[0];
    if (winner === undefined) {
      await this.complete(workItemId, [a, b], deadline);
      return;
    }
    const other = winner.worker === a ? b : a;
    let started = false;
    let finished = false;
    const run = winner.worker.execute(this.task(workItemId, winner.worker, winner.epoch), () => (started = true));
    void run.then(() => (finished = true));
    if (fault === 'plain') {
      const outcome = await run;
      if (outcome.outcome === 'submitted' && (await this.acceptResult(workItemId))) return;
      await this.complete(workItemId, [other, winner.worker], deadline);
      return;
    }
    // Strike once the Worker holds its Execution Lease, a moment into its work.
    for (let waited = 0; !started && !finished && waited < 20_000; waited += 50) await pause(50);
    if (!started) {
      await run;
      await this.complete(workItemId, [other, winner.worker], deadline);
      return;
    }
    await pause(100 + Math.random() * 300);
    if (fault === 'kill') {
      const inFlight = Math.random() < 0.5;
      await winner.worker.kill(inFlight ? 'in-flight' : 'now');
      recorder.count(inFlight ? 'workerKillsInFlight' : 'workerKills');
      await run;
      await this.complete(workItemId, [other, winner.worker], deadline);
      return;
    }
    winner.worker.pause();
    recorder.count('workerPauses');
    let resumed = false;
    const resume = () => {
      if (resumed) return;
      resumed = true;
      winner.worker.resume(workItemId);
    };
    // Resumed as soon as the new owner holds its Execution Lease (or when the round gives up).
    await this.complete(workItemId, [other], deadline, resume);
    resume();
    await run;
  }

  private task(workItemId: string, worker: WorkerProcess, ownershipEpoch: number) {
    return {
      group: this.group,
      workItemId,
      membershipEpoch: this.membershipEpoch(worker.agent.id),
      ownershipEpoch,
      executionLeaseSeconds: EXECUTION_LEASE_SECONDS,
      renewEveryMs: RENEW_EVERY_MS,
      workMs: WORK_MS.min + Math.random() * WORK_MS.spread,
    };
  }

  /**
   * Re-offers the WorkItem to `candidates` in turn until one completes it: each offer is refused
   * while the former owner's lease is still live, so the Coordinator tries again shortly.
   */
  private async complete(workItemId: string, candidates: readonly WorkerProcess[], deadline: number, onStarted: () => void = () => undefined): Promise<boolean> {
    const { recorder } = this.stage;
    for (let i = 0; Date.now() < deadline; i++) {
      const worker = candidates[i % candidates.length] as WorkerProcess;
      const offered = await this.coordinate('work.offer', { workItemId, candidateAgentIds: [worker.agent.id], selectionBasis: selectionBasis(Date.now()), offerExpiresInSeconds: OFFER_SECONDS });
      if (offered.type !== 'event') {
        // Submitted just before the fault struck: it only needs the Coordinator's review.
        if (offered.type === 'error' && offered.code === 'INVALID_STATE_TRANSITION' && (await this.acceptResult(workItemId))) return true;
        await pause(500);
        continue;
      }
      recorder.count('reoffers');
      const accepted = await worker.accept({ group: this.group, workItemId, membershipEpoch: this.membershipEpoch(worker.agent.id), ownershipLeaseSeconds: OWNERSHIP_LEASE_SECONDS, at: 0 });
      if (!accepted.won) continue;
      const outcome = await worker.execute(this.task(workItemId, worker, accepted.ownershipEpoch), onStarted);
      if (outcome.outcome === 'submitted' && (await this.acceptResult(workItemId))) return true;
    }
    recorder.count('workAbandoned');
    return false;
  }

  private async acceptResult(workItemId: string): Promise<boolean> {
    const evidence = signedEvidence(this.seat.agent, this.seat.key, this.group, workItemId, 'reviewer_assessment', []);
    const accepted = await this.coordinate('work.accept_result', { workItemId, evidence: [evidence] });
    if (accepted.type === 'event') this.stage.recorder.count('workCompleted');
    return accepted.type === 'event';
  }

  /** A round that could not begin; the next one waits a moment rather than hammer the nodes. */
  private async gaveUp(step: string, answer: Answer): Promise<void> {
    this.stage.recorder.count('workAbandoned');
    process.stderr.write(`[faults] work round stopped at ${step}: ${answer.type === 'error' ? answer.code : answer.type}\n`);
    await pause(1_000);
  }
}
