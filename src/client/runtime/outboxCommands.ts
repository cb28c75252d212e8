/**
 * Commands kept in the durable outbox before they are sent (issue 31 item 3): a `WorkAgent`
 * whose `command()` signs the Commands that end a run (`work.checkpoint`, `work.submit`,
 * `work.fail`, `work.block`) under the live Session, writes the signed bytes to the projection's
 * outbox, and only then sends those exact bytes (`agent.sendSigned`), recording the answer there
 * (projectionSend.ts). Every other Command (`work.accept_offer`, `work.start`, lease renewals)
 * goes out through the Agent as before: none of them is worth sending late.
 *
 * A Command whose answer never came — the connection dropped, the process was killed — is in the
 * outbox as `pending` or `sent`, and is sent again with the same bytes on the next (re)connect or
 * start (`sendOutbox`): the Authority answers a Command it had accepted with its original Events
 * (same Action ID, no second transition) and refuses one it never saw under a now-fenced Session
 * (AUTH_STALE_SESSION), which is rebased (below). Either way it is applied at most once.
 *
 * With no open Session — the Authority cannot be reached — the Command is signed under the last
 * Session this process had, kept, and not sent: the caller is answered COMMAND_QUEUED with its
 * Action ID. A checkpoint kept so carries the critical bounded offline execution binding
 * (outboxOffline.ts), and is not kept past its grace deadline. On reconnect the outbox is sent; the new Session fences the kept bytes and they are
 * rebased onto it under a new Action ID (§19, §11.5, outboxRebase.ts) and applied once. A process that never had a Session
 * signs nothing (CONNECTION_CLOSED).
 *
 * In flight when the Session is replaced (the connection dropped and the Agent reconnected before
 * the answer came): the Agent sends the same bytes again under the new Session, so a Command the
 * Authority had applied is answered with its receipt; one it never applied is refused
 * AUTH_STALE_SESSION and is rebased here the same way (`rebase`), so the caller is answered with
 * the rebased Command's Event instead of a refusal that would lose the Command. So is one refused
 * MEMBERSHIP_STALE (the Membership changed while it was on its way, §8, §19): re-signed with the
 * Membership Epoch the Authority holds now, under a new Action ID, on the same lease.
 */

import type { MissionWeaveAgent } from '../agent.js';
import type { CommandOptions } from '../commands.js';
import type { ProtocolEvent } from '../documents.js';
import { AgentClientError } from '../errors.js';
import { signWith } from '../signer.js';
import type { WorkAgent } from '../workEvidence.js';
import { randomUUID } from 'node:crypto';
import { outboxFailpoint } from './outboxFailpoint.js';
import { authorityWorkItem, membershipEpochIn } from './hostReads.js';
import { OfflineBinder } from './outboxOffline.js';
import { sessionRebase, type OutboxRebase, type RebaseContext } from './outboxRebase.js';
import { sendKept } from './projectionSend.js';
import { OUTBOX_KINDS, type ProjectionOutbox } from './projectionOutbox.js';

export { OUTBOX_KINDS } from './projectionOutbox.js';

export class OutboxCommands implements WorkAgent {
  /** Action IDs this process is sending now; an outbox sending after a reconnect leaves them to it. */
  readonly inFlight = new Set<string>();

  /** The Session of the last open connection: what a Command kept while offline is signed under. */
  private lastSession: number | undefined;
  /** The §11.5 binding of a checkpoint kept offline (outboxOffline.ts). */
  private readonly binder: OfflineBinder;
  /** Re-signs a kept Command a new Session fenced under the live Session and a new Action ID (outboxRebase.ts). */
  readonly rebase: OutboxRebase;

  /** `membershipEpoch`: the Agent's Membership Epoch in a Group now (the Worker's epochs), for a rebase; `beforeResign`: outboxRebase.ts. */
  constructor(
    private readonly agent: MissionWeaveAgent,
    private readonly outbox: () => ProjectionOutbox,
    membershipEpoch: (groupId: string) => number | undefined = () => undefined,
    beforeResign?: RebaseContext['beforeResign'],
  ) {
    this.rebase = sessionRebase({
      agent,
      membershipEpoch,
      currentMembershipEpoch: (groupId) => membershipEpochIn(agent, groupId),
      currentExecutionLease: async (groupId, workItemId) => (await authorityWorkItem(agent, groupId, workItemId))?.executionLease ?? undefined,
      ...(beforeResign === undefined ? {} : { beforeResign }),
    });
    this.lastSession = agent.sessionEpoch;
    this.binder = new OfflineBinder(agent);
    agent.onConnectionChange((change) => {
      if (change.sessionEpoch !== undefined) this.lastSession = change.sessionEpoch;
    });
  }

  get agentId(): string {
    return this.agent.agentId;
  }

  get signer(): WorkAgent['signer'] {
    return this.agent.signer;
  }

  get sessionEpoch(): number | undefined {
    return this.agent.sessionEpoch;
  }

  command(kind: string, payload: Readonly<Record<string, unknown>>, options: CommandOptions = {}): Promise<ProtocolEvent> {
    if (!OUTBOX_KINDS.has(kind)) return this.agent.command(kind, payload, options);
    return this.kept(kind, payload, options);
  }

  /** Signs under the live Session, keeps the bytes in the outbox, then sends them and records the answer. */
  private async kept(kind: string, payload: Readonly<Record<string, unknown>>, options: CommandOptions): Promise<ProtocolEvent> {
    const actionId = options.actionId ?? `urn:uuid:${randomUUID()}`;
    const live = this.agent.sessionEpoch;
    const sessionEpoch = live ?? this.lastSession;
    if (sessionEpoch === undefined) throw new AgentClientError('CONNECTION_CLOSED', `no Session yet: ${kind} was not signed; try again once connected`, { relatedActionId: actionId });
    if (typeof options.groupId !== 'string' || options.membershipEpoch === undefined) {
      throw new AgentClientError('INVALID_ARGUMENT', `${kind} needs its Group and the Agent's Membership Epoch there`, { relatedActionId: actionId });
    }
    const optional = { coordinatorEpoch: options.coordinatorEpoch, conversationId: options.conversationId, workItemId: options.workItemId, causedByEventId: options.causedByEventId };
    const unsigned: Record<string, unknown> = {
      protocolVersion: '0.1',
      actionId,
      actor: { type: 'agent', id: this.agent.agentId },
      kind,
      groupId: options.groupId,
      sessionEpoch,
      membershipEpoch: options.membershipEpoch,
      correlationId: options.correlationId ?? `urn:uuid:${randomUUID()}`,
      issuedAt: new Date().toISOString(),
      payload,
    };
    if (live === undefined && kind === 'work.checkpoint') unsigned['extensions'] = this.binder.extensions(this.agent.agentId, options.groupId, payload, unsigned['issuedAt'] as string);
    for (const [member, value] of Object.entries(optional)) if (value !== undefined) unsigned[member] = value;
    const signed = await signWith('command', unsigned, this.agent.signer);
    const outbox = this.outbox();
    const kept = outbox.add(JSON.stringify(signed.document));
    outboxFailpoint('kept', kind);
    if (live === undefined) {
      throw new AgentClientError('COMMAND_QUEUED', `the Authority cannot be reached: ${kind} ${actionId} is kept in the outbox and sent on reconnect`, { groupId: options.groupId, relatedActionId: actionId });
    }
    this.inFlight.add(actionId);
    try {
      return await sendKept(outbox, kept, this.agent, { rebase: this.rebase, busy: this.inFlight });
    } finally {
      this.inFlight.delete(actionId);
    }
  }
}
