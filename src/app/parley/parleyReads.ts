/**
 * Parley's reads over HTTPS (seed « Lecture »): the manifest, a thread as a tree, its
 * state-change log and the reader's inbox, computed by the pure reads of
 * `domain/parley/reads.ts` over the Parley slice of the stored Group state, read by the node's
 * generic profile slice read (`app/profileSlices.ts`): the reader passes the one read rule
 * first, as every Group read does. Reads never change state;
 * every Parley action stays a signed Command (`POST /v1/commands`).
 */

import { compareInstants, parseTimestamp } from '../../protocol/timestamp.js';
import type { GroupState } from '../../domain/kinds/groupState.js';
import { parleyManifest } from '../../domain/parley/manifest.js';
import { PARLEY_URI, speakerOf } from '../../domain/parley/parleyProfile.js';
import { parleyRefusal } from '../../domain/parley/parleyRefusals.js';
import { initialParleyState, type ParleyState, type ParleyThread } from '../../domain/parley/parleyTypes.js';
import { inbox, stateLog, threadTree, type InboxQuery } from '../../domain/parley/reads.js';
import type { Refusal } from '../../domain/model.js';
import type { Principal } from '../../protocol/principal.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import type { ProfileSlices } from '../profileSlices.js';
import { wireError, type WireError } from '../wireError.js';

export type ParleyRead = { readonly ok: true; readonly body: JsonObject } | { readonly ok: false; readonly error: WireError };

interface ReaderSlice {
  readonly group: GroupState;
  readonly slice: ParleyState;
}

/** A Parley refusal as the wire carries it: its §19 code, and its reason in `details`. */
function refused(refusal: Refusal, groupId: string): ParleyRead {
  const { code, reason, message } = refusal.error;
  return { ok: false, error: wireError(code, message, { groupId, details: { reason } }) };
}

/**
 * A Membership with limited visibility (a late joiner, §8) sees only the threads opened after it
 * was granted: Parley records carry times, not sequences, so the earlier ones stay hidden whole.
 */
function visibleSlice(slice: ParleyState, grantedAt: string): ParleyState {
  const after = parseTimestamp(grantedAt);
  const threads: Record<string, ParleyThread> = {};
  for (const [key, thread] of Object.entries(slice.threads)) {
    const created = parseTimestamp(thread.createdAt);
    if (after !== null && created !== null && compareInstants(created, after) > 0) threads[key] = thread;
  }
  return { ...slice, threads };
}

export class ParleyReads {
  constructor(private readonly slices: ProfileSlices) {}

  /** The Group's Parley slice as `reader` may see it, in one snapshot of the database. */
  private async readSlice(groupId: string, reader: Principal): Promise<{ ok: true; value: ReaderSlice } | { ok: false; error: WireError }> {
    const read = await this.slices.profileSlice(groupId, reader, PARLEY_URI);
    if (!read.ok) return read;
    const { group, membership } = read.value;
    const stored = (read.value.state as ParleyState | undefined) ?? initialParleyState();
    const slice = membership.visibilityStartSequence > 1 ? visibleSlice(stored, membership.grantedAt) : stored;
    return { ok: true, value: { group, slice } };
  }

  /** Seed « Transport et découverte »: what a participant needs to take part. */
  manifest(): JsonObject {
    return parleyManifest() as unknown as JsonObject;
  }

  /** The thread as a tree of messages in creation order, with its current state. */
  async thread(groupId: string, reader: Principal, thread: number): Promise<ParleyRead> {
    const read = await this.readSlice(groupId, reader);
    if (!read.ok) return read;
    const record = read.value.slice.threads[thread];
    const tree = threadTree(read.value.slice, thread);
    if (record === undefined || tree === undefined) return refused(parleyRefusal('unknown_thread', `no thread th_${thread} in this Group`), groupId);
    const { messages: _messages, log: _log, ...summary } = record;
    return { ok: true, body: { thread: summary, messages: tree } as unknown as JsonObject };
  }

  /** The thread's state-change log: origin, label, time and confirmation of each change. */
  async log(groupId: string, reader: Principal, thread: number): Promise<ParleyRead> {
    const read = await this.readSlice(groupId, reader);
    if (!read.ok) return read;
    const log = stateLog(read.value.slice, thread);
    if (log === undefined) return refused(parleyRefusal('unknown_thread', `no thread th_${thread} in this Group`), groupId);
    return { ok: true, body: { thread, log } as unknown as JsonObject };
  }

  /** The threads whose turn is the reader's (its `extension`'s own questions masked). */
  async inbox(groupId: string, reader: Principal, extension: string | undefined, query: InboxQuery): Promise<ParleyRead> {
    const read = await this.readSlice(groupId, reader);
    if (!read.ok) return read;
    const { rights } = speakerOf(read.value.group, reader, extension ?? '');
    const page = inbox(read.value.slice, { identity: reader.id, rights, ...(extension === undefined ? {} : { extension }) }, query);
    if ('ok' in page) return refused(page, groupId);
    return { ok: true, body: page as unknown as JsonObject };
  }
}
