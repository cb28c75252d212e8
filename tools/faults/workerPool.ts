/**
 * The suite's side of a Worker process (workerProcess.ts): forks it, hands it tasks, records its
 * Operations in the suite's history, and injects the Worker faults — SIGSTOP / SIGCONT (a real
 * pause) and SIGKILL mid-execution, after which the process is forked again as the same Agent.
 *
 * A Worker is killed at a random moment of its work, or armed to be killed the moment it sends
 * its next Command (the suite hears of each Command just before it leaves), so that it dies
 * with a Command in flight. A killed Worker leaves Commands whose answers it never saw. The suite settles each by sending
 * the very bytes again, as that Agent, from a new Session (the answer of a copy already applied,
 * or a definite refusal), so that no Operation's outcome stays unknown. Commands a resumed Worker
 * sends about the WorkItem it held before its pause are recorded as `fenced-owner` probes: none
 * may complete the WorkItem.
 */

import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchAgent } from '../bench/benchWorld.js';
import { AgentSeat, type Stage } from './actors.js';
import type { Operation } from './history.js';
import type { AcceptOutcome, ExecuteOutcome, FromWorker, ToWorker, WorkerTask } from './workDocuments.js';

const WORKER = join(dirname(fileURLToPath(import.meta.url)), 'workerProcess.js');
/** The kinds a resumed Worker may still send about its old WorkItem: its stale lease's acts. */
const LEASED_KINDS = new Set(['ext.missionweaveprotocol.core.work_execution_lease_renew', 'artifact.publish', 'work.submit']);

type Waiting = { readonly type: 'accept'; readonly resolve: (o: AcceptOutcome) => void } | { readonly type: 'execute'; readonly resolve: (o: ExecuteOutcome) => void; readonly started: (leaseId: string) => void };

export class WorkerProcess {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, { op: Operation; command: Record<string, unknown> }>();
  private readonly waiting = new Map<number, Waiting>();
  /** WorkItems whose Commands from now on are a resumed Worker's late ones. */
  private readonly late = new Set<string>();
  private nextTask = 0;
  private expectingExit = false;
  /** Set while armed to kill the process at its next Command. */
  private armed: (() => void) | undefined;
  /** Exits the suite did not cause: each is a violation (the harness itself failed). */
  readonly unexpectedExits: string[] = [];

  constructor(
    readonly agent: BenchAgent,
    private readonly stage: Stage,
  ) {}

  spawn(): void {
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    this.child = child;
    this.expectingExit = false;
    child.on('message', (message: FromWorker) => this.received(message));
    child.once('exit', (code, signal) => {
      if (!this.expectingExit) this.unexpectedExits.push(`worker ${this.agent.id} exited on its own (${String(code ?? signal)})`);
      if (this.child === child) this.child = undefined;
      this.abandonTasks(this.expectingExit ? 'killed' : 'exited');
    });
    this.tell({ type: 'init', agent: this.agent, ca: this.stage.ca });
  }

  private tell(message: ToWorker): void {
    this.child?.send(message);
  }

  private received(message: FromWorker): void {
    const { recorder } = this.stage;
    if (message.type === 'urls') this.tell({ type: 'urls', urls: this.stage.cluster.liveUrls() });
    else if (message.type === 'invoke') {
      const kind = String(message.command['kind']);
      const isLate = this.late.has(message.workItemId) && LEASED_KINDS.has(kind);
      if (isLate) recorder.count('lateCommands');
      this.pending.set(message.key, { op: recorder.invoke(message.command, isLate ? 'fenced-owner' : undefined), command: message.command });
      this.armed?.();
    } else if (message.type === 'complete') {
      const entry = this.pending.get(message.key);
      if (entry === undefined) return;
      recorder.complete(entry.op, message.answer);
      if (message.answer.type === 'event' || (message.answer.type === 'error' && !message.answer.retryable)) this.pending.delete(message.key);
    } else if (message.type === 'started') {
      const waiting = this.waiting.get(message.taskId);
      if (waiting?.type === 'execute') waiting.started(message.leaseId);
    } else {
      const waiting = this.waiting.get(message.taskId);
      this.waiting.delete(message.taskId);
      if (waiting?.type === 'accept' && message.type === 'accepted') waiting.resolve(message.outcome);
      if (waiting?.type === 'execute' && message.type === 'executed') waiting.resolve(message.outcome);
    }
  }

  accept(task: Omit<Extract<WorkerTask, { type: 'accept' }>, 'type' | 'taskId'>): Promise<AcceptOutcome> {
    const taskId = this.nextTask++;
    return new Promise((resolve) => {
      this.waiting.set(taskId, { type: 'accept', resolve });
      this.tell({ type: 'task', task: { type: 'accept', taskId, ...task } });
    });
  }

  /** Runs the WorkItem; `started` hears of the Execution Lease once it is granted. */
  execute(task: Omit<Extract<WorkerTask, { type: 'execute' }>, 'type' | 'taskId'>, started: (leaseId: string) => void = () => undefined): Promise<ExecuteOutcome> {
    const taskId = this.nextTask++;
    return new Promise((resolve) => {
      this.waiting.set(taskId, { type: 'execute', resolve, started });
      this.tell({ type: 'task', task: { type: 'execute', taskId, ...task } });
    });
  }

  /** SIGSTOP: timers, renewals and socket frozen together. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** SIGCONT; from now on its Commands about `workItemId` are late. */
  resume(workItemId: string): void {
    this.late.add(workItemId);
    this.child?.kill('SIGCONT');
  }

  /**
   * SIGKILL — `now`, or `in-flight`: as its next Command leaves (at the latest after `armMs`);
   * then settle what it left unanswered and fork it again as the same Agent.
   */
  async kill(when: 'now' | 'in-flight', armMs = 3_000): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.expectingExit = true;
    if (when === 'in-flight') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, armMs);
        this.armed = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.armed = undefined;
    }
    child.kill('SIGKILL');
    await exited;
    const seat = new AgentSeat(this.agent, this.stage);
    for (const [k, { op, command }] of this.pending) {
      this.pending.delete(k);
      await seat.sendUntilSettled(op, command, Date.now() + 30_000);
      this.stage.recorder.count('killedCommandsSettled');
    }
    seat.link?.terminate();
    this.spawn();
  }

  private abandonTasks(outcome: string): void {
    for (const [taskId, waiting] of this.waiting) {
      this.waiting.delete(taskId);
      if (waiting.type === 'accept') waiting.resolve({ won: false, code: outcome });
      else waiting.resolve({ outcome, renewals: 0, renewalsRefused: 0 });
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.expectingExit = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  }
}
