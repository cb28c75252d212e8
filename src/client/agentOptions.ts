/**
 * What a `MissionWeaveAgent` is configured with, and its reconnect policy: which closes end
 * the Agent for good and how long it waits before the next attempt.
 */

import type { KeyObject } from 'node:crypto';
import type { RegistryEvidence } from '../protocol/signing/keyRegistry.js';
import type { EpochProvider } from './commands.js';
import type { CursorStore } from './cursorStore.js';
import type { PublishedRegistryKey } from './registrySnapshot.js';
import { AgentClientError, MissionWeaveError, type AgentError } from './errors.js';
import type { SessionClose } from './session.js';
import { keySigner, type Signer } from './signer.js';

export interface MissionWeaveAgentOptions {
  /** `wss://host:port` (the `/v1/ws` path is added) or the full endpoint URL. */
  readonly url: string;
  readonly agentId: string;
  /** The Agent's Registry key ID; with a `signer`, the signer's own (and may be left out). */
  readonly keyId?: string;
  /** The Agent's Ed25519 private key, as a KeyObject or PKCS#8 PEM text; or give a `signer`. */
  readonly privateKey?: KeyObject | string;
  /** Signs HELLO challenges and Commands in place of `privateKey` (a KMS, an HSM, …). */
  readonly signer?: Signer;
  /**
   * The Registry snapshot Events are verified against, pinned by the Agent (the document
   * `missionweave registry export` prints, or its text). When absent, the SDK reads
   * `GET /v1/registry` with the session and caches it by revision.
   */
  readonly registry?: string | Uint8Array | RegistryEvidence;
  /**
   * The Organization's published Registry key (`missionweave init` prints it as `registry`):
   * given it, a Registry snapshot, fetched or pinned, is used only when that key signed it
   * (`verifyRegistrySnapshot`), so the Events' keys rest on the Organization's signature rather
   * than on the connection they came over.
   */
  readonly registryKey?: PublishedRegistryKey;
  /**
   * `false` hands Events over without checking their signatures. Only for an Agent that
   * verifies them itself, or trusts the connection alone. Default `true`.
   */
  readonly verifyEvents?: boolean;
  /** The CA or server certificate (PEM) to trust for TLS; the system store when absent. */
  readonly ca?: string | Buffer;
  /** Where Cursors are kept; a MemoryCursorStore when absent. */
  readonly cursorStore?: CursorStore;
  readonly reconnect?: { readonly initialDelayMs?: number; readonly maxDelayMs?: number };
  /** Membership and Coordinator Epochs for Commands whose options leave them out. */
  readonly epochs?: EpochProvider;
  /** Default 10 s. */
  readonly handshakeTimeoutMs?: number;
  /** PING interval; the server closes silent connections after two minutes. Default 25 s. */
  readonly pingIntervalMs?: number;
  /** How long Cursors gather before one ACK frame carries them. Default 100 ms. */
  readonly ackDelayMs?: number;
  /** How long a gap may stay open before the Group is subscribed again. Default 250 ms. */
  readonly gapGraceMs?: number;
  /** Unchanged resends of a Command refused with a `retryable` code. Default 3. */
  readonly commandRetries?: number;
}

export type AgentState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'failed' | 'closed';

export interface ConnectionChange {
  readonly state: AgentState;
  readonly sessionEpoch: number | undefined;
  /** How the previous session ended, on `reconnecting`, `failed` and `closed`. */
  readonly close?: SessionClose;
}

/** Where the n-th retry lands: exponential, capped, with full jitter over its upper half. */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

/** WebSocket closes that say the same connection would fail the same way again. */
const FINAL_WS_CODES: ReadonlySet<number> = new Set([1002, 1003, 1007, 1008, 1009, 1010]);

export function isFinalClose(close: SessionClose): boolean {
  if (close.error instanceof MissionWeaveError && close.error.retryable) return false;
  return (close.code >= 4500 && close.code <= 4999) || FINAL_WS_CODES.has(close.code);
}

/** Whether a failed HELLO would fail the same way again. */
export function isFinalFailure(error: AgentError): boolean {
  if (error instanceof MissionWeaveError) return !error.retryable;
  if (error.code === 'PROTOCOL_VIOLATION_BY_SERVER') return true;
  return error.closeCode !== undefined && isFinalClose({ code: error.closeCode, reason: '' });
}

/** The WebSocket endpoint, and the HTTPS origin snapshots are fetched from. */
export function endpoint(url: string): { ws: string; origin: URL } {
  const parsed = new URL(url);
  if (parsed.protocol !== 'wss:') throw new AgentClientError('INVALID_ARGUMENT', `MissionWeaveProtocol 0.1 runs over wss only, not ${parsed.protocol}`);
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = '/v1/ws';
  return { ws: parsed.toString(), origin: new URL(`https://${parsed.host}`) };
}

/** The one Signer the options name: `signer`, or `privateKey` under `keyId`. */
export function signerOf(options: MissionWeaveAgentOptions): Signer {
  if (options.signer !== undefined) {
    if (options.privateKey !== undefined) throw new AgentClientError('INVALID_ARGUMENT', 'give either privateKey or signer, not both');
    if (typeof options.signer.keyId !== 'string' || typeof options.signer.sign !== 'function') throw new AgentClientError('INVALID_ARGUMENT', 'a signer has a keyId and a sign(bytes) function');
    if (options.keyId !== undefined && options.keyId !== options.signer.keyId) throw new AgentClientError('INVALID_ARGUMENT', `keyId ${options.keyId} differs from the signer's ${options.signer.keyId}`);
    return options.signer;
  }
  if (options.privateKey === undefined || options.keyId === undefined) throw new AgentClientError('INVALID_ARGUMENT', 'give keyId and privateKey, or a signer');
  try {
    return keySigner(options.keyId, options.privateKey);
  } catch (cause) {
    throw new AgentClientError('INVALID_ARGUMENT', 'the Agent key must be an Ed25519 private key', { cause });
  }
}
