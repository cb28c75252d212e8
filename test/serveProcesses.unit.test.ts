/**
 * The parts of `serve --processes N` that need no process: the primary's tables wired to three
 * process links in memory (relay order, node-wide bounds, a crashed process's sessions gone, one
 * metrics gathering for concurrent scrapes), and each process's share of the node's limits.
 */

import type { Worker } from 'node:cluster';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VERIFICATION_LIMITS, shareOfVerificationLimits } from '../src/app/verificationLimits.js';
import { ClusterTables } from '../src/cli/clusterTables.js';
import { poolSizeOf, processCount } from '../src/cli/serveCluster.js';
import { ClusterLink, type RemoteSession } from '../src/transport/clusterLink.js';
import { DEFAULT_LIMITS, shareOfLimits } from '../src/transport/limits.js';

const LIMITS = { ...DEFAULT_LIMITS, maxSessionsPerHuman: 2, maxHumanSessions: 3 };

/** Now, as the mirrors read it too (Date.now), so the tables' times are real ones. */
const T = Date.now();
const LATER = T + 60_000;

function node(processes: number, now = () => T) {
  const workers: Worker[] = [];
  const links: ClusterLink[] = [];
  const metricsAsked: number[] = [];
  /** What the primary wrote on which process's channel, in order. */
  const sent: string[] = [];
  const tables = new ClusterTables(LIMITS, { workers: () => workers, serving: () => workers, nowMillis: now });
  for (let id = 1; id <= processes; id++) {
    const worker = {
      id,
      isConnected: () => true,
      send: (message: { mw: string }) => {
        sent.push(`${id} ${message.mw}`);
        link.receive(message);
      },
    } as unknown as Worker;
    const link: ClusterLink = new ClusterLink((message) => {
      if (message.mw === 'metrics-res') metricsAsked.push(id);
      tables.receive(worker, message);
    });
    link.shareMetrics(() => Promise.resolve([{ name: 'x_total', help: 'x', type: 'counter', aggregator: 'sum', values: [{ value: id, labels: {} }] }]));
    workers.push(worker);
    links.push(link);
  }
  return { tables, links, workers, metricsAsked, sent };
}

function agentSession(token: string, agentId = 'urn:missionweave:agent:a'): RemoteSession {
  return { agentId, keyId: 'k', sessionEpoch: 1, sessionToken: token, state: 'open' };
}

