/**
 * Reads the Organization's Registry snapshot from the Group Authority (`GET /v1/registry`),
 * authenticated by the session token, on the WebSocket's own origin and trusted CA. Given the
 * Organization's published Registry key, the snapshot must carry that key's signature
 * (`verifyRegistrySnapshot`), so the connection is not what it is trusted for.
 */

import { parseStrictJson } from '../protocol/strictJson.js';
import { errorFromDocument } from './errors.js';
import type { RegistryDocument } from './eventVerifier.js';
import { httpsGet } from './httpsGet.js';
import { MAX_REGISTRY_BYTES } from './limits.js';
import { verifyRegistrySnapshot, type PublishedRegistryKey } from './registrySnapshot.js';

export async function fetchRegistry(origin: URL, ca: string | Buffer | undefined, token: string, timeoutMs: number, publishedKey?: PublishedRegistryKey): Promise<RegistryDocument> {
  const { status, body } = await httpsGet(new URL('/v1/registry', origin), ca, timeoutMs, token, MAX_REGISTRY_BYTES);
  const value = parseStrictJson(body, { maxBytes: MAX_REGISTRY_BYTES, maxDepth: 16 });
  const document = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  if (status !== 200) throw errorFromDocument(document['error']);
  if (publishedKey !== undefined) return { revision: verifyRegistrySnapshot(value, publishedKey).revision, evidence: document };
  const facts = document['snapshot'];
  const revision = typeof facts === 'object' && facts !== null ? (facts as Record<string, unknown>)['revision'] : undefined;
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0) throw new Error('the Registry snapshot carries no revision');
  return { revision, evidence: document };
}
