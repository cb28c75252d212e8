/**
 * Cross-node wake-ups: one LISTEN connection per process for `mw_events` (Groups that advanced)
 * and `mw_sessions` (Session Epochs issued, Registry changes), plus a poll of the subscribed Groups' counters.
 * NOTIFY is a hint only — a lost notification costs latency, never an Event — so the poll
 * catches anything missed, including everything during a reconnect.
 */

import type { Logger } from 'pino';
import pg from 'pg';
import type { GroupAccess } from '../app/groupAccess.js';
import { EVENTS_CHANNEL, SESSIONS_CHANNEL, WAKE_ALL } from '../store/channels.js';

export interface NotifierHandlers {
  readonly groupAdvanced: (groupId: string, lastSequence: number) => void;
  readonly sessionOpened: (agentId: string, sessionEpoch: number) => void;
  /**
   * Catches up with a Registry change another node committed. Until what it returns settles, no
   * Group is woken: a hint that follows the change's (NOTIFY keeps commit order) may carry an
   * Event posted after a revocation, which the revoked Agent's session must never read.
   */
  readonly registryChanged: (registryRevision: number) => Promise<unknown> | void;
  /**
   * Called on every poll, for what must not wait for a lost hint either: a Registry revision
   * missed while the LISTEN connection was away (a revoked Agent would keep its sessions). The
   * poll wakes Groups only after what it returns settles, for the same reason.
   */
  readonly polled?: () => Promise<unknown> | void;
  /** The Groups to poll, with the heads already reached. */
  readonly watched: () => Map<string, number>;
}

export class Notifier {
  private client: pg.Client | undefined;
  private stopped = false;
  private readonly poller: NodeJS.Timeout;
  /** The Registry catch-up that wake-ups wait for, while one runs. */
  private registryGate: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly groups: GroupAccess,
    private readonly handlers: NotifierHandlers,
    private readonly logger: Logger,
    pollIntervalMs = 1_000,
  ) {
    this.poller = setInterval(() => void this.poll(), pollIntervalMs);
    this.poller.unref();
  }

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url, application_name: 'missionweave-listener' });
    client.on('notification', (message) => this.notified(message.channel, message.payload ?? ''));
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'notification connection lost; reconnecting');
      this.client = undefined;
      setTimeout(() => void this.connect().catch(() => undefined), 1_000).unref();
    });
    try {
      await client.connect();
      await client.query(`listen ${EVENTS_CHANNEL}`);
      await client.query(`listen ${SESSIONS_CHANNEL}`);
      this.client = client;
    } catch (error) {
      this.logger.warn({ err: error }, 'cannot listen for notifications; retrying');
      await client.end().catch(() => undefined);
      setTimeout(() => void this.connect().catch(() => undefined), 1_000).unref();
    }
  }

  private notified(channel: string, payload: string): void {
    try {
      const value: unknown = JSON.parse(payload);
      // Too many Groups advanced to name in one hint: read every watched Group's counter now.
      if (channel === EVENTS_CHANNEL && value === WAKE_ALL) void this.poll();
      if (typeof value !== 'object' || value === null) return;
      const data = value as Record<string, unknown>;
      if (channel === EVENTS_CHANNEL) {
        const wake = (): void => {
          for (const [groupId, sequence] of Object.entries(data)) this.handlers.groupAdvanced(groupId, Number(sequence));
        };
        if (this.registryGate === undefined) wake();
        else void this.registryGate.then(wake);
      } else if (channel === SESSIONS_CHANNEL) {
        if (typeof data['registryRevision'] === 'number') this.gateOn(this.handlers.registryChanged(data['registryRevision']));
        else this.handlers.sessionOpened(String(data['agentId']), Number(data['sessionEpoch']));
      }
    } catch (error) {
      this.logger.warn({ err: error, channel }, 'unreadable notification ignored');
    }
  }

  /** Holds wake-ups until `catchUp` settles (and any catch-up already held for). */
  private gateOn(catchUp: Promise<unknown> | void): void {
    if (catchUp === undefined) return;
    const gate: Promise<void> = Promise.all([this.registryGate, catchUp.catch(() => undefined)]).then(() => {
      if (this.registryGate === gate) this.registryGate = undefined;
    });
    this.registryGate = gate;
  }

  private async poll(): Promise<void> {
    this.gateOn(this.handlers.polled?.());
    if (this.registryGate !== undefined) await this.registryGate;
    const watched = this.handlers.watched();
    if (watched.size === 0) return;
    try {
      for (const [groupId, lastSequence] of await this.groups.lastSequences([...watched.keys()])) {
        if (lastSequence > (watched.get(groupId) ?? 0)) this.handlers.groupAdvanced(groupId, lastSequence);
      }
    } catch (error) {
      this.logger.debug({ err: error }, 'poll failed');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poller);
    await this.client?.end().catch(() => undefined);
  }
}
