/**
 * The console's plug-in point: each screen of a Group (timeline, WorkItems board, budgets,
 * members, interventions, Approval) is one Panel module the shell lists, so that a screen costs
 * one module. The shell owns the human's key, the session, signing and the live stream; a Panel
 * only reads through `ConsoleContext` and submits through it.
 */

import type { Names } from './names.js';

/** A JSON document as the Authority sent it. */
export type Json = null | boolean | number | string | Json[] | { [member: string]: Json };
export type JsonObject = { [member: string]: Json };

/** The §19 error document of a refusal (`{"error": …}` on HTTPS). */
export interface Refusal {
  readonly code: string;
  readonly message: string;
  readonly [member: string]: Json | undefined;
}

export type SubmitResult =
  | { readonly ok: true; readonly duplicate: boolean; readonly events: readonly JsonObject[] }
  | { readonly ok: false; readonly error: Refusal };

/** Envelope members a Command may carry besides actor, kind, payload, ids, time and signature. */
export interface CommandOptions {
  readonly conversationId?: string;
  readonly workItemId?: string;
  readonly expectedRevision?: number;
  readonly causedByEventId?: string;
  /** Defaults to the Panel's Group; `null` for a Command outside any Group. */
  readonly groupId?: string | null;
}

export interface ConsoleContext {
  /** The signed-in human. */
  readonly me: { readonly type: 'human'; readonly id: string; readonly keyId: string };
  readonly groupId: string;
  /** `GET /v1/groups/{groupId}/view` (docs/human-api.md), fresh. */
  view(): Promise<JsonObject>;
  /** GET a JSON read of the human API with the session token; a refusal rejects with a `Refusal`. */
  get(path: string): Promise<JsonObject>;
  /** Builds the Command, canonicalizes (JCS) and signs it in the page, and POSTs it. */
  submit(kind: string, payload: JsonObject, options?: CommandOptions): Promise<SubmitResult>;
  /** Shows a refusal to the human: its code and what to do about it. */
  showRefusal(error: Refusal): void;
  /** Who is who: Agents by their display name (`GET /v1/agents`), humans by handle (names.ts). */
  names(): Promise<Names>;
  /** Live Events of this Group, in sequence order; returns the unsubscribe function. */
  onEvent(listener: (event: JsonObject) => void): () => void;
}

export interface Panel {
  /** Stable, URL-safe: the shell's route is `#/groups/{groupId}/{id}`. */
  readonly id: string;
  readonly title: string;
  /** Renders into `root` (emptied by the shell); called again when the human returns to it. */
  render(root: HTMLElement, context: ConsoleContext): void | Promise<void>;
  /** Called when the human leaves the Panel: drop listeners and timers. */
  dispose?(): void;
}
