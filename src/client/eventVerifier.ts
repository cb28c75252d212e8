/**
 * Every Event is checked before any handler sees it: the six stages of the Signed Document
 * Verification Profile (§6.4) with the Event's signer rule (`acceptedBy`), against a Registry
 * snapshot — the Group Authority's `GET /v1/registry` read with the session token, or one the
 * Agent pinned, either checked against the Organization's published Registry key when the Agent
 * holds it (`registrySnapshot.ts`) — and the signing key must belong to an Organization service:
 * an Agent's own valid signature over a document that calls itself an Event accepts nothing.
 *
 * The fetched snapshot is cached and replaced only by a newer revision (a superseded one must
 * not be presented as current, §6.4). A key the snapshot does not know may have been enrolled
 * since: the snapshot is fetched again once for that key before the Event fails. A Registry
 * that cannot be fetched or does not validate fails stage 4, as §6.4 requires.
 */

import { KeyRegistry, RegistryProblem } from '../protocol/signing/keyRegistry.js';
import { verifyParsedDocument, type RegistryInput } from '../protocol/signing/verifySignedDocument.js';
import { STAGE_CODES } from '../protocol/signing/verification.js';
import { readSchemaDocuments } from '../protocol/schemas/files.js';
import { SchemaRegistry } from '../protocol/schemas/registry.js';
import { parseStrictJson, type JsonObject } from '../protocol/strictJson.js';
import { AgentClientError, EventVerificationError } from './errors.js';
import { MAX_REGISTRY_BYTES } from './limits.js';
import { registryEvidenceIn, verifyRegistrySnapshot, type PublishedRegistryKey } from './registrySnapshot.js';

export type EventCheck = { readonly ok: true } | { readonly ok: false; readonly error: EventVerificationError };

/** Where the Registry comes from: fetched from the Group Authority, or pinned by the Agent. */
export type RegistrySource = { readonly pinned: KeyRegistry } | { readonly fetch: () => Promise<RegistryDocument> };

export interface RegistryDocument {
  readonly revision: number;
  readonly evidence: unknown;
}

/** Key IDs already refetched for: a server naming ever new unknown keys costs one read each, at most this many. */
const REFETCHED_KEYS_LIMIT = 1024;

const OK: EventCheck = { ok: true };

/** Stage 2 needs the Event schema and what it references, nothing else (§6.4). */
const EVENT_SCHEMA_DOCUMENTS: ReadonlySet<string> = new Set(['event', 'common']);

let eventSchemas: SchemaRegistry | undefined;

/**
 * The Event schema, compiled on first use. Only it: compiling all of the package's schemas
 * (every object and Command payload) would stall the first Event for seconds.
 */
function eventSchemaRegistry(): SchemaRegistry {
  eventSchemas ??= SchemaRegistry.compile(readSchemaDocuments().filter((d) => d.role === 'object' && EVENT_SCHEMA_DOCUMENTS.has(d.name)));
  return eventSchemas;
}

/**
 * Loads a Registry snapshot document — the signed one `registry export` writes and
 * `GET /v1/registry` serves (its `registry` member), or bare Registry evidence in the normative
 * fixture form — without checking its signature (`verifyRegistrySnapshot` does); throws
 * `RegistryProblem`.
 */
export function loadRegistry(document: unknown): KeyRegistry {
  const bytes = typeof document === 'string' ? Buffer.from(document, 'utf8') : document;
  const value = bytes instanceof Uint8Array ? parseStrictJson(bytes, { maxBytes: MAX_REGISTRY_BYTES, maxDepth: 16 }) : document;
  return KeyRegistry.fromEvidence(registryEvidenceIn(value));
}

export class EventVerifier {
  private registry: RegistryInput | undefined;
  private revision = -1;
  private fetching: Promise<void> | undefined;
  private readonly refetched = new Set<string>();

  constructor(private readonly source: RegistrySource) {
    if ('pinned' in source) this.registry = source.pinned;
  }

  /** The check's outcome, at once when the Registry at hand decides it. */
  verify(event: JsonObject): EventCheck | Promise<EventCheck> {
    // No usable snapshot yet, or the last one did not validate: read the current one first.
    if (!(this.registry instanceof KeyRegistry)) return this.refresh().then(() => this.check(event, false));
    return this.check(event, true);
  }

  private check(event: JsonObject, mayRefetch: boolean): EventCheck | Promise<EventCheck> {
    const registry = this.registry ?? new RegistryProblem('registry-unavailable', 'no Registry snapshot');
    const result = verifyParsedDocument('event', event, registry, eventSchemaRegistry());
    if (result.ok) {
      if (result.verified.principal.type === 'service') return OK;
      return { ok: false, error: new EventVerificationError('AUTH_INVALID_SIGNATURE', 'key-resolution', 'signer-not-a-service', event) };
    }
    const { stage, reason } = result.failure;
    const keyId = (event['signature'] as JsonObject | undefined)?.['keyId'];
    if (mayRefetch && 'fetch' in this.source && reason === 'unknown-key' && typeof keyId === 'string' && !this.refetched.has(keyId)) {
      if (this.refetched.size >= REFETCHED_KEYS_LIMIT) this.refetched.clear();
      this.refetched.add(keyId);
      return this.refresh().then(() => this.check(event, false));
    }
    // Without the Registry nothing can be verified; asking again later may succeed.
    const retryable = registry instanceof RegistryProblem && reason === 'registry-unavailable';
    return { ok: false, error: new EventVerificationError(STAGE_CODES[stage], stage, reason, event, retryable) };
  }

  /** Fetches the Registry; concurrent callers share one read. A failure leaves the last good snapshot. */
  private refresh(): Promise<void> {
    if (!('fetch' in this.source)) return Promise.resolve();
    const fetch = this.source.fetch;
    this.fetching ??= (async () => {
      try {
        const document = await fetch();
        if (document.revision < this.revision) return;
        const registry = loadRegistry(document.evidence);
        this.registry = registry;
        if (document.revision !== this.revision) this.refetched.clear();
        this.revision = document.revision;
      } catch (error) {
        if (error instanceof RegistryProblem) this.registry = error;
        else this.registry ??= new RegistryProblem('registry-unavailable', (error as Error).message);
      } finally {
        this.fetching = undefined;
      }
    })();
    return this.fetching;
  }
}

/**
 * The verifier an Agent's options ask for: over the pinned `registry`, else over `fetch`; none
 * with `verifyEvents: false`. A pinned snapshot that does not validate — or, given the
 * Organization's published `registryKey`, does not carry its signature — is refused at once.
 */
export function eventVerifierFor(options: { readonly registry?: unknown; readonly registryKey?: PublishedRegistryKey; readonly verifyEvents?: boolean }, fetch: () => Promise<RegistryDocument>): EventVerifier | undefined {
  if (options.verifyEvents === false) return undefined;
  if (options.registry === undefined) return new EventVerifier({ fetch });
  try {
    const pinned = options.registryKey === undefined ? loadRegistry(options.registry) : verifyRegistrySnapshot(options.registry, options.registryKey).registry;
    return new EventVerifier({ pinned });
  } catch (cause) {
    throw new AgentClientError('INVALID_ARGUMENT', `the pinned Registry snapshot is unusable: ${(cause as Error).message}`, { cause });
  }
}
