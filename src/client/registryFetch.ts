/**
 * Reads the Organization's Registry snapshot from the Group Authority (`GET /v1/registry`),
 * authenticated by the session token, on the WebSocket's own origin and trusted CA.
 */

import { parseStrictJson } from '../protocol/strictJson.js';
import { errorFromDocument } from './errors.js';
import { MAX_REGISTRY_BYTES, type RegistryDocument } from './eventVerifier.js';
import { httpsGet } from './httpsGet.js';

export async function fetchRegistry(origin: URL, ca: string | Buffer | undefined, token: string, timeoutMs: number): Promise<RegistryDocument> {
  const { status, body } = await httpsGet(new URL('/v1/registry', origin), ca, timeoutMs, token, MAX_REGISTRY_BYTES);
  const value = parseStrictJson(body, { maxBytes: MAX_REGISTRY_BYTES, maxDepth: 16 });
  const document = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  if (status !== 200) throw errorFromDocument(document['error']);
  const revision = document['revision'];
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0) throw new Error('the Registry snapshot carries no revision');
  return { revision, evidence: document };
}
