/**
 * A load process for `npm run bench`: real Agents over wss, in a process of their own. Takes a
 * JSON job as its argument, connects and authenticates its Agents (HELLO), prepares, prints
 * `{"ready":…}`, waits for a line `go`, runs the job and prints one JSON result line.
 *
 * Jobs: `commands` (pre-signed 1 KB `message.post` Commands, at most `window` in flight per
 * connection, unpaced or at a fixed total rate; per-Command latency from send to its EVENT),
 * `subscribe` (count Event frames of a Group per connection until `expect` each), `idle` (hold
 * authenticated sessions until killed).
 */

import { createPrivateKey, randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { signCommand, timestampOf } from '#src/app/issueDocuments.js';
import type { BenchAgent } from './benchWorld.js';
import { failOnClose, watchStall } from './stallWatch.js';

interface Job {
  readonly mode: 'commands' | 'subscribe' | 'idle' | 'raw';
  /** raw: plain sockets to open (the baseline server knows no HELLO). */
  readonly sockets?: number;
  readonly url: string;
  readonly caFile: string;
  readonly agentsFile: string;
  /** commands: per Agent, the Groups it writes to; subscribe: the one Group. */
  readonly groups: readonly { groupId: string; conversationId: string }[][];
  readonly perAgent?: number;
  readonly contentBytes?: number;
  readonly window?: number;
  /** Total Commands per second for this process; 0 sends as fast as the window allows. */
  readonly rate?: number;
  readonly expect?: number;
  readonly afterSequence?: number;
  /** Local address to connect from (127.0.0.N), to stay under the server's per-address cap. */
  readonly localAddress?: string;
  /** idle: send a PING frame this often per session, so the server's idle timeout keeps them. */
  readonly pingMs?: number;
}

interface Session {
  readonly ws: WebSocket;
  readonly agent: BenchAgent;
  readonly key: KeyObject;
  epoch: number;
}

/** The job, inline or, when too long for one argument (many Groups), as `@file`. */
const jobArgument = process.argv[2] ?? '{}';
const job = JSON.parse(jobArgument.startsWith('@') ? readFileSync(jobArgument.slice(1), 'utf8') : jobArgument) as Job;
const ca = readFileSync(job.caFile, 'utf8');
const agents = job.mode === 'raw' ? [] : (JSON.parse(readFileSync(job.agentsFile, 'utf8')) as BenchAgent[]);
const frameId = () => `urn:uuid:${randomUUID()}`;

function connect(agent: BenchAgent): Promise<Session> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(job.url, { ca, perMessageDeflate: false, ...(job.localAddress === undefined ? {} : { localAddress: job.localAddress }) });
    const key = createPrivateKey(agent.privateKeyPem);
    const clientNonce = randomBytes(16).toString('base64url');
    ws.once('error', reject);
    // A close before the accept (a handshake timeout under load, say) fails the run with its code, not a silent exit 13.
    ws.once('close', (code, reason) => reject(new Error(`closed during HELLO: ${code} ${reason.toString()}`)));
    ws.once('open', () => ws.send(JSON.stringify({ protocolVersion: '0.1', frameId: frameId(), frameType: 'HELLO', phase: 'client_init', agentId: agent.id, keyId: agent.keyId, clientNonce, supportedVersions: ['0.1'] })));
    const onHello = (data: WebSocket.RawData): void => {
      const frame = JSON.parse(data.toString()) as Record<string, string | number>;
      if (frame['phase'] === 'server_challenge') {
        const signature = sign(null, Buffer.from(String(frame['challenge']), 'base64url'), key).toString('base64url');
        ws.send(JSON.stringify({ protocolVersion: '0.1', frameId: frameId(), frameType: 'HELLO', phase: 'client_response', agentId: agent.id, keyId: agent.keyId, clientNonce, serverNonce: frame['serverNonce'], challengeSignature: signature }));
      } else if (frame['phase'] === 'server_accept') {
        ws.off('message', onHello);
        resolve({ ws, agent, key, epoch: Number(frame['sessionEpoch']) });
      } else reject(new Error(`HELLO failed: ${data.toString().slice(0, 300)}`));
    };
    ws.on('message', onHello);
  });
}

