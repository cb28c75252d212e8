/**
 * Epoch churn for the fault suite, driven by the MissionOwner over HTTPS: Membership changes
 * that replace a Writer's Membership Epoch, and Coordinator reassignments that replace the
 * Coordinator Epoch while the Coordinator keeps renewing its lease. After each replacement is
 * acknowledged, the replaced epoch is tried once more on purpose (a probe that must be refused).
 * The owner also sends duplicate-Command storms: one Command, many HTTPS connections, all nodes.
 */

import { randomUUID } from 'node:crypto';
import { signCommand, timestampOf } from '#src/app/issueDocuments.js';
import type { BenchAgent, BenchMission } from '../bench/benchWorld.js';
import type { Principal } from '#src/protocol/principal.js';
import type { SigningKey } from '#src/protocol/signing/signDocument.js';
import type { JsonObject } from '#src/protocol/strictJson.js';
import { AgentSeat, eventsOf, pause, pick, settled, type Stage, type Writer } from './actors.js';
import type { Answer } from './agentLink.js';
import type { Operation } from './history.js';
import { postCommand } from './recorder.js';

interface MembershipFact {
  readonly member: { id: string };
  readonly membershipEpoch: number;
}

export class Owner {
  constructor(
    readonly principal: Principal,
    private readonly key: SigningKey,
    private readonly stage: Stage,
  ) {}

  sign(kind: string, payload: Record<string, unknown>, groupId: string): Record<string, unknown> {
    return signCommand({ actor: this.principal, kind, payload: payload as JsonObject, groupId, membershipEpoch: 1, issuedAt: timestampOf(Date.now()) }, this.key);
  }

  /** One copy over HTTPS to a live node. */
  async send(op: Operation, command: Record<string, unknown>): Promise<Answer> {
    const url = pick(this.stage.cluster.liveUrls());
    const answer: Answer = url === undefined ? { type: 'lost', reason: 'no node' } : await postCommand(url, this.stage.ca, command);
    return this.stage.recorder.complete(op, answer);
  }

  async sendUntilSettled(op: Operation, command: Record<string, unknown>): Promise<Answer> {
    for (;;) {
      const answer = await this.send(op, command);
      if (settled(answer)) return answer;
      this.stage.recorder.retried(answer);
      await pause(150 + Math.random() * 250);
    }
  }

  /** Replaces the Writer's Membership Epoch in `group`, then probes with the old one. */
  async churnMembership(writer: Writer, group: BenchMission): Promise<void> {
    const agentId = writer.seat.agent.id;
    const command = this.sign('membership.change', { principal: { type: 'agent', id: agentId }, roles: ['worker'] }, group.groupId);
    const op = this.stage.recorder.invoke(command);
    const answer = await this.sendUntilSettled(op, command);
    const membership = eventsOf(answer).map((e) => (JSON.parse(e.text) as { payload: { membership?: MembershipFact } }).payload.membership)[0];
    if (membership === undefined) return;
    this.stage.epochs.set(`${group.groupId} ${agentId}`, membership.membershipEpoch);
    this.stage.recorder.count('membershipChanges');
    await writer.staleMembershipProbe(group, membership.membershipEpoch - 1);
  }

  /** One Command sent `copies` times at once over separate HTTPS connections to every node. */
  async storm(group: BenchMission, copies: number): Promise<void> {
    const command = this.sign('message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: group.conversationId, content: `owner storm ${randomUUID()}` }, group.groupId);
    const op = this.stage.recorder.invoke(command);
    const answers = await Promise.all(Array.from({ length: copies }, () => this.send(op, command)));
    this.stage.recorder.count('stormCopies', copies);
    if (!answers.some(settled)) await this.sendUntilSettled(op, command);
  }
}

/** Two Agents take turns as Coordinator of one Group; the holder renews its lease meanwhile. */
export class CoordinationChurn {
  private readonly seats: AgentSeat[];
  private holder = 0;
  private coordinatorEpoch = 1;

  constructor(
    coordinators: readonly [BenchAgent, BenchAgent],
    private readonly group: BenchMission,
    private readonly owner: Owner,
    private readonly stage: Stage,
  ) {
    this.seats = coordinators.map((agent) => new AgentSeat(agent, stage));
    stage.epochs.set(`${group.groupId} ${coordinators[0].id}`, 1);
  }

  private renewal(seat: AgentSeat, sessionEpoch: number, coordinatorEpoch: number): Record<string, unknown> {
    const membershipEpoch = this.stage.epochs.get(`${this.group.groupId} ${seat.agent.id}`) ?? 1;
    return seat.sign('mission.renew_coordinator', { leaseSeconds: 120 }, { groupId: this.group.groupId, membershipEpoch, coordinatorEpoch }, sessionEpoch);
  }

  /** The holder renews every `everyMs` until the stage stops. */
  async renewLoop(everyMs: number): Promise<void> {
    while (!this.stage.stopping) {
      const seat = this.seats[this.holder] as AgentSeat;
      const link = await seat.connected();
      const command = this.renewal(seat, link.sessionEpoch, this.coordinatorEpoch);
      const op = this.stage.recorder.invoke(command);
      await seat.sendUntilSettled(op, command, Date.now() + 30_000);
      this.stage.recorder.count('renewals');
      await pause(everyMs);
    }
  }

  /** The owner appoints the other Agent; the replaced one then tries its old epoch. */
  async reassign(): Promise<void> {
    const next = 1 - this.holder;
    const formerSeat = this.seats[this.holder] as AgentSeat;
    const formerEpoch = this.coordinatorEpoch;
    const command = this.owner.sign('mission.assign_coordinator', { coordinatorId: (this.seats[next] as AgentSeat).agent.id, leaseSeconds: 120 }, this.group.groupId);
    const op = this.stage.recorder.invoke(command);
    const answer = await this.owner.sendUntilSettled(op, command);
    const payload = eventsOf(answer).map((e) => (JSON.parse(e.text) as { payload: { coordinatorEpoch: number; memberships: MembershipFact[] } }).payload)[0];
    if (payload === undefined) return;
    const formerMembership = this.stage.epochs.get(`${this.group.groupId} ${formerSeat.agent.id}`) ?? 1;
    for (const m of payload.memberships) this.stage.epochs.set(`${this.group.groupId} ${m.member.id}`, m.membershipEpoch);
    this.coordinatorEpoch = payload.coordinatorEpoch;
    this.holder = next;
    this.stage.recorder.count('coordinatorChanges');
    // The replaced Coordinator, with the epochs it held: must be fenced.
    const link = await formerSeat.connected();
    const probe = formerSeat.sign('mission.renew_coordinator', { leaseSeconds: 120 }, { groupId: this.group.groupId, membershipEpoch: formerMembership, coordinatorEpoch: formerEpoch }, link.sessionEpoch);
    const probeOp = this.stage.recorder.invoke(probe, 'stale-coordinator');
    await formerSeat.sendUntilSettled(probeOp, probe, Date.now() + 20_000);
    this.stage.recorder.count('probes');
  }
}
