/**
 * The Group Authority's two write paths, each a group-commit queue: Group-scoped Commands in
 * batches over the Groups they lock (several batches at once when they share none), and
 * Organization-scoped ones one batch at a time. A batch that lost a race is retried; one that
 * failed otherwise is re-run tree by tree, then Command by Command, and a Command that fails alone
 * answers INTERNAL_ERROR, the cause logged.
 */

import type { Logger } from 'pino';
import type { Span } from '@opentelemetry/api';
import { CommitQueue } from './commitQueue.js';
import { PARALLEL_BATCH_MIN } from './limits.js';
import { BatchConflict, type CommandOutcome } from './outcomes.js';
import { lockedGroupsOf } from './batchPreloads.js';
import { runGroupBatch } from './runGroupBatch.js';
import { runOrganizationBatch, type OrganizationBatchDependencies } from './runOrganizationBatch.js';
import type { VerifiedCommand } from './verifyCommand.js';
import { afterGroupCommit } from './failpoints.js';
import { wireError } from './wireError.js';
import type { AuthorityMetrics } from './metrics/authorityMetrics.js';
import type { BatchPhases, Tracing } from './tracing/tracing.js';

/** PostgreSQL says "try again" with these: lost races, not faults. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01', '23505']);

function isRetryable(error: unknown): boolean {
  if (error instanceof BatchConflict) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}

export interface AuthorityQueues {
  readonly group: CommitQueue<VerifiedCommand, CommandOutcome>;
  readonly organization: CommitQueue<VerifiedCommand, CommandOutcome>;
}

export interface QueueContext {
  readonly deps: OrganizationBatchDependencies;
  readonly logger: Logger;
  readonly metrics: AuthorityMetrics;
  readonly tracing: Tracing;
  /** Each traced Command's `command.receive` span, for its batch's phase spans. */
  readonly spans: WeakMap<VerifiedCommand, Span>;
}

export function authorityQueues({ deps, logger, metrics, tracing, spans }: QueueContext): AuthorityQueues {
  const { settings, kinds } = deps;
  const failed = (item: VerifiedCommand, error: unknown): CommandOutcome => {
    logger.error({ err: error, actionId: item.envelope.actionId, kind: item.envelope.kind }, 'write transaction failed');
    deps.states.invalidate([item.envelope.groupId ?? '']);
    return { ok: false, error: wireError('INTERNAL_ERROR', '', { relatedActionId: item.envelope.actionId }) };
  };
  const group = new CommitQueue<VerifiedCommand, CommandOutcome>({
    maxBatch: settings.maxBatch,
    concurrency: settings.writerConcurrency,
    parallelMin: PARALLEL_BATCH_MIN,
    keysOf: (c) => lockedGroupsOf(kinds, c),
    // A failed batch over several Mission trees is re-run tree by tree: on Citus one tree's shard
    // may lie on a worker that is down, and the other trees' Commands keep their batches.
    partitionOf: (c) => deps.trees.cached(c.envelope.groupId ?? '') ?? c.envelope.groupId ?? '',
    run: async (items) => {
      const started = performance.now();
      const phases: BatchPhases | undefined = tracing.on ? { started } : undefined;
      const outcomes = await runGroupBatch(items, deps, phases);
      if (phases !== undefined) tracing.batchSpans(items.map((item) => spans.get(item)), phases);
      afterGroupCommit();
      metrics.batchCommitted('group', items.length, (performance.now() - started) / 1000);
      logger.debug({ commands: items.length, ms: Math.round(performance.now() - started) }, 'Group batch committed');
      return outcomes;
    },
    isRetryable,
    failed,
  });
  const organization = new CommitQueue<VerifiedCommand, CommandOutcome>({
    maxBatch: settings.maxBatch,
    concurrency: 1,
    keysOf: () => ['organization'],
    run: async (items) => {
      const started = performance.now();
      const outcomes = await runOrganizationBatch(items, deps);
      if (tracing.on) tracing.batchSpans(items.map((item) => spans.get(item)), { started, committed: performance.now() });
      metrics.batchCommitted('organization', items.length, (performance.now() - started) / 1000);
      return outcomes;
    },
    isRetryable,
    failed,
  });
  return { group, organization };
}