async function connectAll(): Promise<Session[]> {
  const sessions: Session[] = [];
  for (let i = 0; i < agents.length; i += 100) sessions.push(...(await Promise.all(agents.slice(i, i + 100).map(connect))));
  return sessions;
}

/** CPU used by this process since `go`, reported with its result. */
let cpuAtGo = process.cpuUsage();
const cpuSeconds = () => {
  const used = process.cpuUsage(cpuAtGo);
  return (used.user + used.system) / 1e6;
};

async function waitForGo(): Promise<void> {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() === 'go') {
      cpuAtGo = process.cpuUsage();
      return;
    }
  }
}

async function commands(sessions: Session[]): Promise<Record<string, unknown>> {
  const content = 'x'.repeat(job.contentBytes ?? 900);
  const queues = sessions.map((s, i) => {
    const groups = job.groups[i] ?? [];
    return Array.from({ length: job.perAgent ?? 0 }, (_, n) => {
      const g = groups[n % groups.length] as { groupId: string; conversationId: string };
      const command = signCommand({ actor: { type: 'agent', id: s.agent.id }, kind: 'message.post', payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId: g.conversationId, content }, groupId: g.groupId, sessionEpoch: s.epoch, membershipEpoch: 1, issuedAt: timestampOf(Date.now()) }, { keyId: s.agent.keyId, privateKey: s.key });
      return { actionId: String(command['actionId']), text: JSON.stringify({ protocolVersion: '0.1', frameId: frameId(), frameType: 'COMMAND', command }) };
    });
  });
  const total = queues.reduce((n, q) => n + q.length, 0);
  process.stdout.write(`${JSON.stringify({ ready: total })}\n`);
  await waitForGo();
  const started = new Map<string, number>();
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  let done = 0;
  let sent = 0;
  const window = job.window ?? 32;
  const inFlight = sessions.map(() => 0);
  const t0 = performance.now();
  let received = 0;
  const unwatch = watchStall(() => done, () => `${done} of ${total} Commands answered, ${started.size} waiting (oldest: ${[...started.keys()].slice(0, 3).join(', ')}), ${received} frames received`);
  const unclose = failOnClose(sessions.map((s) => s.ws), (i) => `writer ${sessions[i]?.agent.id ?? i}`);
  return new Promise((resolve) => {
    const finish = () => {
      unwatch();
      unclose();
      resolve({ done: total, accepted: latencies.length, errors, elapsedMs: performance.now() - t0, latencies, received });
    };
    const pump = (i: number): void => {
      const queue = queues[i] as { actionId: string; text: string }[];
      while (inFlight[i]! < window && queue.length > 0 && (job.rate ?? 0) === 0) {
        const next = queue.shift() as { actionId: string; text: string };
        started.set(next.actionId, performance.now());
        inFlight[i]!++;
        sent++;
        (sessions[i] as Session).ws.send(next.text);
      }
    };
    sessions.forEach((s, i) => {
      s.ws.on('message', (data) => {
        received++;
        const frame = JSON.parse(data.toString()) as { frameType: string; event?: { cause: { id: string } }; error?: { code: string; relatedActionId?: string } };
        const actionId = frame.event?.cause.id ?? frame.error?.relatedActionId;
        const at = actionId === undefined ? undefined : started.get(actionId);
        if (at === undefined) return;
        started.delete(actionId as string);
        if (frame.frameType === 'EVENT') latencies.push(performance.now() - at);
        else errors[frame.error?.code ?? 'UNKNOWN'] = (errors[frame.error?.code ?? 'UNKNOWN'] ?? 0) + 1;
        inFlight[i]!--;
        if (++done === total) finish();
        else pump(i);
      });
      pump(i);
    });
    if ((job.rate ?? 0) > 0) {
      // Paced: release Commands on a fixed schedule, round-robin over the connections.
      const interval = setInterval(() => {
        const due = Math.floor(((performance.now() - t0) / 1000) * (job.rate as number)) - sent;
        for (let k = 0; k < due; k++) {
          const i = sent % sessions.length;
          const next = (queues[i] as { actionId: string; text: string }[]).shift();
          if (next === undefined) continue;
          started.set(next.actionId, performance.now());
          sent++;
          (sessions[i] as Session).ws.send(next.text);
        }
        if (sent >= total) clearInterval(interval);
      }, 1);
    }
  });
}

