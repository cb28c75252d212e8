/**
 * The bounded offline execution binding (§11.5): the critical extension a Worker puts on the
 * progress it buffers while the Group service is unreachable, and which kinds may carry it.
 *
 * Only reversible progress may be buffered — "signed progress and checkpoints" — so the binding is
 * interpreted on two kinds: `message.post` in the WorkItem's own Conversation, and
 * `work.checkpoint`. `work.block` is not among them: blocking asks the Coordinator to act and
 * releases the slot under a new blocked lease, a transition a reconnected Worker issues afresh
 * under its current lease, not a historical fact to reconcile. Any other kind carrying the binding
 * is refused as INVALID_COMMAND (the binding is understood, but means nothing there).
 */

import { OFFLINE_EXECUTION_EXTENSION, type ResourceUsage } from '../../protocol/offlineExecution.js';
import type { CommandEnvelope } from '../model.js';
export { addUsage, isZeroUsage, NO_USAGE, USAGE_DIMENSIONS } from '../budgetMath.js';

/** Every 0.1.x is interpreted (a Group pins major versions, §18). */
const INTERPRETED_VERSION = /^0\.1\.\d+$/;

export type { ResourceUsage };

/** `schemas/offline-execution-binding.schema.json`, checked by the front before any decision. */
export interface OfflineBinding {
  readonly agentId: string;
  readonly groupId: string;
  readonly workItemId: string;
  /** The original Session Epoch, the historical Execution Lease's. */
  readonly sessionEpoch: number;
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
  readonly disconnectedAt: string;
  readonly bufferedAt: string;
  readonly graceDeadline: string;
  readonly executionLeaseExpiresAt: string;
  readonly resourceUsageDelta: ResourceUsage;
}

/** What a bufferable kind's payload says it acts on, read by the reconciliation. */
export interface OfflineTarget {
  /** `message.post`: the Conversation, which must be the bound WorkItem's. */
  readonly conversationId?: string;
  /** `work.checkpoint`: the WorkItem and Ownership Epoch, which must be the bound ones. */
  readonly workItemId?: string;
  readonly ownershipEpoch?: number;
  /** `work.checkpoint`: when the checkpoint was taken, which must lie in the offline window. */
  readonly checkpointAt?: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The kinds a Worker may buffer offline, and how to read their target (payloads are schema-valid). */
const BUFFERABLE: Readonly<Record<string, (payload: CommandEnvelope['payload']) => OfflineTarget>> = {
  'message.post': (payload) => ({ conversationId: text(payload['conversationId']) }),
  'work.checkpoint': (payload) => {
    const checkpoint = payload['checkpoint'];
    const createdAt = typeof checkpoint === 'object' && checkpoint !== null && !Array.isArray(checkpoint) ? text(checkpoint['createdAt']) : undefined;
    const epoch = payload['ownershipEpoch'];
    return {
      workItemId: text(payload['workItemId']),
      ...(typeof epoch === 'number' ? { ownershipEpoch: epoch } : {}),
      ...(createdAt === undefined ? {} : { checkpointAt: createdAt }),
    };
  },
};

export function bufferableKinds(): string[] {
  return Object.keys(BUFFERABLE);
}

export type BindingRead =
  | { readonly found: false }
  | { readonly found: true; readonly problem: 'kind' | 'not-critical' | 'version' }
  | { readonly found: true; readonly problem?: undefined; readonly binding: OfflineBinding; readonly target: OfflineTarget };

/** The binding a Command carries, judged for kind, criticality and version. */
export function readBinding(command: CommandEnvelope): BindingRead {
  const extension = command.extensions?.[OFFLINE_EXECUTION_EXTENSION];
  if (extension === undefined) return { found: false };
  const target = BUFFERABLE[command.kind];
  if (target === undefined) return { found: true, problem: 'kind' };
  if (extension.critical !== true) return { found: true, problem: 'not-critical' };
  if (!INTERPRETED_VERSION.test(extension.version)) return { found: true, problem: 'version' };
  return { found: true, binding: extension.data as unknown as OfflineBinding, target: target(command.payload) };
}

