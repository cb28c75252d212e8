/**
 * Crypto-worker dispatch without threads: fill-first choice of a worker, one message per worker
 * per turn with the replies batched too, signing batches split only into large parts, and
 * Registry changes ahead of later requests — over ports the test answers itself.
 */

import { describe, expect, it } from 'vitest';
import { pickWorker, signParts } from '../src/app/workers/dispatch.js';
import { CryptoPool, type WorkerPort } from '../src/app/workers/cryptoPool.js';
import type { WorkerBatch, WorkerReplies, WorkerReply, WorkerRequest } from '../src/app/workers/protocol.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { signEventDocuments } from '../src/app/eventFactory.js';
import { generatePrivateKey } from '../src/protocol/signing/signDocument.js';


/** A worker the test drives: it records each message and answers a batch when told. */
class FakePort implements WorkerPort {
  readonly batches: WorkerBatch[] = [];
  /** Every request ever received, answered or not. */
  readonly seen: WorkerRequest[] = [];
  private listener: ((replies: WorkerReplies) => void) | undefined;

  postMessage(batch: WorkerBatch): void {
    this.batches.push(batch);
    this.seen.push(...batch);
  }

  onReplies(listener: (replies: WorkerReplies) => void): void {
    this.listener = listener;
  }

  /** The worker's hold on the process, as `hold` last set it. */
  held = false;

  hold(held: boolean): void {
    this.held = held;
  }

  terminate(): Promise<unknown> {
    return Promise.resolve();
  }

  /** Answers every batch received so far, one reply message per batch. */
  answerAll(): void {
    for (const batch of this.batches.splice(0)) this.listener?.(batch.map(reply));
  }

  get requests(): WorkerRequest[] {
    return this.batches.flat();
  }
}

function reply(request: WorkerRequest): WorkerReply {
  switch (request.type) {
    case 'registry':
      return { type: 'ack', id: request.id };
    case 'verify':
      return { type: 'verified', id: request.id, canonical: request.text, signingHash: 'h', keyId: 'k', registryRevision: 1 };
    case 'sign':
      return { type: 'signed', id: request.id, texts: request.documents.map((d) => String(d['n'])), hashes: request.documents.map((d) => `h${String(d['n'])}`) };
  }
}

