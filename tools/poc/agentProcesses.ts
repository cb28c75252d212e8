/** The PoC's Agent processes: each forked with IPC, its messages journalled, killable, stoppable and restartable. */

import { fork, type ChildProcess } from 'node:child_process';
import type { FromCoordinator, FromWorker, ToCoordinator, ToWorker } from './pocMessages.js';

export interface JournalEntry {
  readonly at: number;
  readonly who: string;
  readonly message: FromWorker | FromCoordinator;
}

function brief(message: FromWorker | FromCoordinator): string {
  if (message.type === 'job') return `job ${message.phase} ${message.facts.stage} ${message.facts.workItemId.slice(-6)}${message.detail === undefined ? '' : ` ${message.detail.slice(0, 200)}`}`;
  if (message.type === 'decision') return `decision ${String(message.decision['type'])} ${String(message.decision['workItemId'] ?? message.decision['groupId'] ?? '').slice(-6)}`;
  return JSON.stringify(message).slice(0, 240);
}

export class Journal {
  readonly entries: JournalEntry[] = [];
  constructor(private readonly log: (line: string) => void) {}

  add(who: string, message: FromWorker | FromCoordinator): void {
    this.entries.push({ at: Date.now(), who, message });
    if (message.type === 'log') this.log(`${who}: ${message.line}`);
    else if (process.env['MW_POC_VERBOSE'] === '1') this.log(`${who}: ${brief(message)}`);
  }

  of(who: string): JournalEntry[] {
    return this.entries.filter((e) => e.who === who);
  }
}

export class AgentProcess<In extends ToWorker | ToCoordinator> {
  child: ChildProcess | undefined;
  /** Exits the PoC did not cause. */
  readonly unexpectedExits: string[] = [];
  private expecting = false;

  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly journal: Journal,
  ) {}

  spawn(init: In): void {
    const child = fork(this.script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env } });
    this.child = child;
    this.expecting = false;
    child.on('message', (message: FromWorker | FromCoordinator) => this.journal.add(this.name, message));
    child.on('exit', (code, signal) => {
      if (!this.expecting) this.unexpectedExits.push(`${this.name} exited (${String(code ?? signal)})`);
      if (this.child === child) this.child = undefined;
    });
    child.send(init);
  }

  send(message: In): void {
    // Not to a process being killed or stopped: its successor gets what it needs in its init.
    if (!this.expecting) this.child?.send(message);
  }

  signal(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** SIGKILL, waited for; a stopped process dies as it is, without running on first. */
  async kill(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.expecting = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.expecting = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (this.child === child) child.kill('SIGKILL');
  }
}
