/**
 * Messages between the main thread and crypto workers. One message carries every request the
 * main thread queued for that worker in one turn of its event loop, in order; the worker answers
 * it with one message holding the replies, in the same order (issue 16: a hand-off costs a
 * structured clone and a thread wake-up on each side, so they are paid per batch, not per
 * request).
 */

import type { KeyBindingEvidence } from '../../protocol/signing/keyRegistry.js';
import type { VerificationFailure } from '../../protocol/signing/verification.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import type { EmbeddedReport } from '../verifyCommand.js';
import type { WireError } from '../wireError.js';

export type WorkerRequest =
  | { readonly type: 'registry'; readonly id: number; readonly revision: number; readonly bindings: readonly KeyBindingEvidence[]; readonly full: boolean }
  /** `frame`: the text is a whole COMMAND frame; verify its `command`. */
  | { readonly type: 'verify'; readonly id: number; readonly text: string; readonly frame: boolean }
  | { readonly type: 'sign'; readonly id: number; readonly documents: readonly JsonObject[] };

export type WorkerReply =
  | { readonly type: 'ready'; readonly id: 0 }
  | { readonly type: 'ack'; readonly id: number }
  | {
      readonly type: 'verified';
      readonly id: number;
      readonly canonical: string;
      readonly signingHash: string;
      readonly keyId: string;
      readonly registryRevision: number;
      readonly embedded?: readonly EmbeddedReport[];
    }
  | { readonly type: 'rejected'; readonly id: number; readonly error: WireError; readonly diagnostic: VerificationFailure | undefined }
  | { readonly type: 'signed'; readonly id: number; readonly texts: string[]; readonly hashes: string[] }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

/** One message to a worker: its queued requests, in order. */
export type WorkerBatch = readonly WorkerRequest[];

/** One message from a worker: the replies to one batch, in its order (or `ready`, alone, at start). */
export type WorkerReplies = readonly WorkerReply[];