async function subscribe(sessions: Session[]): Promise<Record<string, unknown>> {
  const group = job.groups[0]?.[0] as { groupId: string };
  const counts = sessions.map(() => 0);
  let complete = 0;
  let first = 0;
  let last = 0;
  const expected = job.expect ?? 0;
  process.stdout.write(`${JSON.stringify({ ready: sessions.length })}\n`);
  await waitForGo();
  let seen = 0;
  const unwatch = watchStall(() => seen, () => `${complete} of ${sessions.length} readers complete, ${seen} of ${expected * sessions.length} Events received`);
  const unclose = failOnClose(sessions.map((s) => s.ws), (i) => `reader ${sessions[i]?.agent.id ?? i}`);
  return new Promise((resolve) => {
    sessions.forEach((s, i) => {
      s.ws.on('message', (data) => {
        if (data.toString('utf8', 0, 32).includes('"event"')) {
          seen++;
          if (first === 0) first = Date.now();
          if (++counts[i]! === expected) {
            last = Date.now();
            if (++complete === sessions.length) {
              unwatch();
              unclose();
              resolve({ deliveries: expected * sessions.length, firstAt: first, lastAt: last });
            }
          }
        }
      });
      s.ws.send(JSON.stringify({ protocolVersion: '0.1', frameId: frameId(), frameType: 'SUBSCRIBE', subscriptionId: frameId(), groups: [{ groupId: group.groupId, afterSequence: job.afterSequence ?? 0 }] }));
    });
  });
}

/** Baseline: plain sockets counting frames from a server that only broadcasts. */
async function raw(): Promise<Record<string, unknown>> {
  const sockets = await Promise.all(Array.from({ length: job.sockets ?? 0 }, () => new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(job.url, { ca, perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  })));
  process.stdout.write(`${JSON.stringify({ ready: sockets.length })}\n`);
  cpuAtGo = process.cpuUsage();
  const expected = job.expect ?? 0;
  let complete = 0;
  let last = 0;
  return new Promise((resolve) => {
    for (const ws of sockets) {
      let count = 0;
      ws.on('message', () => {
        if (++count === expected) {
          last = Date.now();
          if (++complete === sockets.length) resolve({ deliveries: expected * sockets.length, lastAt: last });
        }
      });
    }
  });
}

if (job.mode === 'raw') {
  process.stdout.write(`${JSON.stringify({ result: { ...(await raw()), cpuSeconds: cpuSeconds() } })}\n`);
  process.exit(0);
}
const sessions = await connectAll();
if (job.mode === 'idle') {
  process.stdout.write(`${JSON.stringify({ ready: sessions.length })}\n`);
  if ((job.pingMs ?? 0) > 0) {
    setInterval(() => {
      for (const s of sessions) s.ws.send(JSON.stringify({ protocolVersion: '0.1', frameId: frameId(), frameType: 'PING', nonce: randomBytes(18).toString('base64url'), sentAt: timestampOf(Date.now()) }));
    }, job.pingMs).unref();
  }
  await waitForGo();
} else {
  const result = job.mode === 'commands' ? await commands(sessions) : await subscribe(sessions);
  process.stdout.write(`${JSON.stringify({ result: { ...result, cpuSeconds: cpuSeconds() } })}\n`);
}
for (const s of sessions) s.ws.terminate();
process.exit(0);
