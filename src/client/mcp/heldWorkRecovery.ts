/**
 * What `missionweave mcp` does with its runtime when it starts (§11.5), before the work tools act:
 *
 * 1. the projection's outbox is sent, oldest first, with the bytes it was kept as (a Command
 *    signed before the last stop and never answered goes out unchanged; projectionSend.ts), and
 *    again after every reconnect;
 * 2. each WorkItem the runtime would resume (a safe checkpoint) or start (queued) is re-checked
 *    with the Authority (hostRecovery.ts): withdrawn if its Ownership Epoch moved, another Agent
 *    owns it or it ended — the model is told in `work_held` — and otherwise ready for `work_start`
 *    once the Authority has closed the old Session's lease;
 * 3. each WorkItem that was running without a durable checkpoint (`runtime-session-lost`) is
 *    reported to its Coordinator with `work.block` and stays blocked until it is unblocked.
 */

import type { MissionWeaveAgent } from '../agent.js';
import { recheckWork, reportLost } from '../runtime/hostRecovery.js';
import { outcomeText, sendOutbox } from '../runtime/projectionSend.js';
import type { OutboxRebase } from '../runtime/outboxRebase.js';
import type { OutboxCommands } from '../runtime/outboxCommands.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import type { HeldWork } from './heldWork.js';
import { keptAnswered } from './keptArtifacts.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Sends the outbox, one sending at a time (a reconnect during a sending queues the next behind it),
 * leaving the Commands `commands` is sending now to it and rebasing what a new Session fenced
 * (`rebase`, outboxRebase.ts); each answer is `told` to the held work, and a `work.submit`'s kept
 * Artifacts (keptArtifacts.ts) go once it is answered.
 */
export function outboxSender(runtime: AgentRuntime, agent: MissionWeaveAgent, log: (line: string) => void, commands?: OutboxCommands, held?: HeldWork, rebase?: OutboxRebase): () => Promise<void> {
  let flushing: Promise<void> = Promise.resolve();
  return () => {
    flushing = flushing.then(async () => {
      if (!runtime.projection.open) return;
      const { outbox } = runtime.projection;
      const outcomes = await sendOutbox(outbox, agent, commands?.inFlight, rebase).catch((error: unknown) => (log(`outbox: ${messageOf(error)}`), []));
      for (const outcome of outcomes) {
        log(`outbox ${outcomeText(outcome)}`);
        const kept = outbox.get(outcome.actionId);
        if (kept !== undefined && outcome.outcome !== 'unanswered') keptAnswered(runtime.projection, kept);
        if (held !== undefined && kept !== undefined && outcome.outcome !== 'unanswered') held.outboxAnswered(kept);
      }
    });
    return flushing;
  };
}

/** Settles a restart with the Authority (steps 2 and 3 above). */
export async function recoverHeldWork(held: HeldWork): Promise<void> {
  const { work } = held.runtime.recovery;
  const ctx = held.recoveryContext();
  for (const row of [...work.resumable, ...work.queued]) await recheckWork(ctx, row);
  for (const row of work.lost) await reportLost(ctx, row);
  const count = work.resumable.length + work.queued.length + work.lost.length;
  if (count > 0) held.log(`recovered ${count} held WorkItems: ${work.resumable.length} resumable, ${work.queued.length} queued, ${work.lost.length} lost`);
}
