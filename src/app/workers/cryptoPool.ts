/**
 * The main thread's side of the crypto workers: verification of incoming Commands and signing
 * of outgoing Events spread over worker threads, so the thread that runs write transactions
 * spends its time on the database. Each worker receives Registry changes in order, before any
 * later request, so it never verifies against evidence older than what was sent before.
 *
 * Dispatch (issue 16, part 4: more workers must never cost more): a request goes to the
 * lowest-numbered worker with little unanswered work (`dispatch.ts`), so idle workers stay
 * asleep; requests for one worker wait in its outbox until the end of the current turn of the
 * event loop and leave as one message (`protocol.ts`); a signing batch is split only into parts
 * large enough to outweigh a hand-off (`workerLimits.ts`).
 */

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { KeyBindingEvidence } from '../../protocol/signing/keyRegistry.js';
import type { SchemaDocument } from '../../protocol/schemas/registry.js';
import type { SigningKey } from '../../protocol/signing/signDocument.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { signEventDocuments } from '../eventFactory.js';
import { pickWorker, signParts } from './dispatch.js';
import type { WorkerBatch, WorkerReplies, WorkerReply, WorkerRequest } from './protocol.js';
import { DEFAULT_DISPATCH_LIMITS, type DispatchLimits } from './workerLimits.js';

/** A worker as the pool uses it: a real thread, or in tests anything that answers batches. */
export interface WorkerPort {
  postMessage(batch: WorkerBatch): void;
  onReplies(listener: (replies: WorkerReplies) => void): void;
  /** Whether the worker keeps the process alive: only while it owes replies. */
  hold(held: boolean): void;
  terminate(): Promise<unknown>;
}

interface Pending {
  readonly resolve: (reply: WorkerReply) => void;
  /** Work units this request added to its worker's load. */
  readonly weight: number;
}

interface Slot {
  readonly port: WorkerPort;
  readonly pending: Map<number, Pending>;
  /** Work units sent or queued and not yet answered: one per Command to verify, one per Event to sign. */
  load: number;
  /** Requests queued this turn, not yet posted. */
  outbox: WorkerRequest[];
}

/**
 * The compiled worker script. Under the test runner this module is TypeScript source, which a
 * worker thread cannot run, so it maps to the build output (`npm test` builds first).
 */
function workerScript(): URL {
  const here = new URL('./cryptoWorker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return new URL(here.href.replace('/src/', '/dist/'));
}

export interface CryptoPoolOptions {
  readonly size: number;
  readonly organizationId: string;
  readonly authorityKey: SigningKey;
  /** Payload schemas of the registered Extension Profiles' kinds, and the profiles' URIs. */
  readonly profileSchemas?: readonly SchemaDocument[];
  readonly extensionUris?: readonly string[];
  readonly limits?: DispatchLimits;
}

/** Starts one worker thread and resolves once it has compiled its schemas and said so. */
async function startWorker(data: unknown): Promise<WorkerPort> {
  const worker = new Worker(workerScript(), { workerData: data });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => resolve());
  });
  worker.unref();
  return {
    postMessage: (batch) => worker.postMessage(batch),
    onReplies: (listener) => worker.on('message', listener),
    hold: (held) => (held ? worker.ref() : worker.unref()),
    terminate: () => worker.terminate(),
  };
}

export class CryptoPool {
  private nextId = 1;
  private readonly slots: Slot[];
  private flushScheduled = false;

  /** Over ports already started; `start` is the way to get real worker threads. */
  constructor(
    ports: readonly WorkerPort[],
    private readonly limits: DispatchLimits = DEFAULT_DISPATCH_LIMITS,
    /** The Authority's key, for the few Events signed on this thread (`inlineSignMax`); none: never. */
    private readonly authorityKey?: SigningKey,
  ) {
    this.slots = ports.map((port) => {
      const slot: Slot = { port, pending: new Map(), load: 0, outbox: [] };
      port.onReplies((replies) => this.settle(slot, replies));
      return slot;
    });
  }

