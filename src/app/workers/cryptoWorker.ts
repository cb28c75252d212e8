/**
 * A crypto worker thread: the CPU-heavy, stateless parts of the pipeline — strict parsing,
 * schemas, the six verification stages of incoming Commands, and signing outgoing Events — off
 * the thread that drives the write transactions. It keeps its own copy of the Registry,
 * updated by deltas from the main thread.
 */

import { createPrivateKey } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { sha256ContentHash } from '../../protocol/contentHash.js';
import type { SchemaDocument } from '../../protocol/schemas/registry.js';
import { schemaRegistryWith, workerFrontRules } from '../profiles.js';
import { KeyRegistry, type KeyBindingEvidence } from '../../protocol/signing/keyRegistry.js';
import { buildKindRegistry } from '../../domain/coreModules.js';
import { signDocumentWithBytes } from '../../protocol/signing/signDocument.js';
import type { JsonValue } from '../../protocol/strictJson.js';
import { embeddedReports, verifyCommandBytes, verifyCommandValue } from '../verifyCommand.js';
import type { WorkerBatch, WorkerReplies, WorkerReply, WorkerRequest } from './protocol.js';
import { applyRegistryDelta } from './applyRegistryDelta.js';

interface Setup {
  readonly organizationId: string;
  readonly authorityKeyId: string;
  readonly authorityKeyPem: string;
  readonly profileSchemas: readonly SchemaDocument[];
  readonly extensionUris: readonly string[];
}

const setup = workerData as Setup;
const schemas = schemaRegistryWith(setup.profileSchemas);
// A worker thread is a composition root of its own: it builds the kinds it verifies against once.
const rules = workerFrontRules(buildKindRegistry([]), setup.extensionUris);
const authorityKey = { keyId: setup.authorityKeyId, privateKey: createPrivateKey(setup.authorityKeyPem) };
let registry = KeyRegistry.fromEvidence({ organizationId: setup.organizationId, bindings: [] });
let revision = -1;

function applyRegistry(next: number, bindings: readonly KeyBindingEvidence[], full: boolean): void {
  registry = full ? KeyRegistry.fromEvidence({ organizationId: setup.organizationId, bindings }, { pointsAlreadyProven: true }) : applyRegistryDelta(registry, bindings);
  revision = next;
}

function handle(request: WorkerRequest): WorkerReply {
  switch (request.type) {
    case 'registry':
      applyRegistry(request.revision, request.bindings, request.full);
      return { type: 'ack', id: request.id };
    case 'verify': {
      const evidence = { registry, revision };
      const result = request.frame
        ? verifyCommandValue((JSON.parse(request.text) as { command: JsonValue }).command, evidence, schemas, rules)
        : verifyCommandBytes(Buffer.from(request.text, 'utf8'), evidence, schemas, rules);
      if (!result.ok) return { type: 'rejected', id: request.id, error: result.error, diagnostic: result.diagnostic };
      const { command } = result;
      const reports = embeddedReports(command);
      const embedded = reports === undefined ? {} : { embedded: reports };
      return { type: 'verified', id: request.id, canonical: command.canonical, signingHash: command.verified.signingHash, keyId: command.verified.keyId, registryRevision: revision, ...embedded };
    }
    case 'sign': {
      const texts: string[] = [];
      const hashes: string[] = [];
      for (const document of request.documents) {
        const { text, signingBytes } = signDocumentWithBytes('event', document, authorityKey);
        texts.push(text);
        hashes.push(sha256ContentHash(signingBytes));
      }
      return { type: 'signed', id: request.id, texts, hashes };
    }
    default: {
      const _exhaustive: never = request;
      throw new Error(`unknown request ${JSON.stringify(_exhaustive)}`);
    }
  }
}

/** One request's reply; a request that throws fails alone, the rest of its batch still runs. */
function answer(request: WorkerRequest): WorkerReply {
  try {
    return handle(request);
  } catch (error) {
    return { type: 'failed', id: request.id, message: (error as Error).message };
  }
}

// A batch is answered whole, in one message, in its order (protocol.ts).
parentPort?.on('message', (batch: WorkerBatch) => {
  parentPort?.postMessage(batch.map(answer) satisfies WorkerReplies);
});
parentPort?.postMessage([{ type: 'ready', id: 0 }] satisfies WorkerReplies);
