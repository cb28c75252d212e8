/**
 * Context Packages on the Agent's side (§13.3, §7.2, §8): the Group Authority issues a signed,
 * scoped summary to a late joiner, a provisional or newly activated member, and a replacement
 * Coordinator; the recipient lists and fetches its own over HTTPS with its session token, and
 * verifies each before it trusts a word of it:
 *
 * - the six stages of §6.4 over the Organization's Registry, and a signer that is the Agent the
 *   Registry snapshot names as the Organization's context generator (`contextTrust.ts`), never
 *   another Agent, nor the Group Authority service (the published schema makes an Agent the
 *   `generatedBy`);
 * - the hash the listing named, over the exact bytes served;
 * - the scope: this Group, and the Mission and WorkItem the caller expects;
 * - the range: `fromSequence ≤ toSequence`, no more Event IDs than the range holds, and every
 *   decision citing Events of the range;
 * - a newer version: one above the previous, naming it and carrying its hash.
 *
 * ```ts
 * const packages = agent.contextPackages();
 * const { document } = await packages.awaitLatest(groupId, { missionId });
 * ```
 */

import { sha256ContentHash } from '../protocol/contentHash.js';
import { readSchemaDocuments } from '../protocol/schemas/files.js';
import { SchemaRegistry } from '../protocol/schemas/registry.js';
import { verifyParsedDocument } from '../protocol/signing/verifySignedDocument.js';
import { parseStrictJson, type JsonObject } from '../protocol/strictJson.js';
import type { ContextTrust } from './contextTrust.js';
import { errorFromDocument } from './errors.js';
import { httpsGet } from './httpsGet.js';
import { MAX_JSON_DEPTH } from './limits.js';

/**
 * Bytes of one package or listing read back. The server caps a package at 2,000 source Events
 * and a few hundred short lines (src/domain/context/contextLimits.ts): well under 2 MiB, so 8 MiB
 * leaves room and still bounds what a misbehaving server can make the Agent hold.
 */
export const MAX_CONTEXT_PACKAGE_BYTES = 8 * 1024 * 1024;

/** How often `awaitLatest` asks again: packages are issued by the Authority's next reactor round. */
export const CONTEXT_PACKAGE_POLL_MS = 250;

/** How long `awaitLatest` waits by default: a few reactor periods. */
export const CONTEXT_PACKAGE_WAIT_MS = 30_000;

/** The provenance extension naming the previous version's hash (the server's own). */
const PROVENANCE = 'urn:missionweave:extension:context-provenance';

export interface ContextPackageDocument extends JsonObject {
  readonly contextPackageId: string;
  readonly version: number;
  readonly missionId: string;
  readonly groupId: string;
  readonly sourceEventRange: { readonly fromSequence: number; readonly toSequence: number; readonly eventIds: string[] };
  readonly artifactHashes: string[];
  readonly summary: string;
  readonly decisions: { readonly description: string; readonly sourceEventIds: string[] }[];
  readonly constraints: string[];
  readonly unresolvedQuestions: string[];
}

/** One entry of the recipient's listing. */
export interface ContextPackageListing {
  readonly contextPackageId: string;
  readonly version: number;
  readonly scope: string;
  readonly packageHash: string;
  readonly createdAt: string;
}

export interface VerifiedContextPackage {
  readonly document: ContextPackageDocument;
  /** `sha256:` over the bytes served: what a next version names as its previous one's hash. */
  readonly hash: string;
}

/** What the caller expects of a package; unset members are not checked. */
export interface ContextPackageExpectation {
  readonly missionId?: string;
  /** A WorkItem ID, or `null` for a Mission-scoped package. */
  readonly workItemId?: string | null;
  readonly hash?: string;
  readonly previous?: { readonly contextPackageId: string; readonly version: number; readonly hash: string };
}

export class ContextPackageError extends Error {}

let schemas: SchemaRegistry | undefined;

/** The Context Package schema and what it references, compiled on first use. */
function contextSchemas(): SchemaRegistry {
  schemas ??= SchemaRegistry.compile(readSchemaDocuments().filter((d) => d.role === 'object' && (d.name === 'context-package' || d.name === 'common')));
  return schemas;
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new ContextPackageError(message);
}

