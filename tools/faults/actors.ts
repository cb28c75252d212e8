/**
 * The concurrent Agents of the fault suite. Writers post signed Messages with a few Commands in
 * flight, retry every copy whose answer was lost with the very same bytes (after reconnecting
 * to any live node), and take a definite refusal as final. Readers follow a Group and drop
 * their connection at random moments, then resume after the last sequence they saw.
 */

import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { signCommand, timestampOf } from '#src/app/issueDocuments.js';
import type { BenchAgent, BenchMission } from '../bench/benchWorld.js';
import type { JsonObject } from '#src/protocol/strictJson.js';
import { AgentLink, type Answer } from './agentLink.js';
import type { Cluster } from './cluster.js';
import { DEFINITE_REFUSALS, type Operation, type ProbeKind } from './history.js';
import type { Recorder } from './recorder.js';

export interface Stage {
  readonly recorder: Recorder;
  readonly cluster: Cluster;
  readonly ca: string;
  /** Membership Epochs by `groupId agentId`, kept current by whoever changes them. */
  readonly epochs: Map<string, number>;
  /** No new Operations once set; retries go on until every Operation is settled. */
  stopping: boolean;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

/** Whether an answer settles the copy for good (applied, or refused for good). */
export function settled(answer: Answer): boolean {
  return answer.type === 'event' || (answer.type === 'error' && DEFINITE_REFUSALS.has(answer.code));
}

/** An Agent's one current connection, reopened on any live node when it drops. */
export class AgentSeat {
  link: AgentLink | undefined;
  private opening: Promise<AgentLink> | undefined;
  readonly key: KeyObject;

  constructor(
    readonly agent: BenchAgent,
    private readonly stage: Stage,
  ) {
    this.key = createPrivateKey(agent.privateKeyPem);
  }

  /** The open connection, or a new one (a new session, fencing the old). */
  async connected(): Promise<AgentLink> {
    if (this.link?.isOpen === true) return this.link;
    this.opening ??= this.open().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async open(): Promise<AgentLink> {
    for (;;) {
      const url = pick(this.stage.cluster.liveUrls());
      if (url !== undefined) {
        try {
          this.link = await AgentLink.open(url, this.stage.ca, this.agent, this.key);
          this.stage.recorder.count('sessionsOpened');
          return this.link;
        } catch {
          // the node went away or the database is down: try again
        }
      }
      await pause(200);
    }
  }

  /** Sends one copy of `command` on the current connection and records its answer. */
  async send(op: Operation, command: Record<string, unknown>): Promise<Answer> {
    const link = await this.connected();
    return this.stage.recorder.complete(op, await link.command(command));
  }

  /** Sends until the Operation is settled (or the suite gives up at `deadline`). */
  async sendUntilSettled(op: Operation, command: Record<string, unknown>, deadline = Number.POSITIVE_INFINITY): Promise<Answer> {
    for (;;) {
      const answer = await this.send(op, command);
      if (settled(answer) || Date.now() > deadline) return answer;
      if (answer.type !== 'lost') await pause(100 + Math.random() * 200); // INTERNAL_ERROR, RATE_LIMITED …
      this.stage.recorder.retried(answer);
    }
  }

  sign(kind: string, payload: Record<string, unknown>, envelope: Record<string, unknown>, sessionEpoch: number): Record<string, unknown> {
    return signCommand({ actor: { type: 'agent', id: this.agent.id }, kind, payload: payload as JsonObject, sessionEpoch, issuedAt: timestampOf(Date.now()), ...envelope }, { keyId: this.agent.keyId, privateKey: this.key });
  }
}

/** Posts Messages to its Groups with `lanes` Commands in flight until the stage stops. */
export class Writer {
  readonly seat: AgentSeat;

  constructor(
    agent: BenchAgent,
    private readonly groups: readonly BenchMission[],
    private readonly stage: Stage,
  ) {
    this.seat = new AgentSeat(agent, stage);
  }

