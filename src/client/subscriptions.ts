/**
 * The Agent's subscribed Groups (§16, §17.2): a `GroupStream` per Group, routed by Group ID;
 * SUBSCRIBE frames from each Group's horizon whenever a session opens or a gap needs closing;
 * batched ACK frames carrying the Cursors the streams saved; and the per-Group refusals:
 *
 * - GROUP_NOT_FOUND, MEMBERSHIP_REQUIRED — the Group stops (`failed`) and the error is
 *   reported; `subscribe()` again restarts it.
 * - BACKPRESSURE — reported for information only: the server paused the Group and resumes it
 *   by itself after `retryAfterMs`, replaying from what it really sent.
 * - CURSOR_TOO_OLD — restored from the named snapshot when a SnapshotHandler is set (see
 *   snapshots.ts), else reported and the Group stops.
 */

import type { CursorStore } from './cursorStore.js';
import type { Attention, GroupEvent } from './documents.js';
import { AgentClientError, type AgentError, type MissionWeaveError } from './errors.js';
import { GroupStream, type EventHandler } from './groupStream.js';
import { newFrameId, type AgentSession } from './session.js';
import { fetchSnapshot, type SnapshotHandler } from './snapshots.js';
import { GROUPS_PER_SUBSCRIBE, SNAPSHOT_TIMEOUT_MS } from './limits.js';

export interface SubscriptionsDeps {
  readonly agentId: string;
  readonly store: CursorStore;
  readonly handlers: () => readonly EventHandler[];
  readonly snapshotHandler: () => SnapshotHandler | undefined;
  readonly session: () => AgentSession | undefined;
  readonly report: (error: AgentError) => void;
  /** Whether an Event was caused by a Command of this runtime. */
  readonly own: (event: GroupEvent) => boolean;
  readonly origin: URL;
  readonly ca: string | Buffer | undefined;
  readonly gapGraceMs: number;
  readonly ackDelayMs: number;
  readonly retryDelayMs: (attempt: number) => number;
}


export class Subscriptions {
  private readonly streams = new Map<string, GroupStream>();
  /** Groups already subscribed on the current session. */
  private onSession = new Set<string>();
  private readonly acks = new Map<string, number>();
  private ackTimer: NodeJS.Timeout | undefined;
  private readonly adding = new Map<string, Promise<void>>();

  constructor(private readonly deps: SubscriptionsDeps) {}

  /** Subscribes a Group from `afterSequence`, or from its saved Cursor, or from the start. */
  add(groupId: string, afterSequence: number | undefined, attention: Attention | undefined): Promise<void> {
    const existing = this.streams.get(groupId);
    if (existing !== undefined && existing.state !== 'failed') return Promise.resolve();
    let adding = this.adding.get(groupId);
    if (adding === undefined) {
      adding = this.create(groupId, afterSequence, attention).finally(() => this.adding.delete(groupId));
      this.adding.set(groupId, adding);
    }
    return adding;
  }

  private async create(groupId: string, afterSequence: number | undefined, attention: Attention | undefined): Promise<void> {
    const cursor = afterSequence ?? (await this.deps.store.load(groupId)) ?? 0;
    if (!Number.isSafeInteger(cursor) || cursor < 0) throw new AgentClientError('INVALID_ARGUMENT', `not a Cursor: ${cursor}`, { groupId });
    const stream = new GroupStream(groupId, cursor, attention, {
      agentId: this.deps.agentId,
      handlers: this.deps.handlers,
      store: this.deps.store,
      acknowledge: (group, sequence) => this.acknowledge(group, sequence),
      resubscribe: (s) => this.send([s]),
      report: this.deps.report,
      gapGraceMs: this.deps.gapGraceMs,
      retryDelayMs: this.deps.retryDelayMs,
    });
    this.streams.set(groupId, stream);
    this.onSession.delete(groupId);
    this.send([stream]);
  }

  cursor(groupId: string): number | undefined {
    return this.streams.get(groupId)?.cursor;
  }

  /** A session opened: every live Group is subscribed again from its horizon. */
  sessionOpened(): void {
    this.onSession = new Set();
    this.send([...this.streams.values()].filter((s) => s.state === 'active'));
    if (this.acks.size > 0) this.scheduleAck();
  }

  sessionClosed(): void {
    for (const stream of this.streams.values()) stream.disconnected();
  }

  /** Routes an Event to its Group; Events of Groups not subscribed are not delivered. */
  event(event: GroupEvent): void {
    this.streams.get(event.groupId)?.receive(event, this.deps.own(event));
  }