/** Verifies a package's bytes for the Group `groupId`; throws `ContextPackageError` on any failure. */
export function verifyContextPackage(bytes: Uint8Array, groupId: string, trust: ContextTrust, expected: ContextPackageExpectation = {}): VerifiedContextPackage {
  const hash = sha256ContentHash(bytes);
  check(expected.hash === undefined || expected.hash === hash, `the package's hash is ${hash}, not ${expected.hash ?? ''}`);
  check(trust.contextGenerator !== undefined, 'the Registry snapshot names no context generator, so no package is trusted');
  const value = parseStrictJson(bytes, { maxBytes: MAX_CONTEXT_PACKAGE_BYTES, maxDepth: MAX_JSON_DEPTH });
  const result = verifyParsedDocument('context-package', value, trust.registry, contextSchemas());
  if (!result.ok) throw new ContextPackageError(`the package does not verify: ${result.failure.stage} ${result.failure.reason}`);
  const signer = result.verified.principal;
  check(signer.type === 'agent' && signer.id === trust.contextGenerator, 'the package is not signed by the Organization’s context generator');
  const document = value as ContextPackageDocument;
  check(document.groupId === groupId, 'the package is not of this Group');
  check(expected.missionId === undefined || document.missionId === expected.missionId, 'the package is not of the expected Mission');
  if (expected.workItemId !== undefined) check((document['workItemId'] ?? null) === expected.workItemId, 'the package is not of the expected scope');
  const range = document.sourceEventRange;
  check(range.fromSequence <= range.toSequence && range.eventIds.length <= range.toSequence - range.fromSequence + 1, 'the source Event range is not a range');
  const cited = new Set(range.eventIds);
  check(document.decisions.every((d) => d.sourceEventIds.every((id) => cited.has(id))), 'a decision cites an Event outside the source range');
  const { previous } = expected;
  if (previous !== undefined) {
    const extension = (document['extensions'] as JsonObject | undefined)?.[PROVENANCE] as { data?: { previousPackageHash?: unknown } } | undefined;
    check(document.version === previous.version + 1 && document['previousContextPackageId'] === previous.contextPackageId, 'the package does not follow the previous version');
    check(extension?.data?.previousPackageHash === previous.hash, 'the package does not carry the previous version’s hash');
  }
  return { document, hash };
}

/** How a reader reaches the Group Authority: the Agent's origin, CA and live session. */
export interface ContextPackageAccess {
  readonly origin: URL;
  readonly ca: string | Buffer | undefined;
  readonly timeoutMs: number;
  readonly token: () => string | undefined;
  /** The Registry snapshot's keys and context generator, read when a package is fetched. */
  readonly trust: () => Promise<ContextTrust>;
}

/** The recipient's reader of its own Context Packages. */
export class ContextPackages {
  constructor(private readonly access: ContextPackageAccess) {}

  /** The Agent's newest packages in the Group, newest first. */
  async list(groupId: string): Promise<ContextPackageListing[]> {
    const body = await this.get(`/v1/groups/${encodeURIComponent(groupId)}/context-packages`);
    const value = parseStrictJson(body, { maxBytes: MAX_CONTEXT_PACKAGE_BYTES, maxDepth: MAX_JSON_DEPTH }) as { contextPackages?: ContextPackageListing[] };
    check(Array.isArray(value.contextPackages), 'the listing holds no contextPackages');
    return value.contextPackages as ContextPackageListing[];
  }

  /** One package, fetched and verified. */
  async fetch(groupId: string, contextPackageId: string, expected: ContextPackageExpectation = {}): Promise<VerifiedContextPackage> {
    const body = await this.get(`/v1/groups/${encodeURIComponent(groupId)}/context-packages/${encodeURIComponent(contextPackageId)}`);
    const verified = verifyContextPackage(body, groupId, await this.access.trust(), expected);
    check(verified.document.contextPackageId === contextPackageId, 'the package served is not the one asked for');
    return verified;
  }

  /**
   * The newest package (above `afterVersion` when given), waiting up to `waitMs` for the
   * Authority to issue it: a replacement Coordinator calls this once assigned (§7.2).
   */
  async awaitLatest(groupId: string, options: ContextPackageExpectation & { readonly afterVersion?: number; readonly waitMs?: number } = {}): Promise<VerifiedContextPackage> {
    const deadline = Date.now() + (options.waitMs ?? CONTEXT_PACKAGE_WAIT_MS);
    for (;;) {
      const newest = (await this.list(groupId)).find((p) => p.version > (options.afterVersion ?? 0));
      if (newest !== undefined) return this.fetch(groupId, newest.contextPackageId, { ...options, hash: newest.packageHash });
      if (Date.now() >= deadline) throw new ContextPackageError(`no Context Package in Group ${groupId} within ${options.waitMs ?? CONTEXT_PACKAGE_WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, CONTEXT_PACKAGE_POLL_MS));
    }
  }

  private async get(path: string): Promise<Buffer> {
    const token = this.access.token();
    if (token === undefined) throw new ContextPackageError('no session to read Context Packages with');
    const { status, body } = await httpsGet(new URL(path, this.access.origin), this.access.ca, this.access.timeoutMs, token, MAX_CONTEXT_PACKAGE_BYTES);
    if (status !== 200) throw errorFromDocument((parseStrictJson(body, { maxBytes: MAX_CONTEXT_PACKAGE_BYTES, maxDepth: MAX_JSON_DEPTH }) as { error?: unknown }).error);
    return body;
  }
}