/** The end of this turn of the event loop, when the pool posts what it queued. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function pool(workers: number, limits = { fillThreshold: 8, signChunkMin: 16, inlineSignMax: 0 }): { pool: CryptoPool; ports: FakePort[] } {
  const ports = Array.from({ length: workers }, () => new FakePort());
  return { pool: new CryptoPool(ports, limits), ports };
}

const documents = (count: number): JsonObject[] => Array.from({ length: count }, (_, n) => ({ n }));

describe('pickWorker', () => {
  it('takes the lowest-numbered worker under the threshold, even when a later one is idler', () => {
    expect(pickWorker([0, 0, 0], 8)).toBe(0);
    expect(pickWorker([7, 0, 0], 8)).toBe(0);
    expect(pickWorker([8, 3, 0], 8)).toBe(1);
  });

  it('takes the least loaded when every worker is at or over the threshold, the lowest-numbered among equals', () => {
    expect(pickWorker([12, 9, 10], 8)).toBe(1);
    expect(pickWorker([9, 9, 9], 8)).toBe(0);
  });
});

describe('signParts', () => {
  it('keeps a batch under twice the minimum whole, however many workers there are', () => {
    expect(signParts(20, 16, 16)).toEqual([20]);
    expect(signParts(7, 16, 16)).toEqual([7]);
    expect(signParts(31, 16, 16)).toEqual([31]);
  });

  it('splits larger batches into even parts of at least the minimum, never more parts than workers', () => {
    expect(signParts(40, 16, 16)).toEqual([20, 20]);
    expect(signParts(50, 16, 16)).toEqual([17, 17, 16]);
    expect(signParts(256, 4, 16)).toEqual([64, 64, 64, 64]);
    expect(signParts(0, 4, 16)).toEqual([]);
  });
});

describe('CryptoPool dispatch', () => {
  it('sends one message per worker per turn, filling the first worker to the threshold before the next', async () => {
    const { pool: p, ports } = pool(4);
    const answers = Array.from({ length: 10 }, (_, i) => p.verify(`c${i}`, false));
    expect(ports.map((port) => port.batches.length)).toEqual([0, 0, 0, 0]);
    await turn();
    expect(ports.map((port) => port.batches.map((batch) => batch.length))).toEqual([[8], [2], [], []]);
    expect(p.queueDepth).toBe(10);
    for (const port of ports) port.answerAll();
    const replies = await Promise.all(answers);
    expect(replies.map((r) => (r.type === 'verified' ? r.canonical : r.type))).toEqual(Array.from({ length: 10 }, (_, i) => `c${i}`));
    expect(p.queueDepth).toBe(0);
  });

  it('leaves every worker but the first asleep while the load stays under the threshold', async () => {
    const { pool: p, ports } = pool(16);
    for (let round = 0; round < 5; round++) {
      const answers = [p.verify('a', false), p.verify('b', false), p.verify('c', false)];
      await turn();
      ports[0]?.answerAll();
      await Promise.all(answers);
    }
    expect(ports.map((port) => port.seen.length)).toEqual([15, ...Array<number>(15).fill(0)]);
  });

  it('signs a 20-Event batch in one request to one worker, and a large one in parts on several, results in input order', async () => {
    const { pool: p, ports } = pool(16);
    const small = p.sign(documents(20));
    await turn();
    expect(ports.map((port) => port.requests.length)).toEqual([1, ...Array<number>(15).fill(0)]);
    ports[0]?.answerAll();
    expect((await small).texts).toEqual(documents(20).map((d) => String(d['n'])));

    const large = p.sign(documents(64));
    await turn();
    expect(ports.map((port) => port.requests.map((r) => (r.type === 'sign' ? r.documents.length : 0)))).toEqual([[16], [16], [16], [16], ...Array<number[]>(12).fill([])]);
    for (const port of [...ports].reverse()) port.answerAll();
    const signed = await large;
    expect(signed.texts).toEqual(documents(64).map((d) => String(d['n'])));
    expect(signed.hashes[63]).toBe('h63');
  });

  it('queues Registry changes to every worker ahead of the requests that follow them, in the same message', async () => {
    const { pool: p, ports } = pool(2, { fillThreshold: 1, signChunkMin: 16, inlineSignMax: 0 });
    const synced = p.syncRegistry(2, [], false);
    const answers = [p.verify('x', false), p.verify('y', false)];
    await turn();
    expect(ports.map((port) => port.batches.map((batch) => batch.map((r) => r.type)))).toEqual([[['registry', 'verify']], [['registry', 'verify']]]);
    for (const port of ports) port.answerAll();
    await synced;
    expect((await Promise.all(answers)).map((r) => r.type)).toEqual(['verified', 'verified']);
  });

  it('counts a signing part by its documents, so the next request goes to another worker', async () => {
    const { pool: p, ports } = pool(2);
    const signed = p.sign(documents(10));
    const verified = p.verify('v', false);
    await turn();
    expect(ports.map((port) => port.requests.map((r) => r.type))).toEqual([['sign'], ['verify']]);
    for (const port of ports) port.answerAll();
    await Promise.all([signed, verified]);
  });

  it('signs up to inlineSignMax Events on the calling thread with the Authority key, and more on a worker', async () => {
    const ports = [new FakePort()];
    const key = { keyId: 'urn:missionweave:key:authority', privateKey: generatePrivateKey() };
    const p = new CryptoPool(ports, { fillThreshold: 8, signChunkMin: 16, inlineSignMax: 2 }, key);
    const event = (n: number): JsonObject => ({ eventId: `urn:uuid:${n}`, kind: 'message.posted', occurredAt: '2026-12-02T10:00:00Z', acceptedBy: { type: 'service', id: 'urn:a' }, payload: { n } });
    const inline = await p.sign([event(1), event(2)]);
    expect(ports[0]?.seen).toEqual([]);
    // Ed25519 is deterministic: the same texts and hashes a worker's signEventDocuments gives.
    expect(inline).toEqual(signEventDocuments([event(1), event(2)], key));
    expect(inline.texts[0]).toContain('"signature"');
    const three = p.sign([event(1), event(2), event(3)]);
    await turn();
    expect(ports[0]?.seen.map((r) => r.type)).toEqual(['sign']);
    ports[0]?.answerAll();
    await three;
  });

  it('holds the process alive only while a worker owes replies', async () => {
    const { pool: p, ports } = pool(2);
    const first = p.verify('a', false);
    const second = p.verify('b', false);
    expect(ports.map((port) => port.held)).toEqual([true, false]);
    await turn();
    ports[0]?.answerAll();
    await Promise.all([first, second]);
    expect(ports.map((port) => port.held)).toEqual([false, false]);
  });
});