  /** Handles a per-Group refusal; false when the error concerns no subscribed Group. */
  refused(error: MissionWeaveError): boolean {
    // Refusals of Commands name their Action ID; delivery refusals never do.
    if (error.relatedActionId !== undefined) return false;
    const stream = error.groupId === undefined ? undefined : this.streams.get(error.groupId);
    if (stream === undefined) return false;
    if (error.code === 'CURSOR_TOO_OLD' && this.deps.snapshotHandler() !== undefined) {
      void this.restore(stream, error);
      return true;
    }
    if (error.code === 'GROUP_NOT_FOUND' || error.code === 'MEMBERSHIP_REQUIRED' || error.code === 'CURSOR_TOO_OLD') {
      this.onSession.delete(stream.groupId);
      void stream.pause('failed');
    }
    this.deps.report(error);
    return true;
  }

  /**
   * An Event of a subscribed Group failed verification: it is not delivered, and the Group
   * stops before it rather than skip it (GroupStream.refuse; `subscribe()` again restarts it).
   * False when the Group is not subscribed.
   */
  unverified(event: GroupEvent, error: AgentError): boolean {
    const stream = this.streams.get(event.groupId);
    if (stream === undefined) return false;
    stream.refuse(event.sequence);
    this.deps.report(error);
    return true;
  }

  /** A new handler was registered: Groups waiting for one start. */
  kick(): void {
    for (const stream of this.streams.values()) stream.kick();
  }

  /** Stops every Group after its handler in progress and sends the last ACK. */
  async stop(): Promise<void> {
    await Promise.all([...this.streams.values()].map((s) => s.pause('stopped')));
    this.flushAcks();
  }

  private send(streams: readonly GroupStream[]): void {
    const session = this.deps.session();
    if (session === undefined || !session.isOpen) return;
    for (let i = 0; i < streams.length; i += GROUPS_PER_SUBSCRIBE) {
      const batch = streams.slice(i, i + GROUPS_PER_SUBSCRIBE);
      for (const stream of batch) {
        stream.subscribed(!this.onSession.has(stream.groupId));
        this.onSession.add(stream.groupId);
      }
      session.send({
        frameType: 'SUBSCRIBE',
        subscriptionId: newFrameId(),
        groups: batch.map((s) => ({ groupId: s.groupId, afterSequence: s.horizon, ...(s.attention === undefined ? {} : { attention: s.attention }) })),
      });
    }
  }

  private async restore(stream: GroupStream, error: MissionWeaveError): Promise<void> {
    await stream.pause('restoring');
    try {
      const artifact = await fetchSnapshot(this.deps.origin, stream.groupId, error.details?.['snapshotUrl'], error.snapshotArtifactHash, this.deps.ca, SNAPSHOT_TIMEOUT_MS, this.deps.session()?.sessionToken ?? '');
      await this.deps.snapshotHandler()?.(stream.groupId, artifact);
      const through = Math.max(artifact.snapshot.throughSequence, stream.cursor);
      await this.deps.store.save(stream.groupId, through);
      if (stream.state !== 'restoring') return;
      stream.restored(through);
      this.acknowledge(stream.groupId, through);
      this.send([stream]);
    } catch (cause) {
      if (stream.state === 'restoring') await stream.pause('failed');
      this.deps.report(new AgentClientError('SNAPSHOT_FAILED', `cannot restore ${stream.groupId}: ${(cause as Error).message}`, { groupId: stream.groupId, cause }));
    }
  }

  private acknowledge(groupId: string, sequence: number): void {
    this.acks.set(groupId, Math.max(sequence, this.acks.get(groupId) ?? 0));
    this.scheduleAck();
  }

  private scheduleAck(): void {
    if (this.ackTimer !== undefined) return;
    this.ackTimer = setTimeout(() => {
      this.ackTimer = undefined;
      this.flushAcks();
    }, this.deps.ackDelayMs);
    this.ackTimer.unref();
  }

  private flushAcks(): void {
    if (this.ackTimer !== undefined) clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    const session = this.deps.session();
    if (this.acks.size === 0 || session === undefined || !session.isOpen) return;
    const acknowledgements = [...this.acks].map(([groupId, sequence]) => ({ groupId, sequence }));
    this.acks.clear();
    session.send({ frameType: 'ACK', acknowledgements, sentAt: new Date().toISOString() });
  }
}