  static async start(options: CryptoPoolOptions): Promise<CryptoPool> {
    const data = {
      organizationId: options.organizationId,
      authorityKeyId: options.authorityKey.keyId,
      authorityKeyPem: options.authorityKey.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      profileSchemas: options.profileSchemas ?? [],
      extensionUris: options.extensionUris ?? [],
    };
    const ports = await Promise.all(Array.from({ length: options.size }, () => startWorker(data)));
    return new CryptoPool(ports, options.limits, options.authorityKey);
  }

  get size(): number {
    return this.slots.length;
  }

  /** Requests sent to the workers and not yet answered (the operator's crypto queue depth). */
  get queueDepth(): number {
    let depth = 0;
    for (const slot of this.slots) depth += slot.pending.size;
    return depth;
  }

  private settle(slot: Slot, replies: WorkerReplies): void {
    for (const reply of replies) {
      const pending = slot.pending.get(reply.id);
      if (pending === undefined) continue;
      slot.pending.delete(reply.id);
      slot.load -= pending.weight;
      pending.resolve(reply);
    }
    if (slot.pending.size === 0) slot.port.hold(false);
  }

  /** Queues a request for `slot`; it leaves with the others queued this turn, in order. */
  private send(slot: Slot, request: WorkerRequest, weight: number): Promise<WorkerReply> {
    // An idle worker is unreferenced; one that owes a reply keeps the process up until it comes
    // (a start-up with nothing else pending, e.g. the first Registry sync, must not exit 0).
    if (slot.pending.size === 0) slot.port.hold(true);
    slot.load += weight;
    slot.outbox.push(request);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // After this turn's I/O callbacks (other connections' frames too) have queued theirs.
      setImmediate(() => this.flush());
    }
    return new Promise((resolve) => slot.pending.set(request.id, { resolve, weight }));
  }

  private flush(): void {
    this.flushScheduled = false;
    for (const slot of this.slots) {
      if (slot.outbox.length === 0) continue;
      const batch = slot.outbox;
      slot.outbox = [];
      slot.port.postMessage(batch);
    }
  }

  private pick(): Slot {
    return this.slots[pickWorker(this.slots.map((slot) => slot.load), this.limits.fillThreshold)] as Slot;
  }

  /** Sends Registry changes to every worker (ordered before their later requests). */
  syncRegistry(revision: number, bindings: readonly KeyBindingEvidence[], full: boolean): Promise<void> {
    return Promise.all(this.slots.map((slot) => this.send(slot, { type: 'registry', id: this.nextId++, revision, bindings, full }, 0))).then(() => undefined);
  }

  verify(text: string, frame: boolean): Promise<WorkerReply> {
    return this.send(this.pick(), { type: 'verify', id: this.nextId++, text, frame }, 1);
  }

  /**
   * Signs Event documents, in parts of at least `signChunkMin`, each to a worker picked as for a
   * verify; up to `inlineSignMax` of them on this thread. Results in input order.
   */
  async sign(documents: readonly JsonObject[]): Promise<{ texts: string[]; hashes: string[] }> {
    if (this.authorityKey !== undefined && documents.length <= this.limits.inlineSignMax) return signEventDocuments(documents, this.authorityKey);
    let start = 0;
    const replies = signParts(documents.length, this.slots.length, this.limits.signChunkMin).map((count) => {
      const part = documents.slice(start, start + count);
      start += count;
      return this.send(this.pick(), { type: 'sign', id: this.nextId++, documents: part }, count);
    });
    const texts: string[] = [];
    const hashes: string[] = [];
    for (const reply of await Promise.all(replies)) {
      if (reply.type !== 'signed') throw new Error(`signing failed: ${JSON.stringify(reply)}`);
      texts.push(...reply.texts);
      hashes.push(...reply.hashes);
    }
    return { texts, hashes };
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.port.terminate()));
  }
}
