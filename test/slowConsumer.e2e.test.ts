/**
 * A client that sends and never reads (§17.3): its unread answers are bounded in bytes. Past
 * the bound the server drops what it queued for the client and closes the connection as a slow
 * consumer (close code 4005, reason BACKPRESSURE), as ws and NATS do.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { CLOSE } from '../src/transport/limits.js';
import type { Actor } from './support/harness.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let agent: Actor;

beforeAll(async () => {
  ({ server, agent } = await serverWorld({
    agents: { agent: { handle: 'never-reads' } },
    limits: { socketHighWaterBytes: 16 * 1024, maxQueuedReplyBytes: 256 * 1024 },
  }));
});

/** The server's side of a connection, as far as this test looks at it. */
interface ServerSide {
  readonly state: string;
  readonly outbox: { readonly queuedBytes: number };
  readonly subscriptions: ReadonlyMap<string, unknown>;
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a client that never reads', () => {
  it('is closed once its unread answers pass the bound, and the server keeps nothing for it', async () => {
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(agent);
    const connection = server.listener.sessions.session(client.sessionToken) as unknown as ServerSide;
    expect(connection.state).toBe('open');
    const socket = (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    // Each answer echoes its 4,000-character nonce: 5,000 of them outgrow the loopback's
    // socket buffers (a few MiB) and then the 256 KiB bound.
    const nonce = 'n'.repeat(4_000);
    for (let batch = 0; batch < 50 && connection.state === 'open'; batch++) {
      for (let i = 0; i < 100; i++) client.send({ frameType: 'PING', nonce, sentAt: new Date().toISOString() });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await until(() => connection.state === 'closing');
    expect(connection.outbox.queuedBytes).toBe(0);
    expect(connection.subscriptions.size).toBe(0);
    socket.resume();
    expect(await client.closed).toEqual({ code: CLOSE.slowConsumer, reason: 'BACKPRESSURE' });
    await until(() => server.listener.sessions.session(client.sessionToken) === undefined);
  }, 60_000);
});
