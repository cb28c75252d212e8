/**
 * The main thread's side of the crypto workers: verification of incoming Commands and signing
 * of outgoing Events spread over worker threads, so the thread that runs write transactions
 * spends its time on the database. Each worker receives Registry changes in order, before any
 * later request, so it never verifies against evidence older than what was sent before.
 */

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { KeyBindingEvidence } from '../../protocol/signing/keyRegistry.js';
import type { SchemaDocument } from '../../protocol/schemas/registry.js';
import type { SigningKey } from '../../protocol/signing/signDocument.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';

type Pending = (reply: WorkerReply) => void;

interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  load: number;
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
}

export class CryptoPool {
  private nextId = 1;

  private constructor(private readonly slots: Slot[]) {}

  static async start(options: CryptoPoolOptions): Promise<CryptoPool> {
    const data = {
      organizationId: options.organizationId,
      authorityKeyId: options.authorityKey.keyId,
      authorityKeyPem: options.authorityKey.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      profileSchemas: options.profileSchemas ?? [],
      extensionUris: options.extensionUris ?? [],
    };
    const slots = await Promise.all(
      Array.from({ length: options.size }, async () => {
        const worker = new Worker(workerScript(), { workerData: data });
        const slot: Slot = { worker, pending: new Map(), load: 0 };
        await new Promise<void>((resolve, reject) => {
          worker.once('error', reject);
          worker.once('message', () => resolve());
        });
        worker.on('message', (reply: WorkerReply) => {
          const resolve = slot.pending.get(reply.id);
          slot.pending.delete(reply.id);
          slot.load--;
          resolve?.(reply);
        });
        worker.unref();
        return slot;
      }),
    );
    return new CryptoPool(slots);
  }

  get size(): number {
    return this.slots.length;
  }

  /** Requests sent to the workers and not yet answered (the operator's crypto queue depth). */
  get queueDepth(): number {
    let depth = 0;
    for (const slot of this.slots) depth += slot.load;
    return depth;
  }

  private send(slot: Slot, request: WorkerRequest): Promise<WorkerReply> {
    slot.load++;
    return new Promise((resolve) => {
      slot.pending.set(request.id, resolve);
      slot.worker.postMessage(request);
    });
  }

  private leastLoaded(): Slot {
    return this.slots.reduce((best, slot) => (slot.load < best.load ? slot : best));
  }

  /** Sends Registry changes to every worker (ordered before their later requests). */
  syncRegistry(revision: number, bindings: readonly KeyBindingEvidence[], full: boolean): Promise<void> {
    return Promise.all(this.slots.map((slot) => this.send(slot, { type: 'registry', id: this.nextId++, revision, bindings, full }))).then(() => undefined);
  }

  verify(text: string, frame: boolean): Promise<WorkerReply> {
    return this.send(this.leastLoaded(), { type: 'verify', id: this.nextId++, text, frame });
  }

  /** Signs Event documents, split evenly over the workers; results in input order. */
  async sign(documents: readonly JsonObject[]): Promise<{ texts: string[]; hashes: string[] }> {
    const chunk = Math.ceil(documents.length / this.slots.length);
    const replies = await Promise.all(
      this.slots.map((slot, i) => {
        const part = documents.slice(i * chunk, (i + 1) * chunk);
        return part.length === 0 ? Promise.resolve(undefined) : this.send(slot, { type: 'sign', id: this.nextId++, documents: part });
      }),
    );
    const texts: string[] = [];
    const hashes: string[] = [];
    for (const reply of replies) {
      if (reply === undefined) continue;
      if (reply.type !== 'signed') throw new Error(`signing failed: ${JSON.stringify(reply)}`);
      texts.push(...reply.texts);
      hashes.push(...reply.hashes);
    }
    return { texts, hashes };
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}
