/**
 * Restoring a Group from a signed Group Snapshot (§16, §7.4). When a SUBSCRIBE asks for a
 * position the online log no longer holds, the server answers CURSOR_TOO_OLD with
 * `snapshotArtifactHash` and `details.snapshotUrl`; an HTTPS GET of that path on the same
 * host returns the JCS text `{snapshot, state}`, whose SHA-256 must equal the hash. The SDK
 * fetches it (trusting the same CA as the WebSocket, refusing any other origin), checks the
 * hash and that the snapshot is this Group's, hands `{snapshot, state}` to the Agent's
 * `SnapshotHandler`, and resumes after `snapshot.throughSequence`.
 *
 * The SDK does not verify the snapshot's signature itself; a handler that wants to can check
 * `artifact.snapshot` against the Registry (`loadRegistry` over `registry export` or
 * `GET /v1/registry`) and throw to refuse it.
 */

import { sha256ContentHash } from '../protocol/contentHash.js';
import { parseStrictJson, type JsonObject, type JsonValue } from '../protocol/strictJson.js';
import { httpsGet } from './httpsGet.js';
import { MAX_JSON_DEPTH, MAX_SNAPSHOT_BYTES } from './limits.js';

export interface GroupSnapshotArtifact {
  /** The signed Group Snapshot: `groupId`, `throughSequence`, `eventIds`, `stateHash`, … */
  readonly snapshot: JsonObject & { readonly groupId: string; readonly throughSequence: number };
  /** The aggregate states the snapshot's `stateHash` covers. */
  readonly state: JsonValue;
  /** `sha256:<hex>` of the artifact text, as CURSOR_TOO_OLD named it. */
  readonly hash: string;
}

/** Takes over a restored snapshot's state; the Group resumes once it resolves, and not if it throws. */
export type SnapshotHandler = (groupId: string, artifact: GroupSnapshotArtifact) => Promise<void> | void;


/**
 * Fetches and checks the snapshot a CURSOR_TOO_OLD error names, authenticated by the session's
 * token; throws on any mismatch.
 */
export async function fetchSnapshot(origin: URL, groupId: string, path: unknown, expectedHash: unknown, ca: string | Buffer | undefined, timeoutMs: number, token: string): Promise<GroupSnapshotArtifact> {
  if (typeof path !== 'string' || typeof expectedHash !== 'string') throw new Error('CURSOR_TOO_OLD names no snapshot (details.snapshotUrl, snapshotArtifactHash)');
  const url = new URL(path, origin);
  if (url.origin !== origin.origin) throw new Error(`the snapshot is not on the Group Authority's own origin: ${url.origin}`);
  const { status, body } = await httpsGet(url, ca, timeoutMs, token, MAX_SNAPSHOT_BYTES);
  if (status !== 200) throw new Error(`GET ${url.pathname} answered ${status}: ${body.toString('utf8').slice(0, 200)}`);
  const hash = sha256ContentHash(body);
  if (hash !== expectedHash) throw new Error(`the snapshot's hash is ${hash}, not ${expectedHash}`);
  const parsed = parseStrictJson(body, { maxBytes: MAX_SNAPSHOT_BYTES, maxDepth: MAX_JSON_DEPTH });
  const artifact = (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {}) as Record<string, JsonValue>;
  const snapshot = artifact['snapshot'] as Record<string, JsonValue> | undefined;
  const through = snapshot?.['throughSequence'];
  if (snapshot?.['groupId'] !== groupId || typeof through !== 'number' || !Number.isSafeInteger(through) || through < 0) {
    throw new Error('the artifact is not a snapshot of this Group');
  }
  return { snapshot: snapshot as GroupSnapshotArtifact['snapshot'], state: artifact['state'] ?? null, hash };
}
