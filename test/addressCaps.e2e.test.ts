/**
 * Per-address connection caps (issue 10): refused upgrades must not count against an address
 * (else anyone locks an address out until restart, without credentials), the WebSocket and
 * HTTPS caps hold and give their slots back when a connection closes. Scaled down: caps of 4
 * WebSockets and 3 HTTPS connections per address.
 */

import { request } from 'node:https';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from './support/harness.js';
import { RawClient } from './support/rawClient.js';
import { BAD_UPGRADE, exchange, openTls } from './support/rawTls.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let agent: Actor;

beforeAll(async () => {
  ({ server, agent } = await serverWorld({
    agents: { agent: { handle: 'caps' } },
    limits: { maxConnectionsPerAddress: 4, maxHttpsConnectionsPerAddress: 3 },
  }));
});

const open = () => RawClient.open(server.url, server.ca);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function closeAll(clients: RawClient[]): Promise<void> {
  for (const client of clients) client.close();
  await Promise.all(clients.map((client) => client.closed));
  await pause(50);
}

function health(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.httpsUrl}/health`, { ca: server.ca, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('per-address caps', () => {
  it('do not count refused upgrades: after many, a valid HELLO from the same address succeeds', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await exchange(server.httpsUrl, server.ca, BAD_UPGRADE)).split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    }
    await pause(50);
    const client = await open();
    expect(await client.hello(agent)).toBeGreaterThan(0);
    await closeAll([client]);
  });

  it('refuse the WebSocket beyond the cap with 503, and give the slot back on close', async () => {
    const clients = await Promise.all([open(), open(), open(), open()]);
    await expect(open()).rejects.toThrow(/503/);
    await closeAll(clients.splice(0, 1));
    clients.push(await open());
    await closeAll(clients);
  });

  it('close an HTTPS connection beyond the cap after TLS, and give the slot back on close', async () => {
    const held = await Promise.all([openTls(server.httpsUrl, server.ca), openTls(server.httpsUrl, server.ca), openTls(server.httpsUrl, server.ca)]);
    const extra = await openTls(server.httpsUrl, server.ca);
    extra.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await extra.closedWithin(2_000);
    expect(extra.received()).toBe('');
    const first = held.shift();
    first?.socket.end();
    await first?.closedWithin(2_000);
    await pause(50);
    expect(await health()).toBe(200);
    for (const raw of held) raw.socket.destroy();
  });

  it('count an upgraded connection as a WebSocket only, not against the HTTPS cap', async () => {
    await pause(50);
    const clients = await Promise.all([open(), open(), open(), open()]);
    expect(await health()).toBe(200);
    await closeAll(clients);
  });
});