  message(group: BenchMission, sessionEpoch: number, membershipEpoch?: number): Record<string, unknown> {
    const epoch = membershipEpoch ?? this.stage.epochs.get(`${group.groupId} ${this.seat.agent.id}`) ?? 1;
    return this.seat.sign('message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: group.conversationId, content: `fault suite ${randomUUID()}` }, { groupId: group.groupId, membershipEpoch: epoch }, sessionEpoch);
  }

  async run(lanes = 3): Promise<void> {
    await Promise.all(Array.from({ length: lanes }, async () => {
      while (!this.stage.stopping) {
        const group = pick(this.groups) as BenchMission;
        const link = await this.seat.connected();
        const command = this.message(group, link.sessionEpoch);
        const op = this.stage.recorder.invoke(command);
        await this.seat.sendUntilSettled(op, command);
      }
    }));
  }

  /** One new Command sent `copies` times at once on one connection. */
  async storm(copies: number): Promise<void> {
    const link = await this.seat.connected();
    const command = this.message(pick(this.groups) as BenchMission, link.sessionEpoch);
    const op = this.stage.recorder.invoke(command);
    const answers = await Promise.all(Array.from({ length: copies }, () => link.command(command)));
    for (const answer of answers) this.stage.recorder.complete(op, answer);
    this.stage.recorder.count('stormCopies', copies);
    if (!answers.some(settled)) await this.seat.sendUntilSettled(op, command);
  }

  /** Opens a new session (fencing the current one), then tries a Command of the old epoch. */
  async staleSessionProbe(): Promise<void> {
    const old = await this.seat.connected();
    this.seat.link = undefined;
    const fresh = await this.seat.connected();
    if (fresh.sessionEpoch <= old.sessionEpoch) return;
    const command = this.message(pick(this.groups) as BenchMission, old.sessionEpoch);
    const op = this.stage.recorder.invoke(command, 'stale-session');
    await this.seat.sendUntilSettled(op, command, Date.now() + 20_000);
    this.stage.recorder.count('probes');
  }

  /** A Command carrying a Membership Epoch already replaced (the caller saw it replaced). */
  async staleMembershipProbe(group: BenchMission, staleEpoch: number): Promise<void> {
    const link = await this.seat.connected();
    const command = this.message(group, link.sessionEpoch, staleEpoch);
    const op = this.stage.recorder.invoke(command, 'stale-membership');
    await this.seat.sendUntilSettled(op, command, Date.now() + 20_000);
    this.stage.recorder.count('probes');
  }
}

/** Follows one Group, dropping its connection at random and resuming after what it saw. */
export class Reader {
  private last = 0;

  constructor(
    private readonly agent: BenchAgent,
    private readonly group: BenchMission,
    private readonly stage: Stage,
  ) {}

  async run(meanConnectionMs: number): Promise<void> {
    const key = createPrivateKey(this.agent.privateKeyPem);
    while (!this.stage.stopping) {
      const url = pick(this.stage.cluster.liveUrls());
      let link: AgentLink;
      try {
        if (url === undefined) throw new Error('no node');
        link = await AgentLink.open(url, this.stage.ca, this.agent, key);
      } catch {
        await pause(200);
        continue;
      }
      const segment = this.stage.recorder.segment(this.agent.id, this.group.groupId, this.last);
      if (this.last > 0) this.stage.recorder.count('resumes');
      link.subscribe(this.group.groupId, this.last, (groupId, sequence, text) => {
        if (groupId !== this.group.groupId) return;
        segment.received.push({ sequence, text });
        this.last = Math.max(this.last, sequence);
      });
      await Promise.race([link.closed, pause(meanConnectionMs * (0.25 + Math.random() * 1.5))]);
      if (link.isOpen) {
        link.terminate();
        this.stage.recorder.count('disconnects');
      }
    }
  }
}

/** The Operation's outcome after retries, for actors that act on it. */
export function eventsOf(answer: Answer): { sequence: number; text: string }[] {
  return answer.type === 'event' ? answer.events : [];
}

export type { ProbeKind };
