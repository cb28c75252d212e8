/**
 * The listener's part of the operator metrics: open sessions, subscriptions and delivery, read
 * on scrape from what the listener and its delivery hub keep anyway, and the human readers'
 * sessions and Server-Sent Event streams. Returns the removal, for
 * when the listener closes.
 */

import type { AuthorityMetrics } from '../app/metrics/authorityMetrics.js';
import type { DeliveryHub } from '../delivery/deliveryHub.js';
import type { HumanSessionService } from '../app/humans/clusteredHumanSessions.js';
import type { SessionRegistry } from './sessions.js';
import type { StreamSlots } from './streamSlots.js';
import type { FrameConnection } from './transportContext.js';

export interface Readers {
  readonly humans: HumanSessionService;
  readonly streams: StreamSlots;
}

export function watchListener(metrics: AuthorityMetrics, sessions: SessionRegistry, connections: ReadonlySet<FrameConnection>, hub: DeliveryHub, readers: Readers): () => void {
  const subscriptions = (): number => {
    let count = 0;
    for (const connection of connections) count += connection.subscriptions.size;
    return count;
  };
  const removals = [
    metrics.gauge('missionweave_sessions_open', 'Authenticated Agent sessions (WebSocket) on this node.', () => sessions.size),
    metrics.gauge('missionweave_connections_open', 'WebSocket connections on this node, authenticated or not.', () => connections.size),
    metrics.gauge('missionweave_subscriptions', 'Group subscriptions on this node, replaying, live or paused.', subscriptions),
    metrics.gauge('missionweave_replays_active', 'Subscriptions replaying from the database now.', () => hub.activeReplays),
    metrics.gauge('missionweave_human_sessions_open', 'Human read sessions (HTTPS bearer tokens) held by this node.', () => readers.humans.openSessions),
    metrics.gauge('missionweave_event_streams_open', 'Server-Sent Event streams of Group Events open on this node (human or Agent readers).', () => readers.streams.size),
    metrics.counter('missionweave_events_delivered_total', 'Events offered to live subscriptions (the attention filter may skip some) plus Events replayed.', () => hub.tally.delivered),
    metrics.counter('missionweave_events_replayed_total', 'Events replayed from the database to subscriptions; its rate is the replay rate.', () => hub.tally.replayed),
    metrics.counter('missionweave_backpressure_pauses_total', 'Group subscriptions paused because their connection fell behind (BACKPRESSURE).', () => hub.tally.pauses),
  ];
  return () => {
    for (const remove of removals) remove();
  };
}