describe('the cluster primary and its processes', () => {
  it('relays an Agent session to the other processes before answering its publisher, and drops it when its process goes', async () => {
    const { tables, links, workers, sent } = node(3);
    const [a, b, c] = links as [ClusterLink, ClusterLink, ClusterLink];
    await a.ask((id) => ({ mw: 'agent-add', id, session: agentSession('t1') }));
    // The relay is on the others' channels before the answer is on the publisher's.
    expect(sent).toEqual(['2 agent-added', '3 agent-added', '1 answer']);
    expect([b.remoteSessions.has('t1'), c.remoteSessions.has('t1')]).toEqual([true, true]);
    expect(a.remoteSessions.has('t1')).toBe(false);
    expect(b.remoteAgentConnected('urn:missionweave:agent:a')).toBe(true);
    // Another process cannot remove what it does not hold.
    b.tell({ mw: 'agent-remove', token: 't1' });
    expect(c.remoteSessions.has('t1')).toBe(true);
    tables.workerGone(workers[0] as Worker);
    expect([b.remoteSessions.size, c.remoteSessions.size, tables.sizes.agentSessions]).toEqual([0, 0, 0]);
    expect(b.remoteAgentConnected('urn:missionweave:agent:a')).toBe(false);
  });

  it('spends a challenge once for the node and bounds human sessions per human and in all, whichever process asks', async () => {
    const { links } = node(2);
    const [a, b] = links as [ClusterLink, ClusterLink];
    const [ta, tb] = [a.humanTable(), b.humanTable()];
    expect([await ta.consume('n1', LATER), await tb.consume('n1', LATER), await tb.consumed('n1'), await ta.consumed('n2')]).toEqual([true, false, true, false]);
    const session = (owner: string) => ({ owner, humanId: owner, keyId: 'k', expiresAtMillis: LATER });
    expect(await ta.add('h1', session('alice'))).toBe('added');
    expect(await tb.add('h2', session('alice'))).toBe('added');
    expect(await ta.add('h3', session('alice'))).toBe('owner-full');
    expect(await tb.add('h4', session('bob'))).toBe('added');
    expect(await ta.add('h5', session('carol'))).toBe('table-full');
    expect([ta.get('h2', T)?.humanId, tb.get('h1', T)?.humanId, tb.get('h1', LATER)]).toEqual(['alice', 'alice', undefined]);
    // Each process counts the sessions it opened, so the node's sum counts each once.
    expect([ta.size, tb.size]).toEqual([1, 2]);
    expect(await tb.delete('h1')).toBe(true);
    expect([ta.get('h1', T), await ta.delete('h1'), ta.size]).toEqual([undefined, false, 0]);
  });

  it('gives a process started later what the node holds, and shares one metrics gathering among concurrent scrapes', async () => {
    const { links, tables, workers, metricsAsked } = node(2);
    const [a] = links as [ClusterLink];
    await a.ask((id) => ({ mw: 'agent-add', id, session: agentSession('t9') }));
    await a.humanTable().add('h9', { owner: 'alice', humanId: 'alice', keyId: 'k', expiresAtMillis: LATER });
    const late = new ClusterLink((message) => tables.receive(workers[1] as Worker, message));
    (workers[1] as unknown as { send: (m: unknown) => void }).send = (m) => late.receive(m);
    late.tell({ mw: 'hello' });
    expect([late.remoteSessions.has('t9'), late.humanSessions.has('h9')]).toEqual([true, true]);
    late.shareMetrics(() => Promise.resolve([{ name: 'x_total', help: 'x', type: 'counter', aggregator: 'sum', values: [{ value: 2, labels: {} }] }]));
    const [one, two] = await Promise.all([a.scrapeNode(), late.scrapeNode()]);
    expect(one).toBe(two);
    expect(one).toContain('x_total 3');
    expect(metricsAsked).toEqual([1]);
  });
});

describe("each process's share of the node", () => {
  it('splits the per-address, per-reader and per-node caps, never below one', () => {
    const two = shareOfLimits(DEFAULT_LIMITS, 2);
    expect([two.maxConnectionsPerAddress, two.maxHttpsConnectionsPerAddress, two.maxConnections, two.maxStreamsPerReader, two.maxStreams]).toEqual([8_192, 512, 32_768, 8, 2_048]);
    expect(two.maxHumanSessions).toBe(DEFAULT_LIMITS.maxHumanSessions);
    expect(shareOfLimits(DEFAULT_LIMITS, 64).maxStreamsPerReader).toBe(1);
    const verification = shareOfVerificationLimits(DEFAULT_VERIFICATION_LIMITS, 4);
    expect([verification.inFlightPerAddress, verification.refusalsPerAddress, verification.maxPending, verification.inFlightPerConnection]).toEqual([64, 64, 2_048, 64]);
  });

  it('sizes the pools to fit the embedded PostgreSQL, and reads --processes or MW_SERVE_PROCESSES', () => {
    expect([1, 2, 4, 8, 16, 32].map(poolSizeOf)).toEqual([16, 16, 16, 11, 5, 2]);
    // Pools and LISTEN connections together stay under PostgreSQL's default max_connections (100).
    expect([2, 3, 4, 6, 8, 12, 16, 24, 32, 48].every((n) => n * (poolSizeOf(n) + 1) <= 96)).toBe(true);
    expect(processCount('4')).toBe(4);
    expect(() => processCount('0')).toThrow(/--processes/);
    expect(() => processCount('65')).toThrow(/--processes/);
    process.env['MW_SERVE_PROCESSES'] = '3';
    try {
      expect(processCount(undefined)).toBe(3);
    } finally {
      delete process.env['MW_SERVE_PROCESSES'];
    }
    expect(processCount(undefined)).toBe(1);
  });
});
